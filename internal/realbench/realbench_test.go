package realbench

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/pareto-llm/pareto/trial"
)

// TestWrite: each format's result is read back by pareto's reader with
// the simulator's numbers on the objectives, no server setting among its
// parameters, and the files beside it are no result.
func TestWrite(t *testing.T) {
	cfg := simulate.DefaultConfig
	cfg.MaxNumSeqs = 128
	r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		format, latency string
		want            float64
		trials          int
	}{
		{"vllm", "ttft.p50", r.TTFT.Median, 1},
		{"sglang", "ttft.p50", r.TTFT.Median, 1},
		{"aiperf", "e2el.p50", r.E2EL.Median, 1},
		{"guidellm", "ttft.p50", r.TTFT.Median, 2},
	} {
		t.Run(tt.format, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := Write(dir, tt.format, cfg, 7); err != nil {
				t.Fatal(err)
			}
			d, err := ingest.Load([]string{dir}, ingest.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Trials) != tt.trials {
				for _, s := range d.Skipped {
					t.Logf("skipped %s: %s %s", s.Path, s.Code, s.Reason)
				}
				t.Fatalf("%d trials, want %d", len(d.Trials), tt.trials)
			}
			for _, s := range d.Skipped {
				t.Logf("skipped %s: %s", filepath.Base(s.Path), s.Code)
				if s.Code == ingest.SkipError {
					t.Errorf("%s: %s", s.Path, s.Reason)
				}
			}
			tr := &d.Trials[0]
			for _, c := range []struct {
				sel  string
				want float64
			}{{"output_token_throughput", r.OutputThroughput}, {tt.latency, tt.want}} {
				sel, err := trial.ParseSelector(c.sel)
				if err != nil {
					t.Fatal(err)
				}
				m, err := sel.Resolve(tr)
				if err != nil {
					t.Fatalf("%s: %v", c.sel, err)
				}
				if math.Abs(m.Value-c.want) > 1e-9*c.want {
					t.Errorf("%s = %v, want the simulator's %v", c.sel, m.Value, c.want)
				}
			}
			for k := range tr.Params {
				for _, s := range simulate.Settings {
					if s.Knob == simulate.Server && k == s.Name {
						t.Errorf("parameter %s: a server setting in the result", k)
					}
				}
			}
			t.Logf("params %d labels %v workload %+v", len(tr.Params), tr.Labels, tr.Workload)
		})
	}
}
