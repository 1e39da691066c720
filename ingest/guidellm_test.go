package ingest

import (
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestGuideLLMLayouts: the guidellm report before v2 (the layout of
// guidellm's own benchmarks_stripped.json) is guidellm, not vLLM, one
// trial per benchmark with the model label, request counts and workload;
// in both layouts plain output_token_throughput names one value (the
// run's mean) and the mean input/output lengths are the workload's.
func TestGuideLLMLayouts(t *testing.T) {
	for _, c := range []struct {
		path            string
		version, model  string
		succeeded       []int64
		failed          []int64
		conc, rate      []float64
		meanIn, meanOut []float64
		otps            []float64
	}{
		{"testdata/synthetic/synthetic_guidellm_pre_v2_benchmarks.json", "benchmarks-pre-v2", "example_model",
			[]int64{46, 88}, []int64{0, 1}, []float64{1, 0}, []float64{0, 3}, []float64{257.1, 257.1}, []float64{128, 128},
			[]float64{1.55 * 128, 2.95 * 128}},
		{"testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json", "report-v2", "e2e-mock-model",
			[]int64{2, 2}, []int64{0, 0}, []float64{0, 0}, []float64{2, 4}, []float64{71.5, 65.5}, []float64{8, 8},
			[]float64{3.1950675815128577, 6.377131566888984}},
	} {
		ts, err := ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 2 {
			t.Fatalf("%s: %d trials, want 2", c.path, len(ts))
		}
		for i := range ts {
			tr := &ts[i]
			w := tr.Workload
			if tr.Source.Format != string(FormatGuideLLM) || tr.Source.FormatVersion != c.version ||
				tr.Labels[trial.LabelModel] != c.model || tr.Succeeded != c.succeeded[i] || tr.Failed != c.failed[i] ||
				w.Concurrency != c.conc[i] || w.RequestRate != c.rate[i] || w.MeanInputTokens != c.meanIn[i] ||
				w.MeanOutputTokens != c.meanOut[i] {
				t.Errorf("%s trial %d: %s/%s model %q ok %d failed %d workload %+v", c.path, i, tr.Source.Format,
					tr.Source.FormatVersion, tr.Labels[trial.LabelModel], tr.Succeeded, tr.Failed, w)
			}
			m, err := mustSelector(t, "output_token_throughput").Resolve(tr)
			if err != nil || !approxEqual(m.Value, c.otps[i]) {
				t.Errorf("%s trial %d: output_token_throughput = %v, %v; want %v", c.path, i, m.Value, err, c.otps[i])
			}
		}
	}
}

func approxEqual(a, b float64) bool { return a-b < 1e-9*(1+b) && b-a < 1e-9*(1+b) }

// TestEngineIsTheServer: the engine label names the serving engine a
// client backend value stands for, and none for an API name (the backend
// stays a parameter).
func TestEngineIsTheServer(t *testing.T) {
	for _, c := range []struct{ backend, want string }{
		{"vllm", "vllm"}, {"openai", ""}, {"openai-chat", ""}, {"sglang-oai", "sglang"}, {"sglang", "sglang"},
		{"tensorrtllm", "tensorrt-llm"}, {"TRT-LLM", "tensorrt-llm"}, {"tgi", "tgi"}, {"", ""},
	} {
		if got := engineOf(c.backend); got != c.want {
			t.Errorf("engineOf(%q) = %q, want %q", c.backend, got, c.want)
		}
	}
	// a real SGLang file: backend "sglang" is the engine and a parameter
	ts, err := ReadFile("testdata/sglang/datacrunch_2024-12_llama_405b_online_output.jsonl")
	if err != nil || len(ts) == 0 {
		t.Fatal(err)
	}
	if ts[0].Labels[trial.LabelEngine] != "sglang" || ts[0].Params["backend"] != "sglang" {
		t.Errorf("engine %q, backend param %q", ts[0].Labels[trial.LabelEngine], ts[0].Params["backend"])
	}
}
