package ingest

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

const llmperfSummary = "testdata/llmperf/llmperf_yi-34b_vllm_4xa10g_c8_550_150_summary.json"

// TestLLMPerfSummaryExact checks every per-request statistic of a real
// LLMPerf summary against the file, read independently: the value (in
// seconds, converted to ms, for the _s keys), its metric and statistic.
func TestLLMPerfSummaryExact(t *testing.T) {
	data, err := os.ReadFile(llmperfSummary)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	ts, err := ReadFile(llmperfSummary)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		t.Fatalf("%d trials, want 1", len(ts))
	}
	tr := ts[0]
	metrics := map[string]string{
		"ttft": trial.TTFT, "end_to_end_latency": trial.E2EL, "inter_token_latency": "e2el_per_output_token",
		"request_output_throughput": "request_output_throughput",
		"number_input_tokens":       trial.InputSequenceLength, "number_output_tokens": trial.OutputSequenceLength,
	}
	checked := 0
	for key, v := range raw {
		native, unit, stat, ok := llmperfMetric(key)
		if !ok {
			continue
		}
		f, isNum := v.(float64)
		if !isNum { // results_number_input_tokens_min is written as a string
			s, _ := v.(string)
			if f, ok = parseFloatText(s); !ok {
				t.Fatalf("%s: %v is no number", key, v)
			}
		}
		if unit == "s" {
			f *= 1e3
		}
		m := findMeasurement(tr, metrics[native], stat)
		if m == nil {
			t.Errorf("%s: no measurement %s %s", key, metrics[native], stat)
			continue
		}
		if m.Value != f {
			t.Errorf("%s: %s %s = %v, want %v", key, m.Metric, stat, m.Value, f)
		}
		checked++
	}
	if checked != 60 {
		t.Errorf("checked %d statistics, want 60 (6 metrics x 10 statistics)", checked)
	}
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{trial.OutputTokenThroughput, 95.81719381923115},
		{trial.RequestThroughput, 36.044085449240555 / 60},
		{trial.RequestCount, 104},
		{trial.ErrorRequestCount, 0},
		{trial.ErrorRate, 0},
	} {
		if m := findMeasurement(tr, c.metric, ""); m == nil || m.Value != c.want {
			t.Errorf("%s = %v, want %v", c.metric, m, c.want)
		}
	}
	w := tr.Workload
	if w.Concurrency != 8 || w.InputTokens != 550 || w.OutputTokens != 150 || tr.Succeeded != 104 || tr.Failed != 0 {
		t.Errorf("workload %+v, succeeded %d, failed %d", w, tr.Succeeded, tr.Failed)
	}
	if tr.Labels[trial.LabelModel] != "01-ai/Yi-1.5-34B-Chat" || tr.Labels[trial.LabelTool] != trial.ToolLLMPerf ||
		tr.Labels[trial.LabelDate] != "2024-06-12T16:18:34Z" || tr.Source.FormatVersion != "2023-08-31" {
		t.Errorf("labels %v, format version %q", tr.Labels, tr.Source.FormatVersion)
	}
}

// findMeasurement returns the measurement of metric with statistic stat
// ("" for a scalar), or nil.
func findMeasurement(tr trial.Trial, metric, stat string) *trial.Measurement {
	for i, m := range tr.Measurements {
		if m.Metric != metric {
			continue
		}
		got := ""
		for _, d := range m.Dims {
			if d.Key == trial.DimStatistic {
				got = d.Value
			}
		}
		if got == stat {
			return &tr.Measurements[i]
		}
	}
	return nil
}

// llmperfRequests is LLMPerf's per-request file, in testdata/notresults
// (TestLoadNotResults: not_a_result, alone and in a folder).
const llmperfRequests = "llmperf_yi-34b_vllm_4xa10g_c8_550_150_individual_responses.json"

// TestLLMPerfRenamed checks that the summary's trial does not depend on
// the file's name.
func TestLLMPerfRenamed(t *testing.T) {
	data, err := os.ReadFile(llmperfSummary)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := ReadBytes(append([]byte(nil), data...), "x_summary.json")
	b, errB := ReadBytes(append([]byte(nil), data...), "renamed.json")
	if errA != nil || errB != nil || len(a) != 1 || len(b) != 1 {
		t.Fatalf("renamed summary: %v %v; trials missing", errA, errB)
	}
	if !reflect.DeepEqual(a[0].Measurements, b[0].Measurements) || !reflect.DeepEqual(a[0].Labels, b[0].Labels) ||
		!reflect.DeepEqual(a[0].Params, b[0].Params) || a[0].Workload != b[0].Workload {
		t.Errorf("the trial depends on the file's name:\n%+v\n%+v", a[0], b[0])
	}
}
