-- Data written by schema version 4; TestUpgrade migrates it to the newest.
INSERT INTO studies (name, created_at) VALUES ('upgrade', '2026-01-02T03:04:05Z');
INSERT INTO trials (study_id, hash, source_path, source_format, source_format_version, source_line, source_index,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens, concurrency,
	achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	engine, engine_version, cuda, driver, gpu, host, ingested_at)
SELECT id, '0123456789abcdef', 'old/run.json', 'vllm', '', 0, 0,
	'{"engine":"vllm","engine_version":"0.8.5"}', '{"tensor_parallel_size":"2"}', 1024, 128, NULL, NULL, 16,
	NULL, 'Infinity', NULL, 500, 499, 1, '', '["old warning"]',
	'vllm', '0.8.5', '', '', '', '', '2026-01-02T03:04:06Z'
FROM studies WHERE name = 'upgrade';
INSERT INTO measurements (trial_id, seq, metric, dims, value, unit, native, source_unit)
SELECT id, 0, 'output_token_throughput', '', 1234.5, 'tokens/s', 'output_throughput', '' FROM trials WHERE hash = '0123456789abcdef'
UNION ALL
SELECT id, 1, 'ttft', '{"statistic":"p99"}', 87.25, 'ms', 'p99_ttft_ms', 'ms' FROM trials WHERE hash = '0123456789abcdef';
