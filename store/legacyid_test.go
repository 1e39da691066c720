package store

import (
	"math"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestLegacyID checks legacyID against IDs computed by trial.ComputeID as
// it was before "pareto-trial-v2" (commit 24a2f44).
func TestLegacyID(t *testing.T) {
	tr := trial.Trial{Labels: map[string]string{"engine": "vllm", "engine_version": "0.8.5"},
		Params:    map[string]string{"tp": "8", "max_num_seqs": "256"},
		Workload:  trial.Workload{InputTokens: 1024, OutputTokens: 256, Concurrency: 32, RequestRate: math.Inf(1)},
		Succeeded: 499, Failed: 1,
		Measurements: []trial.Measurement{
			{Metric: "ttft", Dims: trial.Dims{{Key: "statistic", Value: "p99"}}, Value: 120.5, Unit: "ms", Native: "p99_ttft_ms", SourceUnit: "ms"},
			{Metric: "output_token_throughput", Value: 2400.25, Unit: "tokens/s"},
			{Metric: "ttft", Dims: trial.Dims{{Key: "statistic", Value: "mean"}}, Value: 80, Unit: "ms"},
			{Metric: "gpu_power", Dims: trial.Dims{{Key: "gpu", Value: "0"}, {Key: "statistic", Value: "avg"}}, Value: math.NaN(), Unit: "W"},
		}}
	empty := trial.Trial{Failed: -1}
	for _, c := range []struct {
		t    *trial.Trial
		want string
	}{{&tr, "27d5c77f5ac296c1"}, {&empty, "83c959e118e04bba"}} {
		if got := legacyID(c.t); got != c.want {
			t.Errorf("legacyID = %s; want %s", got, c.want)
		}
		if got := trial.ComputeID(c.t); got == c.want {
			t.Errorf("ComputeID = legacyID = %s: the encodings should differ", got)
		}
	}
}

// TestContentID checks contentID against IDs computed by trial.ComputeID
// as it was before "pareto-trial-v3" (commit 6e5c06d), for a trial with
// a problem, an unknown dims key and a long dims value.
func TestContentID(t *testing.T) {
	tr := trial.Trial{Labels: map[string]string{"engine": "vllm", "engine_version": "0.8.5"},
		Params:    map[string]string{"tp": "8", "max_num_seqs": "256"},
		Workload:  trial.Workload{InputTokens: 1024, OutputTokens: 256, Concurrency: 32, RequestRate: math.Inf(1)},
		Succeeded: 499, Failed: 1, Problem: "p",
		Source: trial.Source{Path: "not/hashed.json", Index: 3},
		Measurements: []trial.Measurement{
			{Metric: "ttft", Dims: trial.Dims{{Key: "statistic", Value: "p99"}}, Value: 120.5, Unit: "ms", Native: "p99_ttft_ms", SourceUnit: "ms"},
			{Metric: "output_token_throughput", Value: 2400.25, Unit: "tokens/s"},
			{Metric: "ttft", Dims: trial.Dims{{Key: "statistic", Value: "mean"}}, Value: 80, Unit: "ms"},
			{Metric: "gpu_power", Dims: trial.Dims{{Key: "gpu", Value: "0"}, {Key: "statistic", Value: "avg"}}, Value: math.NaN(), Unit: "W"},
			{Metric: "gpu_power", Dims: trial.Dims{{Key: "gpu", Value: "1"}, {Key: "statistic", Value: "avg"}, {Key: "weird key", Value: string(make([]byte, 200))}}, Value: 3, Unit: "W"},
		}}
	empty := trial.Trial{Failed: -1}
	for _, c := range []struct {
		t    *trial.Trial
		want string
	}{{&tr, "d7671a2ec66fb747"}, {&empty, "5583cdf739b2318a"}} {
		if got := contentID(c.t); got != c.want {
			t.Errorf("contentID = %s; want %s", got, c.want)
		}
		if got := trial.ComputeID(c.t); got == c.want {
			t.Errorf("ComputeID = contentID = %s: the encodings should differ", got)
		}
	}
}
