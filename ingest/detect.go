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
	FormatGuideLLM       Format = "guidellm"          // guidellm report v2
	FormatPyTorchSidecar Format = "pytorch-benchmark" // vLLM *.pytorch.json sidecar: not a result, skipped
)

// HeadSize is how many leading bytes Detect needs at most.
const HeadSize = 64 << 10

// Detect sniffs the format from the first bytes of a file (up to HeadSize)
// and, as a tie-breaker only, its name. It returns FormatUnknown for
// anything it does not recognise. UTF-16 text is sniffed as the UTF-8 it
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
	case has(h, `"load_summary"`) || (has(h, `"successes"`) && has(h, `"failures"`)):
		return FormatInferencePerf
	case has(h, `"benchmarks"`) && (has(h, `"guidellm`) || has(h, `"metadata"`)):
		return FormatGuideLLM
	case has(h, `"Test name"`) && has(h, `TTFT (ms)"`):
		return FormatVLLMNightly
	case has(h, `"aiperf_version"`) || has(h, `"records"`) || has(h, `"was_cancelled"`):
		return FormatAIPerfJSON
	case has(h, `"perf_analyzer"`) || has(h, `"telemetry_stats"`) || has(h, `"formatted_model_name"`):
		return FormatGenAIPerfJSON
	case has(h, `_ttft_ms"`) || has(h, `_e2e_latency_ms"`) || has(h, `"completed"`) && has(h, `"duration"`):
		if has(h, `"dataset_name"`) || has(h, `_e2e_latency_ms"`) || strings.HasSuffix(base, ".jsonl") {
			return FormatSGLang
		}
		return FormatVLLM
	case has(h, `"unit"`) && (has(h, `"avg"`) || has(h, `"input_config"`)):
		if strings.Contains(base, "genai_perf") {
			return FormatGenAIPerfJSON
		}
		return FormatAIPerfJSON
	case strings.Contains(base, "genai_perf"):
		return FormatGenAIPerfJSON
	case strings.Contains(base, "aiperf"):
		return FormatAIPerfJSON
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
	if bytes.Contains(line, []byte(",p99,p95")) || strings.Contains(base, "genai_perf") {
		return FormatGenAIPerfCSV
	}
	return FormatAIPerfCSV
}
