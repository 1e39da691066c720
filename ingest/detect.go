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
	FormatUnknown        Format = ""
	FormatVLLM           Format = "vllm"              // bench serve / benchmark_serving.py JSON, appended objects, sweep summary arrays
	FormatVLLMNightly    Format = "vllm-nightly"      // nightly benchmark_results.json table rows
	FormatSGLang         Format = "sglang"            // bench_serving JSONL
	FormatAIPerfJSON     Format = "aiperf-json"       // profile_export_aiperf.json
	FormatGenAIPerfJSON  Format = "genai-perf-json"   // profile_export_genai_perf.json
	FormatAIPerfCSV      Format = "aiperf-csv"        // profile_export_aiperf.csv
	FormatGenAIPerfCSV   Format = "genai-perf-csv"    // profile_export_genai_perf.csv
	FormatInferencePerf  Format = "inference-perf"    // stage_N / summary lifecycle metrics
	FormatGuideLLM       Format = "guidellm"          // guidellm report v2, and the benchmarks report before it
	FormatPyTorchSidecar Format = "pytorch-benchmark" // vLLM *.pytorch.json sidecar: not a result, skipped

	// Files that are recognised as no result: Load skips them with code
	// trial.SkipNotResult and the reason, even when named on their own.
	FormatAIPerfRecords   Format = "aiperf-records"    // AIPerf per-request profile_export.jsonl records
	FormatGenAIPerfInputs Format = "genai-perf-inputs" // GenAI-Perf llm_inputs.json / AIPerf inputs.json: the requests sent
	FormatDashboard       Format = "dashboard"         // a Grafana-style dashboard (panels)
	FormatTOML            Format = "toml"              // a TOML configuration (CloudAI scenario, test, system; pareto's own)
)

// notResult says what a file of format f is when f is a format that is
// recognised as no benchmark result, else "".
func notResult(f Format) string {
	switch f {
	case FormatAIPerfRecords:
		return "AIPerf per-request records (profile_export.jsonl), not a run's summary: read the run's profile_export_aiperf.json"
	case FormatGenAIPerfInputs:
		return "the requests a benchmark sends (GenAI-Perf llm_inputs.json or AIPerf inputs.json), not a result"
	case FormatDashboard:
		return "a dashboard definition (Grafana-style panels), not a benchmark result"
	case FormatTOML:
		return "a TOML configuration (a CloudAI scenario, test or system file, or a pareto configuration), not a benchmark result"
	case FormatParetoOutput:
		return "pareto's own output (the JSON of front, compare, gate, pick, noise, drift, ingest, ask, tell or tune, or a test's golden trials), " +
			"not a benchmark result: ingest the results it was computed from, or a pareto trials --format jsonl export"
	}
	return ""
}

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
	if looksTOML(trimmed) {
		return FormatTOML
	}
	switch trimmed[0] {
	case '{', '[':
		return detectJSON(trimmed, base)
	}
	return detectCSV(trimmed, base)
}

func detectJSON(head []byte, base string) Format {
	hd := scanHead(head) // has(h, mark) is bytes.Contains(head, mark), precomputed
	return detectFromMarks(&hd, base)
}

// detectFromMarks is detectJSON for the marks of h.h found in h.
func detectFromMarks(h *headMarks, base string) Format {
	head, has := h.h, (*headMarks).has
	switch {
	case strings.HasSuffix(base, ".pytorch.json"):
		return FormatPyTorchSidecar
	case isParetoJSONL(head):
		return FormatParetoJSONL
	case ownOutput(head) != "":
		return FormatParetoOutput
	case has(h, `"x_request_id"`) && has(h, `"metadata"`) && !has(h, `"aiperf_version"`):
		return FormatAIPerfRecords
	case has(h, `"payload`) && !has(h, `"unit"`) && !has(h, `"completed"`):
		return FormatGenAIPerfInputs
	case has(h, `"load_summary"`) || (has(h, `"successes"`) && has(h, `"failures"`)):
		return FormatInferencePerf
	case has(h, `"benchmarks"`) && (has(h, `"guidellm`) || has(h, `"metadata"`) || has(h, `"generative_benchmark"`)):
		return FormatGuideLLM
	case has(h, `"Test name"`) && has(h, `TTFT (ms)"`):
		return FormatVLLMNightly
	case has(h, `"aiperf_version"`) || has(h, `"records"`) || has(h, `"was_cancelled"`):
		return FormatAIPerfJSON
	case has(h, `"perf_analyzer"`) || has(h, `"telemetry_stats"`) || has(h, `"formatted_model_name"`):
		return FormatGenAIPerfJSON
	case has(h, `_ttft_ms"`) || has(h, `_e2e_latency_ms"`) || has(h, `"completed"`) && has(h, `"duration"`):
		if has(h, `"dataset_name"`) || has(h, `_e2e_latency_ms"`) {
			return FormatSGLang
		}
		return FormatVLLM
	case has(h, `"unit"`) && (has(h, `"avg"`) || has(h, `"input_config"`)):
		return FormatAIPerfJSON
	case has(h, `"panels"`):
		return FormatDashboard
	}
	return FormatUnknown
}

func detectCSV(h []byte, base string) Format {
	line := h
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, "\r")
	if !bytes.HasPrefix(line, []byte("Metric,")) {
		return FormatUnknown
	}
	if bytes.Contains(line, []byte(",p99,p95")) { // GenAI-Perf lists percentiles descending
		return FormatGenAIPerfCSV
	}
	return FormatAIPerfCSV
}

// looksTOML reports whether the first line of head that is neither blank
// nor a # comment is a TOML table header ([name], [[a.b]]) or a key = value
// assignment: no CSV header, JSON document or JSONL record starts so.
func looksTOML(head []byte) bool {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, head = line[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			name := bytes.TrimSuffix(bytes.TrimSuffix(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("[")), []byte("[")), []byte("]")), []byte("]"))
			return len(name) > 0 && len(name) < len(line) && line[len(line)-1] == ']' && bareKey(name)
		}
		eq := bytes.IndexByte(line, '=')
		return eq > 0 && bareKey(bytes.TrimSpace(line[:eq]))
	}
	return false
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
