package decide

import (
	"fmt"
	"math"
	"strconv"
)

// SpendingPower is ρ of the gate's spending function t^ρ (Kim and
// DeMets' power family: ρ = 1 spends evenly like Pocock's boundary, ρ = 3
// is close to O'Brien and Fleming's): the share of a test's error spent on
// the looks up to the fraction t of the planned candidate runs.
const SpendingPower = 3

// BaselineAtCap is the share of a test's error spent on looks with the
// baseline at MaxBaselineRuns, where it stays once the gate has asked for
// its runs (every later candidate is judged against it there); the rest is
// spent over the smaller baselines.
const BaselineAtCap = 0.5

// spending is the error budget of the gate's admission test. An admission
// needs "better than the baseline by more than the minimum improvement on
// some objective and workload": one one-sided Welch t test per objective
// and workload (a union-intersection test), repeated at every look a
// driver takes as it adds runs. The family-wise error α = 1 − Confidence
// is split evenly over the T tests (Bonferroni) and, for each test, over
// the pairs (nc, nb) of candidate and baseline runs a look can have:
//
//	α(nc, nb) = α/T · wc(nc) · wb(nb)
//
// with wc the increments of the spending function t^ρ over nc = m … MaxRuns
// (m = MinRepeats) and wb putting BaselineAtCap on nb = MaxBaselineRuns
// and the rest, by the same increments, on nb = m … MaxBaselineRuns − 1;
// both sum to one, so the α(nc, nb) sum to α/T. Runs are independent
// repeats and the gate uses all the runs at hand, so a look at (nc, nb) is
// the fixed-sample test of the first nc and nb runs whatever the driver did
// before it: by the union bound over every test and pair, P(admit | no
// improvement beyond the minimum on any objective and workload) ≤ α, for
// any number of looks and any way of choosing the runs added (a pair never
// looked at leaves its share unspent). Counts beyond the caps, which the
// gate never asks for, are judged as the caps (the bound then holds for a
// driver that looks once there per candidate count).
type spending struct {
	alpha            float64
	tests            int
	minRuns          int
	maxCand, maxBase int
}

func newSpending(cfg GateConfig, tests int) spending {
	return spending{alpha: 1 - cfg.Confidence, tests: max(tests, 1), minRuns: cfg.MinRepeats,
		maxCand: max(cfg.MaxRuns, cfg.MinRepeats), maxBase: max(cfg.MaxBaselineRuns, cfg.MinRepeats)}
}

// looks returns the number of (candidate runs, baseline runs) pairs the
// error is spent over.
func (s spending) looks() int { return (s.maxCand - s.minRuns + 1) * (s.maxBase - s.minRuns + 1) }

// increment returns the share of the spending function t^ρ of the k-th of
// n steps.
func increment(k, n int) float64 {
	f := func(k int) float64 { return math.Pow(float64(k)/float64(n), SpendingPower) }
	return f(k+1) - f(k)
}

// alphaAt returns the one-sided error one test may spend at the look with
// nc candidate and nb baseline runs.
func (s spending) alphaAt(nc, nb int) float64 {
	nc, nb = min(max(nc, s.minRuns), s.maxCand), min(max(nb, s.minRuns), s.maxBase)
	wc := increment(nc-s.minRuns, s.maxCand-s.minRuns+1)
	wb := 1.0
	switch n := s.maxBase - s.minRuns; {
	case n == 0:
	case nb == s.maxBase:
		wb = BaselineAtCap
	default:
		wb = (1 - BaselineAtCap) * increment(nb-s.minRuns, n)
	}
	return s.alpha / float64(s.tests) * wc * wb
}

// level returns the two-sided level of the interval whose lower bound must
// clear the minimum improvement at that look.
func (s spending) level(nc, nb int) float64 { return 1 - 2*s.alphaAt(nc, nb) }

// spendingName names the admission test in Thresholds.Spending.
var spendingName = "bonferroni-pairs-power-" + strconv.Itoa(SpendingPower)

// admitLevel returns the level of the interval that must clear the minimum
// improvement over the baseline on workload w and objective i at the look
// the runs at hand make.
func (g *gate) admitLevel(w, i int) float64 {
	iv := g.iv[0][w][i]
	return g.seq.level(iv.NA, iv.NB)
}

// noiseLevel is the level of the interval a warning quotes on the noise,
// that of pareto noise's default.
const noiseLevel = 0.95

// noise warns, per objective, when the minimum improvement is below the
// run-to-run noise of the runs at hand: the coefficient of variation
// pooled over the candidate's and the baseline's repeats on every workload
// (EstimateNoise's estimate).
func (g *gate) noise() {
	for i, o := range g.cfg.Objectives {
		var groups [][]float64
		for w := range g.ws {
			for _, m := range []*Measured{g.cm[w], g.rm[0][w]} {
				if m != nil && i < len(m.Stats) {
					groups = append(groups, m.Stats[i].Samples)
				}
			}
		}
		e := poolNoise(o.Name, noiseLevel, len(groups), func(k int) []float64 { return groups[k] })
		if !(o.MinImprove < e.CV) {
			continue
		}
		g.v.Warnings = append(g.v.Warnings, Warning{Code: CodeMinImproveBelowNoise, Objective: o.Name,
			MinImprove: Num(o.MinImprove), CV: Num(e.CV), CVLow: Num(e.Low), CVHigh: Num(e.High), DF: e.DF,
			Message: fmt.Sprintf("min_improve %s=%s is below the run-to-run noise of the runs at hand "+
				"(CV %.2f%%, %g%% CI %.2f%% to %.2f%%, %d degrees of freedom): a win that small needs many runs to show, "+
				"and the gate is likely to stop at max_runs (rejected_max_runs)",
				o.Name, strconv.FormatFloat(100*o.MinImprove, 'g', 4, 64)+"%", 100*e.CV, 100*noiseLevel, 100*e.Low, 100*e.High, e.DF)})
	}
}
