package decide

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
)

var chainObjs = []frontier.Objective{
	{Name: "tps", Direction: frontier.Maximize, Noise: 0.03, MinImprove: 0.03},
	{Name: "ttft", Direction: frontier.Minimize, Noise: 0.05, MinImprove: 0.05},
}

// jittered returns a side with three runs per workload around values
// (±0.1%), one workload per values slice.
func jittered(name string, values ...[]float64) Side {
	s := Side{Name: name}
	for w, vs := range values {
		m := Measured{Workload: Workload{Concurrency: float64(int(8) << w)}, IDs: []string{name + "-1", name + "-2", name + "-3"}}
		for _, v := range vs {
			m.Stats = append(m.Stats, Summarize([]float64{v * 0.999, v, v * 1.001}, Median))
		}
		s.Workloads = append(s.Workloads, m)
	}
	return s
}

// TestDriftChain: A is the baseline, B is within noise of A (and admitted
// for a real throughput win), C is within noise of B but worse than A
// beyond noise on TTFT and not better than A on anything: C is rejected.
func TestDriftChain(t *testing.T) {
	cfg := GateConfig{Objectives: chainObjs}
	a := jittered("A", []float64{1000, 100})
	b := jittered("B", []float64{1040, 104})
	c := jittered("C", []float64{1015, 108})
	if v := Gate(cfg, b, a, nil); v.Decision != Admit {
		t.Fatalf("Gate(B) = %s %q; want admit", v.Decision, v.Reasons)
	}
	v := Gate(cfg, c, a, []Side{b})
	if v.Decision != Reject {
		t.Fatalf("Gate(C) = %s %q; want reject", v.Decision, v.Reasons)
	}
	want := []string{"not better than the baseline", "indistinguishable from archive member B"}
	for _, w := range want {
		if !strings.Contains(strings.Join(v.Reasons, "\n"), w) {
			t.Errorf("Gate(C) reasons %q; want one containing %q", v.Reasons, w)
		}
	}
	// Judged pairwise against B alone, C would pass as an equivalent peer.
	if !Beats([]float64{1000, 100}, []float64{1015, 108}, chainObjs) {
		t.Errorf("A should beat C under the noise-aware relation")
	}
}

// Beats re-exports frontier.Beats for the drift-chain test.
func Beats(a, b []float64, objs []frontier.Objective) bool { return frontier.Beats(a, b, objs) }

func TestGateDecisions(t *testing.T) {
	base := jittered("base", []float64{1000, 100}, []float64{2000, 200})
	for _, tt := range []struct {
		name     string
		cfg      GateConfig
		cand     Side
		archive  []Side
		want     Decision
		contains string
	}{
		{"win", GateConfig{}, jittered("c", []float64{1100, 100}, []float64{2000, 200}), nil, Admit, "better than the baseline: tps on concurrency=8"},
		{"no change", GateConfig{}, jittered("c", []float64{1001, 100}, []float64{2001, 200}), nil, Reject, "indistinguishable"},
		{"coverage", GateConfig{}, jittered("c", []float64{1100, 100}), nil, Reject, "does not cover workload concurrency=16"},
		{"slo", GateConfig{SLOs: []frontier.SLO{{Name: "ttft", Op: frontier.LE, Bound: 150}}},
			jittered("c", []float64{1100, 100, 100}, []float64{2200, 200, 200}), nil, Reject, "violates slo ttft<=150 on concurrency=16: ttft is 200 (+33.3% from the bound)"},
		{"repeats", GateConfig{MinRepeats: 5}, jittered("c", []float64{1100, 100}, []float64{2000, 200}), nil, Inconclusive, "candidate has 3 of the 5 runs required"},
		{"beaten by member", GateConfig{}, jittered("c", []float64{1100, 100}, []float64{2000, 200}),
			[]Side{jittered("m", []float64{1200, 100}, []float64{2000, 200})}, Reject, "beaten by archive member m"},
		{"uncertain", GateConfig{}, noisy("c", []float64{1040, 100}), nil, Inconclusive, "cannot tell yet"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Objectives = chainObjs
			b := base
			if tt.name == "uncertain" {
				b = noisy("base", []float64{1000, 100})
			}
			if len(cfg.SLOs) > 0 {
				b = jittered("base", []float64{1000, 100, 100}, []float64{2000, 200, 200})
			}
			v := Gate(cfg, tt.cand, b, tt.archive)
			if v.Decision != tt.want || !strings.Contains(strings.Join(v.Reasons, "\n"), tt.contains) {
				t.Errorf("Gate = %s %q; want %s with %q", v.Decision, v.Reasons, tt.want, tt.contains)
			}
			if v.Decision == Inconclusive && v.MoreRuns.Candidate+v.MoreRuns.Baseline == 0 {
				t.Errorf("inconclusive verdict asks for no runs: %+v", v.MoreRuns)
			}
		})
	}
}

// noisy returns a side with three runs spread by about 3%.
func noisy(name string, vs []float64) Side {
	m := Measured{Workload: Workload{Concurrency: 8}}
	for _, v := range vs {
		m.Stats = append(m.Stats, Summarize([]float64{v * 0.97, v, v * 1.03}, Median))
	}
	return Side{Name: name, Workloads: []Measured{m}}
}

func TestVerdictDeterministic(t *testing.T) {
	cfg := GateConfig{Objectives: chainObjs}
	a := jittered("A", []float64{1000, 100})
	b := jittered("B", []float64{1040, 104})
	first, err := json.Marshal(Gate(cfg, b, a, nil))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, _ := json.Marshal(Gate(cfg, b, a, nil))
		if string(again) != string(first) {
			t.Fatalf("verdict changed:\n%s\n%s", first, again)
		}
	}
	if !strings.Contains(string(first), `"delta":0.04`) {
		t.Errorf("verdict %s; want a delta of 0.04", first)
	}
}
