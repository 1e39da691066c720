package ingest

import (
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// A readerEntry is one line of the reader registry: a format, how Detect
// recognises it from a file's first bytes, how it is read, and the tool
// whose native names its trials carry. Detect tries the entries in
// registry order and takes the first whose sniff matches; reading looks
// the detected format up in the same list. A new format is one new file
// (its sniff and read functions) and one line in registry.
type readerEntry struct {
	format Format
	// tool is the trial.Tool* name of the trials (the "tool" label), and
	// names, when set, its native metric names mapped to canonical keys
	// (registered with trial.RegisterToolNames).
	tool  string
	names map[string]string
	// name is the tool as its users write it, for messages.
	name string
	// sniffJSON recognises a JSON or JSONL head from its marks (nil: not
	// a JSON format); sniffText a head that starts with neither '{' nor
	// '[' (CSV, TOML), with base the lower-cased file name.
	sniffJSON func(h *headMarks, base string) bool
	sniffText func(head []byte, base string) bool
	// marks are the quoted strings sniffJSON looks for (h.has), found
	// in one pass over a head's quotes with the others (detect_scan.go).
	marks []string
	// readJSON reads a JSON format through the jsontext reader (and may
	// stream); readMem reads a whole in-memory file (CSV).
	readJSON func(j *jreader) ([]trial.Trial, error)
	readMem  func(data []byte, src *source, f Format, maxRecord int) ([]trial.Trial, error)
	// readFast, when set, is tried on an in-memory file before readJSON:
	// ok=false (anything unusual) hands the file to readJSON, which gives
	// the same trials or the positioned error.
	readFast func(data []byte, src *source, f Format, r *reader) (ts []trial.Trial, ok bool)
	// notResult, when set, says what a file of this format is: it is
	// recognised as no benchmark result and skipped with
	// trial.SkipNotResult and this reason, even when named on its own.
	notResult string
	// silent formats are recognised and yield nothing, not even a skip.
	silent bool
}

// registry lists every format pareto reads or recognises, in the order
// Detect tries them: more specific sniffs first.
var registry = []readerEntry{
	{format: FormatTOML, sniffText: sniffTOML, notResult: "a TOML configuration (a CloudAI scenario, test or system file, or a pareto configuration), not a benchmark result"},
	{format: FormatYAMLReport, sniffText: sniffYAMLReport, notResult: "a benchmark report written as YAML (guidellm's or inference-perf's): " +
		"pareto reads these reports as JSON (guidellm --output-path benchmarks.json)"},
	{format: FormatYAML, sniffText: sniffYAML, notResult: "a YAML document (a configuration, such as inference-perf's config.yaml or a Kubernetes manifest), not a benchmark result"},
	{format: FormatPyTorchSidecar, sniffJSON: sniffPyTorch, silent: true},
	{format: FormatParetoJSONL, sniffJSON: sniffParetoJSONL, readJSON: readParetoJSONL},
	{format: FormatParetoOutput, sniffJSON: sniffOwnOutput, notResult: "pareto's own output (the JSON of front, compare, gate, pick, noise, drift, ingest, ask, tell or tune, or a test's golden trials), " +
		"not a benchmark result: ingest the results it was computed from, or a pareto trials --format jsonl export"},
	{format: FormatAIPerfRecords, sniffJSON: sniffAIPerfRecords, notResult: "AIPerf per-request records (profile_export.jsonl), not a run's summary: read the run's profile_export_aiperf.json"},
	{format: FormatAIPerfAggregate, sniffJSON: sniffAIPerfAggregate, marks: []string{`"aggregation_type"`, `"per_combination_metrics"`, `"num_profile_runs"`},
		notResult: "AIPerf's aggregate over several profile runs (profile_export_aiperf_sweep.json or the confidence aggregate): not one run; " +
			"each run's own profile_export_aiperf.json is its trial"},
	{format: FormatGenAIPerfInputs, sniffJSON: sniffGenAIPerfInputs, notResult: "the requests a benchmark sends (GenAI-Perf llm_inputs.json or AIPerf inputs.json), not a result"},
	{format: FormatInferencePerfServer, sniffJSON: sniffInferencePerfServer,
		marks: []string{`"kv_cache_usage_percentage"`, `"num_preemptions_total"`, `"queue_len"`}, notResult: "inference-perf server-side metrics (prometheus_metrics.json, scraped from the model server): " +
			"the server's view of a stage, not a load point; the stage's lifecycle report is the trial"},
	{format: FormatInferencePerf, tool: trial.ToolInferencePerf, name: "inference-perf", sniffJSON: sniffInferencePerf, readJSON: readInferencePerf},
	{format: FormatGuideLLM, tool: trial.ToolGuideLLM, name: "guidellm", sniffJSON: sniffGuideLLM, readJSON: readGuideLLM},
	{format: FormatLLMPerf, tool: trial.ToolLLMPerf, names: llmperfNames, name: "LLMPerf", sniffJSON: sniffLLMPerf, readJSON: readLLMPerf,
		marks: []string{`"results_ttft_s_mean"`, `"results_end_to_end_latency_s_mean"`, `"results_mean_output_throughput_token_per_s"`}},
	{format: FormatLLMPerfRequests, sniffJSON: sniffLLMPerfRequests, marks: []string{`"ttft_s"`, `"end_to_end_latency_s"`, `"number_output_tokens"`}, notResult: "LLMPerf per-request records (individual_responses.json), not a run's summary: read the run's _summary.json"},
	{format: FormatVLLMNightly, tool: trial.ToolVLLM, name: "vLLM", sniffJSON: sniffVLLMNightly, readJSON: readVLLMNightly},
	{format: FormatAIPerfJSON, tool: trial.ToolAIPerf, name: "AIPerf", sniffJSON: sniffAIPerfJSON, readJSON: readAIPerfJSON, readFast: readPerfFast},
	{format: FormatGenAIPerfJSON, tool: trial.ToolGenAIPerf, name: "GenAI-Perf", sniffJSON: sniffGenAIPerfJSON, readJSON: readGenAIPerfJSON, readFast: readPerfFast},
	{format: FormatSGLang, tool: trial.ToolSGLang, name: "SGLang", sniffJSON: sniffSGLang, readJSON: readSGLang, readFast: readServingFast},
	{format: FormatVLLM, tool: trial.ToolVLLM, sniffJSON: sniffVLLM, readJSON: readVLLM, readFast: readServingFast},
	{format: FormatAIPerfJSON, sniffJSON: sniffAIPerfBlocks}, // metric blocks without AIPerf's top-level keys
	{format: FormatDashboard, sniffJSON: sniffDashboard, notResult: "a dashboard definition (Grafana-style panels), not a benchmark result"},
	{format: FormatGenAIPerfAnalyze, tool: trial.ToolGenAIPerf, name: "GenAI-Perf", sniffText: sniffGenAIPerfAnalyze, readMem: readGenAIPerfAnalyze},
	{format: FormatGenAIPerfCSV, tool: trial.ToolGenAIPerf, sniffText: sniffGenAIPerfCSV, readMem: readPerfCSV},
	{format: FormatAIPerfCSV, tool: trial.ToolAIPerf, sniffText: sniffAIPerfCSV, readMem: readPerfCSV},
}

// entries maps a format to its registry entry that reads it (the first).
var entries = map[Format]*readerEntry{}

func init() {
	for i := range registry {
		e := &registry[i]
		if entries[e.format] == nil {
			entries[e.format] = e
		}
		if e.names != nil {
			trial.RegisterToolNames(e.tool, e.names)
		}
	}
}

// entry returns the registry entry of f, or nil.
func entry(f Format) *readerEntry { return entries[f] }

// notResult says what a file of format f is when f is a format that is
// recognised as no benchmark result, else "".
func notResult(f Format) string {
	if e := entry(f); e != nil {
		return e.notResult
	}
	return ""
}

// isJSON reports whether f is read as JSON (or JSONL).
func isJSON(f Format) bool {
	e := entry(f)
	return e == nil || e.readMem == nil
}

// readJSON dispatches a JSON format to its reader.
func readJSON(j *jreader, f Format) ([]trial.Trial, error) {
	if e := entry(f); e != nil && e.readJSON != nil {
		return e.readJSON(j)
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownFormat, f)
}

// readerNames lists the tools of the result formats, for messages.
func readerNames() string {
	var out []string
	seen := map[string]bool{}
	for _, e := range registry {
		if e.name != "" && !seen[e.name] {
			seen[e.name] = true
			out = append(out, e.name)
		}
	}
	return strings.Join(out, ", ")
}

func readAIPerfJSON(j *jreader) ([]trial.Trial, error) { return readPerfJSON(j, FormatAIPerfJSON) }
func readGenAIPerfJSON(j *jreader) ([]trial.Trial, error) {
	return readPerfJSON(j, FormatGenAIPerfJSON)
}
