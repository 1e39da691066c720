package ingest

import (
	"strings"
	"time"

	"github.com/pareto-llm/pareto/trial"
)

// LLMPerf (ray-project/llmperf token_benchmark_ray.py) writes two files
// per run: <name>_summary.json, one flat object of run statistics keyed
// results_<metric>_<statistic>, and <name>_individual_responses.json, a
// JSON array of per-request records. The summary is one trial; the
// per-request file is recognised as no result (FormatLLMPerfRequests).
// Latencies are in seconds (the _s in their keys) and read as such.

// Formats of LLMPerf's files.
const (
	FormatLLMPerf         Format = "llmperf"          // <name>_summary.json
	FormatLLMPerfRequests Format = "llmperf-requests" // <name>_individual_responses.json: per request, no result
)

// llmperfNames maps LLMPerf's metric names (the <metric> of
// results_<metric>_<statistic>, without its unit suffix) to canonical
// keys (docs/METRICS.md). inter_token_latency is not mapped: LLMPerf
// computes it as end_to_end_latency / number_output_tokens, TTFT
// included, neither vLLM's TPOT nor its ITL; it is kept as
// e2el_per_output_token. request_output_throughput (output tokens over
// end_to_end_latency) is kept under its own name for the same reason.
var llmperfNames = map[string]string{
	"ttft":                           trial.TTFT,
	"end_to_end_latency":             trial.E2EL,
	"inter_token_latency":            "e2el_per_output_token",
	"number_input_tokens":            trial.InputSequenceLength,
	"number_output_tokens":           trial.OutputSequenceLength,
	"mean_output_throughput":         trial.OutputTokenThroughput,
	"num_completed_requests_per_min": trial.RequestThroughput,
}

func sniffLLMPerf(h *headMarks, _ string) bool {
	return h.has(`"results_ttft_s_mean"`) || h.has(`"results_end_to_end_latency_s_mean"`) ||
		h.has(`"results_mean_output_throughput_token_per_s"`)
}

func sniffLLMPerfRequests(h *headMarks, _ string) bool {
	return h.has(`"ttft_s"`) && h.has(`"end_to_end_latency_s"`) && h.has(`"number_output_tokens"`)
}

// llmperfStats are the statistic suffixes of the summary's keys.
var llmperfStats = []struct{ suffix, stat string }{
	{"_quantiles_p25", "p25"}, {"_quantiles_p50", "p50"}, {"_quantiles_p75", "p75"},
	{"_quantiles_p90", "p90"}, {"_quantiles_p95", "p95"}, {"_quantiles_p99", "p99"},
	{"_mean", "mean"}, {"_min", "min"}, {"_max", "max"}, {"_stddev", "std"},
}

// llmperfMetric splits a summary key results_<metric><unit>_<statistic>
// into the metric's name without unit, its unit and the statistic; ok is
// false for keys that are no per-request statistic.
func llmperfMetric(key string) (metric, unit, stat string, ok bool) {
	rest, found := strings.CutPrefix(key, "results_")
	if !found {
		return "", "", "", false
	}
	for _, s := range llmperfStats {
		if m, found := strings.CutSuffix(rest, s.suffix); found {
			rest, stat = m, s.stat
			break
		}
	}
	if stat == "" {
		return "", "", "", false
	}
	switch {
	case strings.HasSuffix(rest, "_token_per_s"):
		return strings.TrimSuffix(rest, "_token_per_s"), "tokens/s", stat, true
	case strings.HasSuffix(rest, "_s"):
		return strings.TrimSuffix(rest, "_s"), "s", stat, true
	case strings.HasPrefix(rest, "number_") && strings.HasSuffix(rest, "_tokens"):
		return rest, "tokens", stat, true
	}
	return "", "", "", false
}

// readLLMPerf reads an LLMPerf summary: one trial.
func readLLMPerf(j *jreader) ([]trial.Trial, error) {
	b := newBuilder(trial.ToolLLMPerf, j.src, FormatLLMPerf)
	errors := -1.0
	err := j.object("LLMPerf summary", func(name []byte) error {
		key := string(name)
		if metric, unit, stat, ok := llmperfMetric(key); ok {
			v, ok, err := j.number(key)
			if ok {
				b.addNative(metric, stat, v, unit)
			}
			return err
		}
		switch key {
		case "results_mean_output_throughput_token_per_s":
			return llmperfScalar(j, b, key, "mean_output_throughput", "tokens/s")
		case "results_num_completed_requests_per_min":
			return llmperfScalar(j, b, key, "num_completed_requests_per_min", "requests/min")
		case "results_num_completed_requests", "results_number_errors":
			v, ok, err := j.number(key)
			if !ok {
				return err
			}
			b.t.SetParam(key, ftoa(v))
			if key == "results_number_errors" {
				errors = v
			} else {
				b.setSucceeded(v)
				b.add(trial.RequestCount, nil, v, "requests", key)
			}
			return nil
		case "results_error_rate", "results_error_code_frequency":
			return j.d.SkipValue() // derived from the counts (finish)
		}
		v, ok, err := j.text()
		if !ok || err != nil {
			return err
		}
		b.t.SetParam(key, v)
		w := &b.t.Workload
		switch key {
		case "model":
			b.t.SetLabel(trial.LabelModel, v)
		case "version":
			b.t.Source.FormatVersion = v
		case "num_concurrent_requests":
			w.Concurrency = num(v)
		case "mean_input_tokens":
			w.InputTokens = num(v)
		case "mean_output_tokens":
			w.OutputTokens = num(v)
		case "timestamp":
			if sec := num(v); sec > 0 && sec < 1<<40 {
				b.t.SetLabel(trial.LabelDate, time.Unix(int64(sec), 0).UTC().Format(time.RFC3339))
			}
		case "framework":
			b.t.SetLabel(trial.LabelEngine, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if errors >= 0 {
		b.setFailed(errors)
		b.add(trial.ErrorRequestCount, nil, errors, "requests", "results_number_errors")
	}
	measuredLengths(b)
	return []trial.Trial{b.finish()}, j.expectEnd()
}

// llmperfScalar reads a run-level value of the summary as the native
// metric native in unit.
func llmperfScalar(j *jreader, b *builder, key, native, unit string) error {
	v, ok, err := j.number(key)
	if ok {
		b.addNative(native, "", v, unit)
	}
	return err
}
