package decide

import (
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// GateConfig sets the thresholds of Gate.
type GateConfig struct {
	// Objectives are the compared metrics with their noise band σ and
	// minimum improvement δ.
	Objectives []frontier.Objective
	// SLOs must hold for the candidate's aggregate on every workload.
	SLOs []frontier.SLO
	// MinRepeats is the number of runs each side needs per workload
	// before any decision (0 means DefaultGate.MinRepeats).
	MinRepeats int
	// Confidence bounds the false admits: P(admit | no improvement beyond
	// the minimum on any objective and workload) ≤ 1 − Confidence, over
	// every look a driver takes as it adds runs up to MaxRuns and
	// MaxBaselineRuns (see spending; DefaultGate.Confidence when zero). The
	// other facts favouring admission (no archive member beats it, no
	// equivalent member) are judged with intervals at this level.
	Confidence float64
	// Futility is the level for facts against admission (0.8 when zero):
	// lower, because rejecting a weak candidate early costs less than
	// admitting noise.
	Futility float64
	// MaxRuns caps the runs of the candidate (and of an archive member)
	// per workload, MaxBaselineRuns those of the baseline (zero:
	// DefaultGate's): a verdict that would ask for runs beyond them asks
	// only for those within, one that cannot ask for any is a rejection,
	// CodeRejectedMaxRuns, and they set the looks the admission error is
	// spent over.
	MaxRuns, MaxBaselineRuns int
	// NoRegression rejects (CodeRejectedRegression) an admit that is
	// worse than the baseline beyond the noise band on any objective and
	// workload, and holds one that may be (inconclusive) until it is told.
	NoRegression bool
}

// DefaultGate holds the default levels and caps. Confidence 0.99 keeps
// false admits at or below 1 %.
var DefaultGate = GateConfig{MinRepeats: 3, Confidence: 0.99, Futility: 0.8, MaxRuns: 10, MaxBaselineRuns: 20}

// Side is one configuration measured on workloads: the candidate, the
// baseline or an archive member.
type Side struct {
	// Name identifies the side in reasons (a selection or "key:HEX").
	Name string
	// Workloads holds the measurements, one per workload.
	Workloads []Measured
}

// Measured is one configuration's repeats under one workload.
type Measured struct {
	Workload repeat.Workload
	// IDs are the trial IDs of the repeats.
	IDs []string
	// Stats holds the objectives in order, then the SLO columns.
	Stats []repeat.Stat
}

// find returns the side's measurement of w, or nil.
func (s *Side) find(w repeat.Workload) *Measured {
	for i := range s.Workloads {
		if s.Workloads[i].Workload == w {
			return &s.Workloads[i]
		}
	}
	return nil
}

// thresholds returns the log thresholds of objective o, oriented so that
// positive differences favour the candidate: win (candidate better by more
// than δ), loss (reference better by more than δ), band (candidate not
// worse than the reference beyond σ: d >= band) and refBand (reference not
// worse than the candidate beyond σ: d <= refBand). They are those of the
// noise-aware frontier's relation (frontier.Objective.LogThresholds).
func thresholds(o frontier.Objective) (win, loss, band, refBand float64) {
	win, band = o.LogThresholds()
	return win, -win, band, -band
}

// oriented returns the log difference of cand against ref on objective o,
// positive when the candidate is better.
func oriented(cand, ref repeat.Stat, o frontier.Objective) Interval {
	iv := LogDiff(cand.Samples, ref.Samples)
	if o.Direction == frontier.Minimize {
		iv.Est = -iv.Est
	}
	return iv
}

// betterThan is "the candidate is better than reference r by more than the
// minimum improvement on some workload and objective", the admission's
// family of sequential tests (seq atoms).
func betterThan(r int, ws []int, objs []frontier.Objective) prop {
	var xs []prop
	for _, w := range ws {
		for i, o := range objs {
			win, _, _, _ := thresholds(o)
			xs = append(xs, cmpAtom{r: r, w: w, i: i, gt: true, thr: win, seq: true})
		}
	}
	return or(xs...)
}

// beatenBy is "reference r beats the candidate": no worse beyond the band
// everywhere and better by more than the minimum improvement somewhere.
func beatenBy(r int, ws []int, objs []frontier.Objective) prop {
	var within, wins []prop
	for _, w := range ws {
		for i, o := range objs {
			_, loss, _, refBand := thresholds(o)
			within = append(within, cmpAtom{r: r, w: w, i: i, gt: false, thr: refBand})
			wins = append(wins, cmpAtom{r: r, w: w, i: i, gt: false, thr: loss})
		}
	}
	return and(and(within...), or(wins...))
}

// equivalent is "the candidate and reference r are within each other's
// band everywhere, with no meaningful win either way".
func equivalent(r int, ws []int, objs []frontier.Objective) prop {
	var within, wins []prop
	for _, w := range ws {
		for i, o := range objs {
			win, loss, band, refBand := thresholds(o)
			within = append(within, notProp{cmpAtom{r: r, w: w, i: i, gt: false, thr: band}},
				cmpAtom{r: r, w: w, i: i, gt: false, thr: refBand})
			wins = append(wins, cmpAtom{r: r, w: w, i: i, gt: true, thr: win},
				cmpAtom{r: r, w: w, i: i, gt: false, thr: loss})
		}
	}
	return and(and(within...), notProp{or(wins...)})
}
