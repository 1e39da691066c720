package gatesim

import (
	"testing"
)

// TestFalseAdmits is the grid's small version over a fixed seed: no-change
// candidates at the smallest thresholds (where the uncorrected gate, 95 %
// intervals at every look on two objectives, admitted 4.3 % of them at
// p99 TTFT CV 10 %, δ 1 %), and candidates exactly at the threshold (+δ,
// the least favourable null), at the default confidence and at 0.95. The
// observed rate must stay below the bound 1 − confidence.
func TestFalseAdmits(t *testing.T) {
	for _, c := range []Cell{
		{CV: [2]float64{0.015, 0.10}, MinImprove: 0.01},
		{CV: [2]float64{0.015, 0.10}, MinImprove: 0.02, Confidence: 0.95},
		{CV: [2]float64{0.015, 0.04}, MinImprove: 0.01, Confidence: 0.95},
		{CV: [2]float64{0.015, 0.04}, MinImprove: 0.03, Confidence: 0.95, Effect: 1, EffectOn: 0},
	} {
		c.Baselines, c.PerBaseline, c.BaselineRuns, c.MinRepeats, c.NoRegression, c.Seed = 15, 20, 5, 3, true, 7
		r, err := Run(c, Library{})
		if err != nil {
			t.Fatal(err)
		}
		bound := 1 - c.Config().Confidence
		if c.Confidence == 0 {
			bound = 0.01
		}
		lo, hi := r.Bootstrap(1000, 0.95, 1)
		t.Logf("TTFT CV %g, δ %g, confidence %g, effect %gδ: %d of %d admitted (%.2f%%, bootstrap [%.2f%%, %.2f%%]), %.2f runs per decision",
			c.CV[1], c.MinImprove, c.Confidence, c.Effect, r.Admitted, r.Candidates, 100*r.Rate(), 100*lo, 100*hi, r.RunsPerDecision())
		if r.Candidates != 300 {
			t.Errorf("%d candidates judged; want 300", r.Candidates)
		}
		if r.Rate() > bound {
			t.Errorf("false-admit rate %.4f above the bound %g", r.Rate(), bound)
		}
		if r.RunsPerDecision() > 10 {
			t.Errorf("%.2f candidate runs per decision; want at most --max-runs (10)", r.RunsPerDecision())
		}
	}
}

// TestTrueAdmits: a real win well beyond the threshold is admitted, so that
// the bound is not met by never admitting.
func TestTrueAdmits(t *testing.T) {
	c := Cell{CV: [2]float64{0.015, 0.04}, MinImprove: 0.03, Effect: 2, EffectOn: 0,
		Baselines: 5, PerBaseline: 20, BaselineRuns: 5, MinRepeats: 3, NoRegression: true, Seed: 3}
	r, err := Run(c, Library{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rate() < 0.7 {
		t.Errorf("+6%% throughput at δ 3%%: %d of %d admitted; want at least 70%%", r.Admitted, r.Candidates)
	}
}

// TestCLIAgrees: pareto gate on result files in a SQLite store decides
// every candidate as decide.Gate does on the same values.
func TestCLIAgrees(t *testing.T) {
	c := Cell{CV: [2]float64{0.015, 0.10}, MinImprove: 0.02, Confidence: 0.95, Effect: 2, EffectOn: 0,
		Baselines: 2, PerBaseline: 6, BaselineRuns: 5, MinRepeats: 3, NoRegression: true, Seed: 11}
	lib, err := Run(c, Library{})
	if err != nil {
		t.Fatal(err)
	}
	cli, err := Run(c, CLI{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Decisions) != 12 || len(cli.Decisions) != 12 || lib.Looks != cli.Looks {
		t.Fatalf("library %d decisions in %d looks, CLI %d in %d; want 12 each, the same looks",
			len(lib.Decisions), lib.Looks, len(cli.Decisions), cli.Looks)
	}
	for k := range lib.Decisions {
		if lib.Decisions[k] != cli.Decisions[k] {
			t.Errorf("candidate %d: library %s, CLI %s", k, lib.Decisions[k], cli.Decisions[k])
		}
	}
}
