package ingest

import (
	"errors"
	"io"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

var errEOF = io.EOF

func mustOne(t *testing.T, path string, i int) *trial.Trial {
	t.Helper()
	ts, err := ReadFile(path)
	if err != nil || len(ts) <= i {
		t.Fatalf("ReadFile(%s) = %d trials, %v", path, len(ts), err)
	}
	return &ts[i]
}

func value(t *testing.T, tr *trial.Trial, sel string) trial.Measurement {
	t.Helper()
	s, err := trial.ParseSelector(sel)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Resolve(tr)
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return m
}

func TestExplicitValues(t *testing.T) {
	v := mustOne(t, "testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json", 0)
	for _, c := range []struct {
		sel  string
		want float64
		unit string
	}{
		{"ttft.p99", 450.3786364301777, "ms"},
		{"tpot.p50", 36.973057458311075, "ms"},
		{"itl.p50", 35.05137500019373, "ms"},
		{"output_token_throughput", 1780.3566341089636, "tokens/s"},
		{"duration", 23814.32977400027, "ms"},
	} {
		if m := value(t, v, c.sel); m.Value != c.want || m.Unit != c.unit {
			t.Errorf("vLLM %s = %v %s; want %v %s", c.sel, m.Value, m.Unit, c.want, c.unit)
		}
	}
	if m := value(t, v, "p99_ttft_ms"); m.Value != 450.3786364301777 || m.Metric != "ttft" || m.Native != "p99_ttft_ms" {
		t.Errorf("vLLM exact native name p99_ttft_ms must select ttft.p99: %+v", m)
	}
	if v.Workload.RequestRate != inf || v.Succeeded != 200 || v.Failed != 0 {
		t.Errorf("vLLM workload %+v succeeded %d failed %d", v.Workload, v.Succeeded, v.Failed)
	}

	g1 := mustOne(t, "testdata/synthetic/synthetic_aiperf_g1_profile_export_aiperf.json", 0)
	if m := value(t, g1, "tpot.p99"); m.Value != 9.5 || m.Native != "inter_token_latency" {
		t.Errorf("AIPerf inter_token_latency must map to tpot: %+v", m)
	}
	if m := value(t, g1, "itl.p50"); m.Value != 7.2 || m.Native != "inter_chunk_latency" {
		t.Errorf("AIPerf inter_chunk_latency must map to itl: %+v", m)
	}
	if g1.Params["endpoint.api_key"] != "<redacted>" {
		t.Errorf("api_key not redacted: %q", g1.Params["endpoint.api_key"])
	}

	sg := mustOne(t, "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", 0)
	if m := value(t, sg, "itl.p50"); m.Value != 13.638956006616354 || m.Native != "median_itl_ms" {
		t.Errorf("SGLang itl must stay itl: %+v", m)
	}
	if _, err := mustSel("tpot.p50").Resolve(sg); !isReason(err, trial.ReasonMissing) {
		t.Errorf("SGLang lean file has no TPOT; itl must not be merged into it: %v", err)
	}

	ip := mustOne(t, "testdata/other/inference-perf_kubecon-na-2025_vllm-batch_size_stage_0_lifecycle_metrics.json", 0)
	if m := value(t, ip, "itl.p50"); m.Native != "inter_token_latency" || m.SourceUnit != "s" {
		t.Errorf("inference-perf inter_token_latency must be chunk itl in seconds: %+v", m)
	}

	failed := mustOne(t, "testdata/synthetic/synthetic_vllm_allfailed.json", 0)
	if failed.Problem != trial.ProblemNoSuccess {
		t.Errorf("all-failed run Problem = %q", failed.Problem)
	}
	if _, err := mustSel("ttft.p99").Resolve(failed); !isReason(err, trial.ReasonUnusable) {
		t.Errorf("all-failed run must not yield a zero latency: %v", err)
	}
}

var inf = 1 / zeroF

var zeroF float64

func mustSel(s string) trial.Selector {
	sel, err := trial.ParseSelector(s)
	if err != nil {
		panic(err)
	}
	return sel
}

func isReason(err error, reason string) bool {
	var re *trial.ResolveError
	return errors.As(err, &re) && re.Reason == reason
}
