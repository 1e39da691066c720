package store_test

import (
	"context"
	"math"
	"testing"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// TestPostgresTextNaN writes a workload NaN as text, as a restored
// pg_dump does (PostgreSQL's own NaN bits, not Go's): the trial still
// verifies when read.
func TestPostgresTextNaN(t *testing.T) {
	ctx := context.Background()
	s := openT(t, freshPostgres(t))
	if _, _, err := s.Ingest(ctx, "s", "src", []trial.Trial{nanTrial()}); err != nil {
		t.Fatal(err)
	}
	if err := execRaw(ctx, s, `UPDATE trials SET mean_input_tokens = 'NaN', achieved_concurrency = 'NaN'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trials(ctx, "s", store.Query{}); err != nil {
		t.Errorf("a NaN written as text: %v", err)
	}
}

// nanTrial is a trial whose workload holds NaNs and an infinity.
func nanTrial() trial.Trial {
	return trial.Trial{
		ID:        "0123456789abcdef",
		Source:    trial.Source{Path: "old/run.json", Format: "vllm"},
		Labels:    map[string]string{"engine": "vllm", "engine_version": "0.8.5"},
		Params:    map[string]string{"tensor_parallel_size": "2"},
		Workload:  trial.Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: 16, RequestRate: math.Inf(1), Requests: 500, MeanInputTokens: math.NaN(), MeanOutputTokens: math.NaN(), AchievedConcurrency: math.NaN(), Users: math.NaN()},
		Succeeded: 499, Failed: 1,
		Warnings: []string{"old warning"},
		Measurements: []trial.Measurement{
			{Metric: "output_token_throughput", Value: 1234.5, Unit: "tokens/s", Native: "output_throughput"},
			{Metric: "ttft", Dims: trial.StatDims("p99"), Value: 87.25, Unit: "ms", Native: "p99_ttft_ms", SourceUnit: "ms"},
		},
	}
}
