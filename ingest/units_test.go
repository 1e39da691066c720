package ingest

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestServingUnitsByKey: a vLLM-style statistic keyed in seconds (_s) is
// read in seconds and converted; one keyed without a unit is refused at
// its position, never dropped.
func TestServingUnitsByKey(t *testing.T) {
	ts, err := ReadBytes([]byte(`{"completed": 10, "duration": 5.0, "mean_ttft_s": 0.125, "p99_ttft_s": 0.5, "p99_tpot_ms": 7}`), "run.json")
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d trials, %v", len(ts), err)
	}
	for _, c := range []struct {
		metric, stat, native string
		want                 float64
	}{
		{trial.TTFT, "mean", "mean_ttft_s", 125}, {trial.TTFT, "p99", "p99_ttft_s", 500}, {trial.TPOT, "p99", "p99_tpot_ms", 7},
	} {
		m := findMeasurement(ts[0], c.metric, c.stat)
		if m == nil || m.Value != c.want || m.Unit != trial.UnitMs || m.Native != c.native {
			t.Errorf("%s %s = %+v, want %v ms from %s", c.metric, c.stat, m, c.want, c.native)
		}
	}
	_, err = ReadBytes([]byte(`{"completed": 10, "duration": 5.0, "p99_ttft": 0.5}`), "run.json")
	if err == nil || !strings.Contains(err.Error(), "run.json:1:48: p99_ttft: a latency keyed without its unit") {
		t.Errorf("unitless latency: %v, want a positioned refusal", err)
	}
}
