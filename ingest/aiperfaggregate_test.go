package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestAIPerfAggregate: AIPerf's aggregates over several profile runs are
// not_a_result with what they are, named alone or in a folder (each run's
// own profile_export_aiperf.json is its trial). The sweep shape is that of
// akamaslabs/vllm-benchmark @ 8846e6a880f56bddbd2299e823009510edd8d1df
// (studies/26-g7-4500-gpu-slice-right-sizing/results/aiperf-exp7-no-mig-repeat/sweep_aggregate/profile_export_aiperf_sweep.json,
// 12 concurrencies; cut to one block per combination), the confidence
// shape that of AIPerf's AggregateConfidenceJsonExporter.
func TestAIPerfAggregate(t *testing.T) {
	const block = `{"mean": 6.81, "avg": 6.81, "std": 0.0, "min": 6.81, "max": 6.81, "cv": 0.0, "ci_low": 6.81, "ci_high": 6.81, "unit": "requests/sec"}`
	docs := map[string]string{
		"profile_export_aiperf_sweep.json": `{
  "aggregation_type": "sweep",
  "num_profile_runs": 2,
  "num_successful_runs": 2,
  "failed_runs": [],
  "metadata": {"sweep_parameters": [{"name": "concurrency", "values": [16, 32]}], "num_combinations": 2, "sweep_mode": "repeated"},
  "per_combination_metrics": [
    {"parameters": {"concurrency": 16}, "metrics": {"request_throughput": ` + block + `}},
    {"parameters": {"concurrency": 32}, "metrics": {"request_throughput": ` + block + `}}
  ]
}
`,
		"profile_export_aiperf_aggregate.json": `{
  "aggregation_type": "confidence",
  "num_profile_runs": 3,
  "num_successful_runs": 3,
  "failed_runs": [],
  "metadata": {"confidence_level": 0.95},
  "metrics": {"request_throughput": ` + block + `}
}
`,
	}
	dir := t.TempDir()
	for name, doc := range docs {
		path := filepath.Join(dir, "aggregate", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		ts, err := ReadFile(path)
		var nr *NotResultError
		if !errors.As(err, &nr) || len(ts) != 0 || !strings.Contains(nr.What, "AIPerf's aggregate") {
			t.Errorf("%s alone: %d trials, %v; want not_a_result naming AIPerf's aggregate", name, len(ts), err)
		}
	}
	d, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Trials) != 0 || len(d.Skipped) != 2 {
		t.Fatalf("folder: %d trials, skips %+v; want 0 and 2", len(d.Trials), d.Skipped)
	}
	for _, s := range d.Skipped {
		if s.Code != trial.SkipNotResult || !strings.Contains(s.Reason, "AIPerf's aggregate") {
			t.Errorf("folder skip %+v", s)
		}
	}
}
