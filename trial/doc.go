// Package trial is the data model shared by every reader, command and report
// of pareto: one benchmark run at one load point is a Trial, carrying the
// labels that identify it, its configuration, its workload and its
// measurements.
//
// # Measurements
//
// A Measurement is one number: a metric key (a canonical key of the registry
// such as "ttft", or the native name of a metric the reader does not know),
// dimensions (statistic, phase, benchmark, gpu, ...), a value and a unit.
// Units are normalised on ingest: time in milliseconds ("ms"), token rates in
// "tokens/s", request rates in "requests/s", per-user rates in
// "tokens/s/user". Statistics are normalised too: "avg" becomes "mean",
// "median" becomes "p50", "stddev" becomes "std".
//
// # Registry and the ITL/TPOT mapping
//
// The registry (Lookup, Metrics, Canonical) lists the canonical keys with
// their unit and default direction, and maps each tool's native names onto
// them by definition, not by name: AIPerf's and GenAI-Perf's per-request
// "inter_token_latency" is what vLLM and SGLang call TPOT and becomes "tpot";
// vLLM's and SGLang's pooled chunk gap "itl" (AIPerf "inter_chunk_latency",
// inference-perf "inter_token_latency") stays "itl". The two are never merged.
//
// # Selectors and objectives
//
// A selector picks one measurement of a trial:
//
//	METRIC[.STATISTIC][{dim=value,...}]
//
// for example "ttft.p99", "ttft.p99.9", "output_token_throughput" or
// "ttft{statistic=p99,phase=round_1}". An exact metric or native name always
// wins over splitting at a dot. An objective adds an optional direction:
// "ttft.p99:min". See ParseSelector and Selector.Resolve (objectives with a direction are query.ParseObjective).
//
// # Identity
//
// A trial's ID hashes its content and its position: the file it was read
// from, named independently of the working directory (Source.Key), and its
// index among that file's trials. Two runs with identical numbers are two
// trials; the same file read again gives the same IDs. See ComputeID.
//
// # Deployment
//
// A trial read from a result tree that records how it was run (CloudAI)
// carries a Deployment: the serving Layout (roles, instances, TP/PP/DP/CP,
// GPUs per instance), the allocated and serving GPU counts or why each is
// unknown, and the executed configuration's path and text. It is kept in
// the store with the trial, so that everything shown about a trial can be
// drawn from a study alone.
//
// # Secrets
//
// Benchmark results carry credentials (API keys, tokens, passwords in URLs
// and command lines), and none may reach a store, an export, a report or a
// log. The policy is in one place, here: IsSecretKey says whether a key,
// header name, flag or environment variable names a credential (at any
// depth of a flattened key, ignoring case and separators), RedactText hides
// the credentials written inside a text (URL passwords, secret query
// parameters, --api-key X, Authorization: Bearer X, HF_TOKEN=X, the values
// of secret keys in TOML, JSON and YAML), and RedactParam combines the two
// for one parameter. A secret value becomes Redacted ("<redacted>"), the
// key stays. SetParam and SetLabel apply RedactParam, so every reader is
// covered when it builds a trial (before its ID is computed); Trial.Redact
// does the same for trials decoded or assembled by hand. The CloudAI
// walker applies it to flattened parameters and exclusion reasons, the
// report to the executed TOML it shows, the store to its locations and
// driver errors.
package trial
