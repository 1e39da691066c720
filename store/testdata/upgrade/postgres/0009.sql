-- Data written by schema version 9 (as version 8, with the content hash
-- and checksums the ingest computes; row ids 1 in a fresh database).
-- TestUpgrade migrates it to the newest. The blobs are packMeasurements
-- and block.add of upgradeTrial.
INSERT INTO studies (name, created_at) VALUES ('upgrade', '2026-01-02T03:04:05Z');
INSERT INTO trials (study_id, hash, source_path, source_format, source_format_version, source_line, source_index,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens, concurrency,
	achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	engine, engine_version, cuda, driver, gpu, host, ingested_at, measurements,
	source_key, layout, allocated_gpus, allocated_gpus_unknown, serving_gpus, serving_gpus_unknown, config_path, config,
	content_id, checksum)
SELECT id, '0123456789abcdef', 'old/run.json', 'vllm', '', 0, 0,
	'{"engine":"vllm","engine_version":"0.8.5"}', '{"tensor_parallel_size":"2"}', 1024, 128, NULL, NULL, 16,
	NULL, 'Infinity', NULL, 500, 499, 1, '', '["old warning"]',
	'vllm', '0.8.5', '', '', '', '', '2026-01-02T03:04:06Z',
	'\x176f75747075745f746f6b656e5f7468726f7567687075740008746f6b656e732f73116f75747075745f7468726f7567687075740000000000004a93400474746674137b22737461746973746963223a22703939227d026d730b7039395f747466745f6d73026d730000000000d05540'::bytea,
	'', NULL, 0, '', 0, '', '', '\x'::bytea,
	'2ea4bbfed41aede8', 2414448971
FROM studies WHERE name = 'upgrade';
INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems, checksum)
SELECT s.id, t.id, t.id, 1, decode(lpad(to_hex(t.id), 2, '0'), 'hex'), '\x110123456789abcdef'::bytea, '\x00'::bytea, 2860077849
FROM studies s JOIN trials t ON t.study_id = s.id WHERE s.name = 'upgrade';
INSERT INTO block_values (block_id, metric, dims, vals, checksum)
SELECT id, 'output_token_throughput', '', '\x00000000004a9340'::bytea, 4112154708 FROM blocks
UNION ALL
SELECT id, 'ttft', '{"statistic":"p99"}', '\x0000000000d05540'::bytea, 3794325368 FROM blocks;
INSERT INTO skips (study_id, file, run, path, case_id, iteration, step, phase, code, reason)
SELECT id, 'old/bad.json', '', 'old/bad.json', '', 0, 0, '', 'error', 'bad.json:1:1: unexpected EOF' FROM studies WHERE name = 'upgrade';
