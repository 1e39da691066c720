// Package ingest reads the result files of LLM serving benchmarks into
// trials (package trial): vLLM bench serve, SGLang bench_serving, AIPerf,
// GenAI-Perf, inference-perf and guidellm outputs, CloudAI results trees,
// pareto's own JSONL exports and, when named on their own, generic CSV or
// JSONL tables.
//
// The processing model is:
//
//  1. Detect sniffs a file's format from its first bytes (never from its
//     name): it tries the entries of the reader registry (registry.go) in
//     order, each a format with a sniff, a reader and the tool whose
//     metric names the trials carry. Formats that are recognised as no
//     result (AIPerf per-request records, the requests a benchmark sends,
//     dashboards, TOML configurations, pareto's own outputs) have a
//     reason instead of a reader: Load skips them with
//     trial.SkipNotResult and that reason.
//  2. The entry's reader turns the file into trials: native metric names
//     are mapped to canonical keys (trial.Canonical), units normalised to
//     milliseconds and tokens/s, statistics to dims. A value a file
//     damages is kept as a problem of its trial, never dropped silently.
//  3. Load (or a Scanner, which hands the same trials over one at a time)
//     walks paths: files, directories searched recursively, CloudAI
//     results trees (package cloudai), standard input. Every input yields
//     trials or a Skip with a code and a reason; errors name the file,
//     line and column.
//
// Adding a format is one new file with its sniff and reader functions and
// one line in registry; docs/FORMATS.md and docs/METRICS.md describe each
// format and its mapping.
package ingest
