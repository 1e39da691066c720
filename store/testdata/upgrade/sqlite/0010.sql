-- Data at schema version 10 (placeholder migrations of branch h-tune:
-- the same as version 9; replace with the real fixture when merging).
INSERT INTO studies VALUES(1,'upgrade','2026-12-01T10:32:11.461665738Z');
INSERT INTO trials VALUES(1,1,'0123456789abcdef',19088743,'old/run.json','vllm','',0,0,'{"engine":"vllm","engine_version":"0.8.5"}','{"tensor_parallel_size":"2"}',1024.0,128.0,NULL,NULL,16.0,NULL,1e999,NULL,500,499,1,'','["old warning"]','vllm','0.8.5','','','','','2026-12-01T10:32:11.461665738Z',X'176f75747075745f746f6b656e5f7468726f7567687075740008746f6b656e732f73116f75747075745f7468726f7567687075740000000000004a93400474746674137b22737461746973746963223a22703939227d026d730b7039395f747466745f6d73026d730000000000d05540','','',0,'',0,'','',X'','2ea4bbfed41aede8',2414448971);
INSERT INTO blocks VALUES(1,1,1,1,1,X'01',X'110123456789abcdef',X'00',2860077849);
INSERT INTO block_values VALUES(1,'output_token_throughput','',X'00000000004a9340',4112154708);
INSERT INTO block_values VALUES(1,'ttft','{"statistic":"p99"}',X'0000000000d05540',3794325368);
INSERT INTO skips VALUES(1,1,'old/bad.json','','old/bad.json','',0,0,'','error','bad.json:1:1: unexpected EOF','2026-12-01T10:32:11.462714454Z');
