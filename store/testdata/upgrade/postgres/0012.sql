-- Data at schema version 12 (as version 11: schema 12 added the tuning
-- queue alone).
INSERT INTO public.studies (id, name, created_at) OVERRIDING SYSTEM VALUE VALUES (1, 'upgrade', '2026-12-01 10:32:21.28054+00');
INSERT INTO public.trials (id, study_id, hash, source_path, source_format, source_format_version, source_line, source_index, labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens, concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings, engine, engine_version, cuda, driver, gpu, host, ingested_at, measurements, source_key, layout, allocated_gpus, allocated_gpus_unknown, serving_gpus, serving_gpus_unknown, config_path, config, content_id, checksum) OVERRIDING SYSTEM VALUE VALUES (1, 1, '0123456789abcdef', 'old/run.json', 'vllm', '', 0, 0, '{"engine": "vllm", "engine_version": "0.8.5"}', '{"tensor_parallel_size": "2"}', 1024, 128, 'NaN', 'NaN', 16, 'NaN', 'Infinity', 'NaN', 500, 499, 1, '', '["old warning"]', 'vllm', '0.8.5', '', '', '', '', '2026-12-01 10:32:21.291091+00', '\x176f75747075745f746f6b656e5f7468726f7567687075740008746f6b656e732f73116f75747075745f7468726f7567687075740000000000004a93400474746674137b22737461746973746963223a22703939227d026d730b7039395f747466745f6d73026d730000000000d05540', '', NULL, 0, '', 0, '', '', '\x', '2ea4bbfed41aede8', 2414448971);
INSERT INTO public.blocks (id, study_id, first_trial, last_trial, trials, row_ids, ids, problems, checksum) OVERRIDING SYSTEM VALUE VALUES (1, 1, 1, 1, 1, '\x01', '\x110123456789abcdef', '\x00', 2860077849);
INSERT INTO public.block_values (block_id, metric, dims, vals, checksum) VALUES (1, 'output_token_throughput', '', '\x00000000004a9340', 4112154708);
INSERT INTO public.block_values (block_id, metric, dims, vals, checksum) VALUES (1, 'ttft', '{"statistic":"p99"}', '\x0000000000d05540', 3794325368);
INSERT INTO public.skips (id, study_id, file, run, path, case_id, iteration, step, phase, code, reason, recorded_at) OVERRIDING SYSTEM VALUE VALUES (1, 1, 'old/bad.json', '', 'old/bad.json', '', 0, 0, '', 'error', 'bad.json:1:1: unexpected EOF', '2026-12-01 10:32:21.302526+00');
SELECT pg_catalog.setval('public.blocks_id_seq', 1, true);
SELECT pg_catalog.setval('public.skips_id_seq', 1, true);
SELECT pg_catalog.setval('public.studies_id_seq', 2, true);
SELECT pg_catalog.setval('public.trials_id_seq', 1, true);
