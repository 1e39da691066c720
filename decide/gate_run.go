package decide

import (
	"cmp"
	"fmt"
	"github.com/pareto-llm/pareto/repeat"
	"math"
	"slices"
)

// Gate decides whether the candidate is admitted, grounded to the baseline
// and against the archive (earlier admitted candidates in the same scope;
// the baseline is always part of it):
//
//   - Admit when the candidate covers every workload of the baseline with
//     at least MinRepeats runs, its aggregates meet every SLO, it is better
//     than the baseline by more than the minimum improvement on some
//     workload and objective, no archive member beats it and it is not
//     equivalent to any member.
//   - Reject when any of these is known to fail.
//   - Inconclusive when the intervals cannot tell yet; MoreRuns says how
//     many more runs would settle it.
//
// A fact favouring admission must hold at the Confidence level, a fact
// against it at the Futility level. The result depends only on the inputs.
func Gate(cfg GateConfig, cand, base Side, archive []Side) Verdict {
	cfg = withDefaults(cfg)
	g := &gate{cfg: cfg, cand: cand, refs: append([]Side{base}, archive...)}
	g.v = Verdict{Candidate: cand.Name, Baseline: base.Name, Nearest: base.Name, Thresholds: cfg.thresholds(),
		Workloads: []WorkloadResult{}, Regressions: []Regression{}, BaselineSessions: []string{}}
	g.v.Trials = g.trialIDs()
	g.workloads()
	g.seq = newSpending(cfg, len(g.ws)*len(cfg.Objectives))
	switch {
	case g.coverage():
		g.v.Decision = Reject
	case g.repeats():
		g.v.Decision = Inconclusive
	default:
		g.intervals()
		g.nearest()
		g.results()
		g.decide()
	}
	g.capRuns()
	g.noise()
	if g.v.Reasons == nil {
		g.v.Reasons, g.v.ReasonCodes = []string{}, []string{}
	}
	g.v.Code = g.code()
	return g.v
}

// code is the decision's reason code: that of the first reason of a
// rejection which is not a win or a regression.
func (g *gate) code() string {
	switch g.v.Decision {
	case Admit:
		return CodeAdmitted
	case Inconclusive:
		return CodeMoreRuns
	}
	for _, c := range g.v.ReasonCodes {
		if c != CodeBetter && c != CodeRegression && c != CodeMoreRuns {
			return c
		}
	}
	return CodeRejectedNotBetter
}

// capRuns keeps the runs an inconclusive verdict asks for within MaxRuns
// per workload (MaxBaselineRuns for the baseline), and rejects it when it
// can ask for none.
func (g *gate) capRuns() {
	if g.v.Decision != Inconclusive {
		return
	}
	left := func(ms []*Measured, limit int) int {
		n := math.MaxInt
		for _, m := range ms {
			n = min(n, runs(m))
		}
		return max(limit-n, 0)
	}
	mr := &g.v.MoreRuns
	mr.Candidate = min(mr.Candidate, left(g.cm, g.cfg.MaxRuns))
	mr.Baseline = min(mr.Baseline, left(g.rm[0], g.cfg.MaxBaselineRuns))
	for r := 1; r < len(g.refs); r++ {
		name := g.refs[r].Name
		if n, ok := mr.Members[name]; ok {
			if n = min(n, left(g.rm[r], g.cfg.MaxRuns)); n > 0 {
				mr.Members[name] = n
			} else {
				delete(mr.Members, name)
			}
		}
	}
	if len(mr.Members) == 0 {
		mr.Members = nil
	}
	if mr.Candidate > 0 || mr.Baseline > 0 || mr.Members != nil {
		return
	}
	g.v.Decision = Reject
	why := fmt.Sprintf("still undecided with the %d candidate and %d baseline runs per workload max_runs and max_baseline_runs allow",
		g.cfg.MaxRuns, g.cfg.MaxBaselineRuns)
	g.v.Reasons = append([]string{why}, g.v.Reasons...)
	g.v.ReasonCodes = append([]string{CodeRejectedMaxRuns}, g.v.ReasonCodes...)
}

func withDefaults(cfg GateConfig) GateConfig {
	if cfg.MinRepeats <= 0 {
		cfg.MinRepeats = DefaultGate.MinRepeats
	}
	if cfg.Confidence <= 0 || cfg.Confidence >= 1 {
		cfg.Confidence = DefaultGate.Confidence
	}
	if cfg.Futility <= 0 || cfg.Futility >= 1 {
		cfg.Futility = DefaultGate.Futility
	}
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = DefaultGate.MaxRuns
	}
	if cfg.MaxBaselineRuns <= 0 {
		cfg.MaxBaselineRuns = DefaultGate.MaxBaselineRuns
	}
	cfg.MaxRuns, cfg.MaxBaselineRuns = max(cfg.MaxRuns, cfg.MinRepeats), max(cfg.MaxBaselineRuns, cfg.MinRepeats)
	return cfg
}

