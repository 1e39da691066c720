// Package cloudai reads NVIDIA CloudAI configurations and results trees.
//
// It decodes the three kinds of CloudAI TOML files (system, test and test
// scenario) plus the executed configuration CloudAI stores in every run
// directory (test-run.toml), flattens the generic cmd_args tables into
// key=value parameters, derives the serving layout of an LLM-serving run
// (vLLM, SGLang, or AI Dynamo with either engine) and counts its GPUs two ways:
//
//   - allocated GPUs: nodes × the system's gpus_per_node;
//   - serving GPUs: Σ over roles of instances × GPUs per instance, where GPUs
//     per instance is TP×PP×DP(×CP) for vLLM and TP×PP(×CP) for SGLang with
//     DP-attention (DP lives inside TP); without DP-attention SGLang's DP
//     replicas multiply like vLLM's.
//
// Where a count cannot be determined the functions return an error saying
// why, so a caller can omit the per-GPU metric and record the reason.
//
// Walk turns a scenario results directory into one Run per successful
// (test case, iteration, DSE step, AIPerf phase) and one Exclusion per run that
// failed or could not be read. It never parses benchmark metrics: each Run
// lists the result files and their kinds so that a reader package can turn
// them into trials, to which the caller attaches the run's labels, parameters
// and GPU counts.
//
// File layouts, success markers and the GPU accounting rules are described in
// docs/FORMATS.md §9 of the project.
package cloudai
