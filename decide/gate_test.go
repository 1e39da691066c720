package decide

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
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
		m := Measured{Workload: repeat.Workload{Concurrency: float64(int(8) << w)}, IDs: []string{name + "-1", name + "-2", name + "-3"}}
		for _, v := range vs {
			m.Stats = append(m.Stats, repeat.Summarize([]float64{v * 0.999, v, v * 1.001}, repeat.Median))
		}
		s.Workloads = append(s.Workloads, m)
	}
	return s
}

// TestDriftChain: A is the baseline, B is within noise of A (and admitted
// for a real throughput win), C is within noise of B but worse than A
// beyond noise on TTFT and not better than A on anything: C is rejected.
func TestDriftChain(t *testing.T) {
	cfg := oneLook(GateConfig{Objectives: chainObjs})
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

// oneLook caps cfg's runs at its three repeats: the single-look gate of a
// caller that measures each side once, whose admission spends the whole
// error 1 − Confidence on that look (split over objectives and workloads).
func oneLook(cfg GateConfig) GateConfig {
	cfg.MinRepeats, cfg.MaxRuns, cfg.MaxBaselineRuns = 3, 3, 3
	return cfg
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
			if tt.name != "uncertain" {
				cfg.MaxRuns, cfg.MaxBaselineRuns = max(3, cfg.MinRepeats), max(3, cfg.MinRepeats) // one look
			}
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
	m := Measured{Workload: repeat.Workload{Concurrency: 8}}
	for _, v := range vs {
		m.Stats = append(m.Stats, repeat.Summarize([]float64{v * 0.97, v, v * 1.03}, repeat.Median))
	}
	return Side{Name: name, Workloads: []Measured{m}}
}

func TestVerdictDeterministic(t *testing.T) {
	cfg := oneLook(GateConfig{Objectives: chainObjs})
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

// TestGateRegressions is issue 13's silent regression: TTFT 5.6% better
// with throughput 25% worse is a trade-off the gate admits, but the
// regression is listed (and in the reasons); --no-regression rejects it.
func TestGateRegressions(t *testing.T) {
	base := jittered("base", []float64{1000, 100})
	cand := jittered("c", []float64{750, 94.4})
	for _, tt := range []struct {
		noRegression bool
		want         Decision
		code         string
	}{{false, Admit, CodeAdmitted}, {true, Reject, CodeRejectedRegression}} {
		v := Gate(oneLook(GateConfig{Objectives: chainObjs, NoRegression: tt.noRegression}), cand, base, nil)
		if v.Decision != tt.want || v.Code != tt.code {
			t.Fatalf("NoRegression=%v: Gate = %s (%s) %q; want %s (%s)", tt.noRegression, v.Decision, v.Code, v.Reasons, tt.want, tt.code)
		}
		if len(v.Regressions) != 1 || v.Regressions[0].Objective != "tps" || v.Regressions[0].Status != StatusWorse ||
			math.Abs(float64(v.Regressions[0].Delta)+0.25) > 1e-3 {
			t.Errorf("regressions %+v; want tps worse by 25%%", v.Regressions)
		}
		if !slices.Contains(v.ReasonCodes, CodeRegression) || len(v.ReasonCodes) != len(v.Reasons) {
			t.Errorf("reasons %q with codes %q; want a regression among them, one code per reason", v.Reasons, v.ReasonCodes)
		}
		obj := v.Workloads[0].Objectives
		if obj[0].Status != StatusWorse || obj[0].Level != 0.8 || obj[1].Status != StatusBetter || obj[1].Level != 0.99 {
			t.Errorf("statuses %+v; want tps worse (at 80%%), ttft better (at 99%%: one look, two tests at 1%% in all)", obj)
		}
	}
}

// TestGateStatusEstimator: delta is the ratio of geometric means minus
// one, inside the interval it is reported with (issue 13 item 4: a median
// delta next to an interval on geometric means).
func TestGateStatusEstimator(t *testing.T) {
	skew := func(name string, vs ...float64) Side {
		m := Measured{Workload: repeat.Workload{Concurrency: 8}}
		m.Stats = append(m.Stats, repeat.Summarize(vs, repeat.Median), repeat.Summarize([]float64{100, 100.1, 99.9}, repeat.Median))
		return Side{Name: name, Workloads: []Measured{m}}
	}
	v := Gate(GateConfig{Objectives: chainObjs}, skew("c", 1000, 1001, 1100), skew("b", 1000, 1000.5, 999.5), nil)
	o := v.Workloads[0].Objectives[0]
	gm := math.Cbrt(1000 * 1001 * 1100)
	if math.Abs(float64(o.Delta)-(gm/1000-1)) > 1e-4 || !(o.Low <= o.Delta && o.Delta <= o.High) {
		t.Errorf("delta %v in [%v, %v]; want the geometric ratio %v inside its interval", o.Delta, o.Low, o.High, gm/1000-1)
	}
	if float64(o.CandidateMedian) != 1001 || math.Abs(float64(o.Candidate)-gm) > 1e-3 {
		t.Errorf("candidate %v (median %v); want the geometric mean %v and the median 1001", o.Candidate, o.CandidateMedian, gm)
	}
}

// TestGateMaxRuns: the runs asked for stay within MaxRuns, and a
// candidate still undecided there is rejected with its own code.
func TestGateMaxRuns(t *testing.T) {
	base, cand := noisy("base", []float64{1000, 100}), noisy("c", []float64{1040, 100})
	v := Gate(GateConfig{Objectives: chainObjs}, cand, base, nil)
	if v.Decision != Inconclusive || v.MoreRuns.Candidate <= 2 || v.MoreRuns.Candidate > 7 || v.MoreRuns.Baseline > 17 ||
		v.Thresholds.MaxRuns != 10 || v.Thresholds.MaxBaselineRuns != 20 {
		t.Fatalf("default caps: %s asking %+v (%+v); want inconclusive asking more than 2 runs, within 10 and 20 per side",
			v.Decision, v.MoreRuns, v.Thresholds)
	}
	v = Gate(GateConfig{Objectives: chainObjs, MaxRuns: 5, MaxBaselineRuns: 5}, cand, base, nil)
	if v.Decision != Inconclusive || v.MoreRuns.Candidate > 2 || v.MoreRuns.Baseline > 2 || v.Thresholds.MaxRuns != 5 {
		t.Errorf("MaxRuns 5: %s asking %+v; want inconclusive asking at most 2 runs per side", v.Decision, v.MoreRuns)
	}
	v = Gate(GateConfig{Objectives: chainObjs, MaxRuns: 5}, cand, base, nil)
	if v.Decision != Inconclusive || v.MoreRuns.Candidate > 2 || v.MoreRuns.Baseline > 17 {
		t.Errorf("MaxRuns 5, baseline 20: %s asking %+v; want at most 2 candidate and 17 baseline runs", v.Decision, v.MoreRuns)
	}
	v = Gate(oneLook(GateConfig{Objectives: chainObjs}), cand, base, nil)
	if v.Decision != Reject || v.Code != CodeRejectedMaxRuns || v.ReasonCodes[0] != CodeRejectedMaxRuns ||
		v.MoreRuns.Candidate+v.MoreRuns.Baseline != 0 {
		t.Errorf("MaxRuns 3: %s (%s) %q asking %+v; want rejected_max_runs", v.Decision, v.Code, v.Reasons, v.MoreRuns)
	}
}

// TestGateNoiseWarning: a minimum improvement below the run-to-run CV of
// the runs at hand is flagged with its code and the estimate (issue 22
// item 2); one above it is not.
func TestGateNoiseWarning(t *testing.T) {
	base, cand := noisy("base", []float64{1000, 100}), noisy("c", []float64{1040, 100})
	low := []frontier.Objective{
		{Name: "tps", Direction: frontier.Maximize, Noise: 0.01, MinImprove: 0.01},
		{Name: "ttft", Direction: frontier.Minimize, Noise: 0.1, MinImprove: 0.1},
	}
	v := Gate(GateConfig{Objectives: low}, cand, base, nil)
	if len(v.Warnings) != 1 {
		t.Fatalf("warnings %+v; want one, on tps", v.Warnings)
	}
	w := v.Warnings[0]
	// noisy spreads the runs by ±3%: a CV of 3% on both sides.
	if w.Code != CodeMinImproveBelowNoise || w.Objective != "tps" || math.Abs(float64(w.CV)-0.03) > 0.001 || w.DF != 4 ||
		!(w.CVLow < w.CV && w.CV < w.CVHigh) || !strings.Contains(w.Message, "min_improve tps=1% is below the run-to-run noise") {
		t.Errorf("warning %+v; want min_improve_below_noise on tps, CV 3%% from 4 degrees of freedom", w)
	}
	if v := Gate(GateConfig{Objectives: chainObjs}, jittered("c", []float64{1040, 100}), jittered("b", []float64{1000, 100}), nil); len(v.Warnings) != 0 {
		t.Errorf("warnings %+v with 0.1%% noise and 3%%/5%% thresholds; want none", v.Warnings)
	}
}

// TestMoreRunsBaseline: the runs asked for go to the side whose next run
// shrinks the interval more, the baseline when it is the larger part of
// the uncertainty, within each side's cap.
func TestMoreRunsBaseline(t *testing.T) {
	iv := LogDiff([]float64{100, 103, 97, 101, 99, 102, 98, 100, 103, 97}, []float64{100, 103, 97})
	c, b := iv.moreRuns(fixed(0.99), 0.02, 10, 20)
	if c != 0 || b == 0 || iv.NB+b > 20 {
		t.Errorf("10 candidate runs, 3 baseline runs: asks %d candidate and %d baseline runs; want baseline runs only, within 20", c, b)
	}
	c, b = iv.moreRuns(fixed(0.99), 0.001, 12, 6)
	if c != 2 || b != 3 {
		t.Errorf("unreachable gap: asks %d candidate and %d baseline runs; want the runs up to the caps (2 and 3)", c, b)
	}
}
