package ingest

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/pareto-llm/pareto/internal/textin"
)

// Format names a benchmark output format. The reader may refine the format
// recorded in trial.Source (for example Detect says FormatAIPerfJSON for any
// AIPerf-style metric-block JSON, and the reader records FormatGenAIPerfJSON
// when the content is GenAI-Perf's).
type Format string

// Formats recognised by Detect and recorded in trial.Source.Format.
const (
	FormatUnknown          Format = ""
	FormatVLLM             Format = "vllm"               // bench serve / benchmark_serving.py JSON, appended objects, sweep summary arrays
	FormatVLLMNightly      Format = "vllm-nightly"       // nightly benchmark_results.json table rows
	FormatSGLang           Format = "sglang"             // bench_serving JSONL
	FormatAIPerfJSON       Format = "aiperf-json"        // profile_export_aiperf.json
	FormatGenAIPerfJSON    Format = "genai-perf-json"    // profile_export_genai_perf.json
	FormatAIPerfCSV        Format = "aiperf-csv"         // profile_export_aiperf.csv
	FormatGenAIPerfCSV     Format = "genai-perf-csv"     // profile_export_genai_perf.csv
	FormatGenAIPerfAnalyze Format = "genai-perf-analyze" // analyze_export_genai_perf.csv: genai-perf analyze's sweep table
	FormatInferencePerf    Format = "inference-perf"     // stage_N / summary lifecycle metrics
	FormatGuideLLM         Format = "guidellm"           // guidellm report v2, and the benchmarks report before it
	FormatPyTorchSidecar   Format = "pytorch-benchmark"  // vLLM *.pytorch.json sidecar: not a result, skipped

	// Files that are recognised as no result: Load skips them with code
	// trial.SkipNotResult and the reason, even when named on their own.
	FormatAIPerfRecords   Format = "aiperf-records"    // AIPerf per-request profile_export.jsonl records
	FormatAIPerfAggregate Format = "aiperf-aggregate"  // AIPerf's aggregate over a sweep's or repeats' profile runs
	FormatGenAIPerfInputs Format = "genai-perf-inputs" // GenAI-Perf llm_inputs.json / AIPerf inputs.json: the requests sent
	FormatDashboard       Format = "dashboard"         // a Grafana-style dashboard (panels)
	FormatTOML            Format = "toml"              // a TOML configuration (CloudAI scenario, test, system; pareto's own)
	FormatYAML            Format = "yaml"              // a YAML document (inference-perf config.yaml, manifests)
	FormatYAMLReport      Format = "yaml-report"       // a benchmark report written as YAML (guidellm, inference-perf)

	FormatInferencePerfServer Format = "inference-perf-server" // inference-perf prometheus_metrics.json: the server's metrics of a stage
)

// HeadSize is how many leading bytes Detect needs at most.
const HeadSize = 64 << 10

// Detect sniffs the format from the first bytes of a file (up to HeadSize);
// the name only tells a vLLM *.pytorch.json sidecar (skipped), never one
// result format from another. It returns FormatUnknown for anything it
// does not recognise. UTF-16 text is sniffed as the UTF-8 it
// is read as.
func Detect(head []byte, name string) Format {
	base := strings.ToLower(filepath.Base(name))
	if o, bom := textin.UTF16(head); o != textin.NotUTF16 {
		head = textin.Decode(head, o, bom)
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return FormatUnknown
	}
	for i := range registry { // TOML's [table] headers start as JSON arrays do
		if e := &registry[i]; e.sniffText != nil && e.sniffText(trimmed, base) {
			return e.format
		}
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		return detectJSON(trimmed, base)
	}
	return FormatUnknown
}

func detectJSON(head []byte, base string) Format {
	hd := scanHead(head) // has(h, mark) is bytes.Contains(head, mark), precomputed
	return detectFromMarks(&hd, base)
}

// detectFromMarks is detectJSON for the marks of h.h found in h: the
// first JSON format of the registry whose sniff matches.
func detectFromMarks(h *headMarks, base string) Format {
	for i := range registry {
		if e := &registry[i]; e.sniffJSON != nil && e.sniffJSON(h, base) {
			return e.format
		}
	}
	return FormatUnknown
}

// The sniffs of the registry's JSON formats, in registry order: each
// may assume that the ones before it did not match.

func sniffPyTorch(_ *headMarks, base string) bool  { return strings.HasSuffix(base, ".pytorch.json") }
func sniffParetoJSONL(h *headMarks, _ string) bool { return isParetoJSONL(h.h) }
func sniffOwnOutput(h *headMarks, _ string) bool   { return ownOutput(h.h) != "" }

func sniffAIPerfRecords(h *headMarks, _ string) bool {
	return h.has(`"x_request_id"`) && h.has(`"metadata"`) && !h.has(`"aiperf_version"`)
}

// sniffAIPerfAggregate recognises AIPerf's aggregate of several profile
// runs (profile_export_aiperf_sweep.json of a --concurrency sweep, the
// confidence aggregate of --num-profile-runs): each run's own export is
// the trial.
func sniffAIPerfAggregate(h *headMarks, _ string) bool {
	return h.has(`"aggregation_type"`) && (h.has(`"per_combination_metrics"`) || h.has(`"num_profile_runs"`))
}

func sniffGenAIPerfInputs(h *headMarks, _ string) bool {
	return h.has(`"payload`) && !h.has(`"unit"`) && !h.has(`"completed"`)
}