func (cfg GateConfig) thresholds() Thresholds {
	t := Thresholds{SLOs: []string{}, MinRepeats: cfg.MinRepeats, Confidence: Num(cfg.Confidence), Futility: Num(cfg.Futility),
		MaxRuns: cfg.MaxRuns, MaxBaselineRuns: cfg.MaxBaselineRuns, Looks: newSpending(cfg, 1).looks(),
		Spending: spendingName, NoRegression: cfg.NoRegression, Objectives: []ObjectiveThreshold{}}
	for _, o := range cfg.Objectives {
		t.Objectives = append(t.Objectives, ObjectiveThreshold{o.Name, o.Direction.String(), Num(o.Noise), Num(o.MinImprove)})
	}
	for _, s := range cfg.SLOs {
		t.SLOs = append(t.SLOs, s.String())
	}
	return t
}

// gate holds the state of one decision.
type gate struct {
	cfg  GateConfig
	cand Side
	refs []Side // refs[0] is the baseline
	// ws are the baseline's workloads, sorted; cm and rm[r] the matching
	// measurements of the candidate and of each reference (nil if absent).
	ws  []repeat.Workload
	cm  []*Measured
	rm  [][]*Measured
	iv  [][][]Interval
	nr  int // index of the nearest reference
	seq spending
	v   Verdict
}

func (g *gate) trialIDs() TrialIDs {
	ids := func(sides ...Side) []string {
		out := []string{}
		for _, s := range sides {
			for _, m := range s.Workloads {
				out = append(out, m.IDs...)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return TrialIDs{Candidate: ids(g.cand), Baseline: ids(g.refs[0]), Archive: ids(g.refs[1:]...)}
}

func (g *gate) workloads() {
	for _, m := range g.refs[0].Workloads {
		g.ws = append(g.ws, m.Workload)
	}
	slices.SortFunc(g.ws, func(a, b repeat.Workload) int { return cmp.Compare(a.String(), b.String()) })
	g.ws = slices.Compact(g.ws)
	g.rm = make([][]*Measured, len(g.refs))
	for _, w := range g.ws {
		g.cm = append(g.cm, g.cand.find(w))
		for r := range g.refs {
			g.rm[r] = append(g.rm[r], g.refs[r].find(w))
		}
	}
}

// coverage reports workloads of the baseline the candidate was not
// measured on; it returns true when there is any.
func (g *gate) coverage() bool {
	for w, m := range g.cm {
		if m == nil {
			g.reason(CodeRejectedCoverage, "does not cover workload %s, on which the baseline was measured", g.ws[w])
		}
	}
	if len(g.ws) == 0 {
		g.reason(CodeRejectedCoverage, "the baseline has no measurements")
	}
	return len(g.v.Reasons) > 0
}

// repeats reports sides with fewer runs than required.
func (g *gate) repeats() bool {
	min := g.cfg.MinRepeats
	for w, m := range g.cm {
		if n := runs(m); n < min {
			g.v.MoreRuns.Candidate = max(g.v.MoreRuns.Candidate, min-n)
			g.reason(CodeMoreRuns, "candidate has %d of the %d runs required on %s", n, min, g.ws[w])
		}
		if n := runs(g.rm[0][w]); n < min {
			g.v.MoreRuns.Baseline = max(g.v.MoreRuns.Baseline, min-n)
			g.reason(CodeMoreRuns, "baseline has %d of the %d runs required on %s", n, min, g.ws[w])
		}
	}
	return len(g.v.Reasons) > 0
}

// runs returns the number of repeats of m with every value measured.
func runs(m *Measured) int {
	if m == nil || len(m.Stats) == 0 {
		return 0
	}
	n := math.MaxInt
	for _, s := range m.Stats {
		n = min(n, s.N)
	}
	return n
}

// intervals computes the oriented log difference of the candidate against
// every reference on every shared workload and objective.
func (g *gate) intervals() {
	g.iv = make([][][]Interval, len(g.refs))
	for r := range g.refs {
		g.iv[r] = make([][]Interval, len(g.ws))
		for w := range g.ws {
			if g.rm[r][w] == nil {
				continue
			}
			g.iv[r][w] = make([]Interval, len(g.cfg.Objectives))
			for i, o := range g.cfg.Objectives {
				g.iv[r][w][i] = oriented(g.cm[w].Stats[i], g.rm[r][w].Stats[i], o)
			}
		}
	}
}

// shared returns the workloads reference r was measured on.
func (g *gate) shared(r int) []int {
	var out []int
	for w := range g.ws {
		if g.rm[r][w] != nil && runs(g.rm[r][w]) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// nearest picks the reference with the smallest root-mean-square log
// difference to the candidate (the baseline on ties).
func (g *gate) nearest() {
	best := math.Inf(1)
	for r := range g.refs {
		ws := g.shared(r)
		if len(ws) == 0 {
			continue
		}
		s, n := 0.0, 0
		for _, w := range ws {
			for _, iv := range g.iv[r][w] {
				s += iv.Est * iv.Est
				n++
			}
		}
		if d := math.Sqrt(s / float64(max(n, 1))); d < best {
			best, g.nr = d, r
		}
	}
	g.v.Nearest = g.refs[g.nr].Name
}

// reason adds a reason with its code.
func (g *gate) reason(code, format string, args ...any) {
	g.v.Reasons = append(g.v.Reasons, fmt.Sprintf(format, args...))
	g.v.ReasonCodes = append(g.v.ReasonCodes, code)
}
