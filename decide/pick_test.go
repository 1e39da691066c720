package decide

import (
	"math"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// pt builds a point with one run per value: tps, ttft (objectives), then
// ttft again as the SLO column.
func pt(tps, ttft float64) repeat.Point {
	return repeat.Point{Stats: []repeat.Stat{repeat.Summarize([]float64{tps}, repeat.Median), repeat.Summarize([]float64{ttft}, repeat.Median), repeat.Summarize([]float64{ttft}, repeat.Median)}}
}

func TestPick(t *testing.T) {
	points := []repeat.Point{pt(1000, 100), pt(1500, 190), pt(1800, 210), pt(2000, 400), pt(1500, 180)}
	cfg := PickConfig{
		Primary: frontier.Objective{Name: "tps", Direction: frontier.Maximize},
		Others:  []frontier.Objective{{Name: "ttft", Direction: frontier.Minimize}},
	}
	for _, tt := range []struct {
		name    string
		bound   float64
		choice  int
		binding float64 // primary value bought by relaxing, 0 if none
		closest int
	}{
		{"binding", 200, 4, 1800, 0},
		{"loose", 1000, 3, 0, 0},
		{"infeasible", 50, -1, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg.SLOs = []frontier.SLO{{Name: "ttft", Op: frontier.LE, Bound: tt.bound}}
			r := Pick(points, cfg)
			if r.Choice != tt.choice {
				t.Fatalf("Pick choice = %d; want %d", r.Choice, tt.choice)
			}
			switch {
			case tt.binding != 0 && (len(r.Binding) != 1 || r.Binding[0].Value != tt.binding || math.Abs(r.Binding[0].Gain-0.2) > 1e-9):
				t.Errorf("Binding = %+v; want value %g (+20%%)", r.Binding, tt.binding)
			case tt.binding == 0 && len(r.Binding) != 0:
				t.Errorf("Binding = %+v; want none", r.Binding)
			}
			if tt.choice < 0 && (len(r.Closest) != 3 || r.Closest[0].Point != 0) {
				t.Errorf("Closest = %+v; want 3 points starting with 0", r.Closest)
			}
		})
	}
}

func TestNoiseAndDrift(t *testing.T) {
	g := &repeat.Group{Trials: nil}
	var points []repeat.Point
	for _, s := range [][]float64{{100, 102, 98}, {200, 204, 196}, {50}} {
		points = append(points, repeat.Point{Group: g, Stats: []repeat.Stat{repeat.Summarize(s, repeat.Median)}})
	}
	rep := EstimateNoise(points, []string{"tps"}, 0.95, 3)
	e := rep.Metrics[0]
	if e.DF != 4 || e.Configs != 2 || math.Abs(e.CV-0.02) > 0.001 || !(e.Low < e.CV && e.CV < e.High) || e.Band < 2*e.High {
		t.Errorf("EstimateNoise = %+v", e)
	}
	if len(rep.Few) != 3 { // the test group has no trials
		t.Errorf("Few = %d; want 3", len(rep.Few))
	}
	objs := []frontier.Objective{{Name: "tps", Direction: frontier.Maximize, Noise: 0.03, MinImprove: 0.03},
		{Name: "ttft", Direction: frontier.Minimize, Noise: 0.05, MinImprove: 0.05}}
	d := Drift(objs, jittered("0.8", []float64{1000, 100}), jittered("0.9", []float64{1100, 101}), 0.95)
	if len(d) != 1 || d[0].Objectives[0].Verdict != Improved || d[0].Objectives[1].Verdict != Unchanged {
		t.Errorf("Drift = %+v", d)
	}
}

// TestPickAcrossWorkloads is issue 13's pick: configuration A is the
// fastest at concurrency 64 but violates ttft.p99<=250 at concurrency 16,
// so it is not feasible; B, within the bound at both, is chosen.
func TestPickAcrossWorkloads(t *testing.T) {
	a, b := "aaaaaaaaaaaa", "bbbbbbbbbbbb"
	at := func(cfg string, conc, tps, ttft float64) repeat.Point {
		p := pt(tps, ttft)
		p.Group = &repeat.Group{Config: cfg, Workload: repeat.Workload{Concurrency: conc}}
		return p
	}
	points := []repeat.Point{at(a, 16, 900, 300), at(a, 64, 3000, 240), at(b, 16, 800, 200), at(b, 64, 2500, 230)}
	cfg := PickConfig{Primary: frontier.Objective{Name: "tps", Direction: frontier.Maximize},
		SLOs: []frontier.SLO{{Name: "ttft", Op: frontier.LE, Bound: 250}}}
	r := Pick(points, cfg)
	if r.Choice != 3 {
		t.Fatalf("Pick choice = %d; want 3 (B at 64), not A, which violates the bound at 16", r.Choice)
	}
	if len(r.Excluded) != 1 || r.Excluded[0] != 1 {
		t.Errorf("Excluded = %v; want [1] (A at 64, within the bound but A is not)", r.Excluded)
	}
	// Relaxing the bound by 10% (275) still leaves A out at 300: not binding.
	if len(r.Binding) != 0 {
		t.Errorf("Binding = %+v; want none", r.Binding)
	}
	cfg.SLOs[0].Bound = 280
	if r := Pick(points, cfg); r.Choice != 3 || len(r.Binding) != 1 || r.Binding[0].Choice != 1 {
		t.Errorf("at 280: choice %d, binding %+v; want 3, and relaxing to 308 buys A at 64", r.Choice, r.Binding)
	}
}