// sniffInferencePerfServer recognises inference-perf's server-side
// (Prometheus) report: its successes hold the model server's gauges.
func sniffInferencePerfServer(h *headMarks, _ string) bool {
	return h.has(`"load_summary"`) && (h.has(`"kv_cache_usage_percentage"`) || h.has(`"num_preemptions_total"`) || h.has(`"queue_len"`))
}

func sniffInferencePerf(h *headMarks, _ string) bool {
	return h.has(`"load_summary"`) || (h.has(`"successes"`) && h.has(`"failures"`))
}

func sniffGuideLLM(h *headMarks, _ string) bool {
	return h.has(`"benchmarks"`) && (h.has(`"guidellm`) || h.has(`"metadata"`) || h.has(`"generative_benchmark"`))
}

func sniffVLLMNightly(h *headMarks, _ string) bool {
	return h.has(`"Test name"`) && h.has(`TTFT (ms)"`)
}

func sniffAIPerfJSON(h *headMarks, _ string) bool {
	return h.has(`"aiperf_version"`) || h.has(`"records"`) || h.has(`"was_cancelled"`)
}

func sniffGenAIPerfJSON(h *headMarks, _ string) bool {
	return h.has(`"perf_analyzer"`) || h.has(`"telemetry_stats"`) || h.has(`"formatted_model_name"`)
}

// sniffServing recognises vLLM's and SGLang's serving benchmark JSON.
func sniffServing(h *headMarks) bool {
	return h.has(`_ttft_ms"`) || h.has(`_e2e_latency_ms"`) || h.has(`"completed"`) && h.has(`"duration"`)
}

func sniffSGLang(h *headMarks, _ string) bool {
	return sniffServing(h) && (h.has(`"dataset_name"`) || h.has(`_e2e_latency_ms"`))
}

func sniffVLLM(h *headMarks, _ string) bool { return sniffServing(h) }

func sniffAIPerfBlocks(h *headMarks, _ string) bool {
	return h.has(`"unit"`) && (h.has(`"avg"`) || h.has(`"input_config"`))
}

func sniffDashboard(h *headMarks, _ string) bool { return h.has(`"panels"`) }

func sniffTOML(head []byte, _ string) bool { return looksTOML(head) }

// sniffYAMLReport recognises a benchmark report written as YAML: a
// guidellm report (--output-path benchmarks.yaml) or an inference-perf
// lifecycle report, by their keys in the head.
func sniffYAMLReport(head []byte, base string) bool {
	if !sniffYAML(head, base) {
		return false
	}
	guidellm := bytes.Contains(head, []byte("guidellm_version:")) || bytes.Contains(head, []byte("generative_benchmark"))
	inferencePerf := bytes.Contains(head, []byte("load_summary:")) && bytes.Contains(head, []byte("successes:"))
	return guidellm || inferencePerf
}

// sniffYAML recognises a YAML mapping: its first line that is neither
// blank nor a # comment (firstLine) is "---" or "key:" (a bare key, then a
// space or the line end). No result format pareto reads is YAML.
func sniffYAML(head []byte, _ string) bool {
	line, ok := firstLine(head)
	if !ok {
		return false
	}
	if string(line) == "---" {
		return true
	}
	k, rest, ok := bytes.Cut(line, []byte(":"))
	return ok && bareKey(k) && (len(rest) == 0 || rest[0] == ' ')
}

// firstLine returns the first line of head that is neither blank nor a #
// comment, without its trailing spaces and \r (its indentation kept).
func firstLine(head []byte) ([]byte, bool) {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, head = line[:i], head[i+1:]
		} else {
			head = nil
		}
		if t := bytes.TrimLeft(line, " \t\r"); len(t) > 0 && t[0] != '#' {
			if t = bytes.TrimRight(line, " \t\r"); len(t) > 0 {
				return t, true
			}
		}
	}
	return nil, false
}

// perfCSVHeader reports whether head starts with the header line of an
// AIPerf or GenAI-Perf CSV export, and whether it is GenAI-Perf's (which
// lists percentiles descending).
func perfCSVHeader(head []byte) (ok, genai bool) {
	line := head
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, "\r")
	if !bytes.HasPrefix(line, []byte("Metric,")) {
		return false, false
	}
	return true, bytes.Contains(line, []byte(",p99,p95"))
}

func sniffGenAIPerfCSV(head []byte, _ string) bool {
	ok, genai := perfCSVHeader(head)
	return ok && genai
}

func sniffAIPerfCSV(head []byte, _ string) bool {
	ok, _ := perfCSVHeader(head)
	return ok
}

// looksTOML reports whether the first line of head that is neither blank
// nor a # comment (firstLine) is a TOML table header ([name], [[a.b]]) or
// a key = value assignment: no CSV header, JSON document or JSONL record
// starts so.
func looksTOML(head []byte) bool {
	line, ok := firstLine(head)
	if !ok {
		return false
	}
	line = bytes.TrimLeft(line, " \t\r")
	if line[0] == '[' {
		name := bytes.TrimSuffix(bytes.TrimSuffix(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("[")), []byte("[")), []byte("]")), []byte("]"))
		return len(name) > 0 && len(name) < len(line) && line[len(line)-1] == ']' && bareKey(name)
	}
	eq := bytes.IndexByte(line, '=')
	return eq > 0 && bareKey(bytes.TrimSpace(line[:eq]))
}

// bareKey reports whether k is a TOML bare or dotted key.
func bareKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		case c == '.':
		default:
			return false
		}
	}
	return true
}
