package decide

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// results fills the per-workload comparison of the verdict and the
// regressions.
func (g *gate) results() {
	for w, wl := range g.ws {
		res := WorkloadResult{Workload: wl.String(), CandidateRuns: runs(g.cm[w]), BaselineRuns: runs(g.rm[0][w]),
			Objectives: []ObjectiveResult{}}
		for i, o := range g.cfg.Objectives {
			cs, bs := g.cm[w].Stats[i], g.rm[0][w].Stats[i]
			st, level := g.status(w, i)
			lo, hi := g.ratioBoundsAt(0, w, i, level)
			r := ObjectiveResult{Name: o.Name, Candidate: Num(geoMean(cs.Samples)), Baseline: Num(geoMean(bs.Samples)),
				Delta: Num(g.ratio(0, w, i)), Low: Num(lo), High: Num(hi), Level: Num(level), Status: st,
				CandidateMedian: Num(cs.Median), BaselineMedian: Num(bs.Median),
				Nearest: Num(math.NaN()), DeltaNearest: Num(math.NaN())}
			if m := g.rm[g.nr][w]; m != nil {
				r.Nearest, r.DeltaNearest = Num(geoMean(m.Stats[i].Samples)), Num(g.ratio(g.nr, w, i))
			}
			res.Objectives = append(res.Objectives, r)
			_, _, band, _ := thresholds(o)
			if st == StatusWorse || st == StatusUncertain && g.iv[0][w][i].Est < band {
				g.v.Regressions = append(g.v.Regressions, Regression{Workload: res.Workload, Objective: o.Name,
					Status: st, Delta: r.Delta, Low: r.Low, High: r.High, Level: r.Level})
			}
		}
		g.v.Workloads = append(g.v.Workloads, res)
	}
}

// status compares the candidate with the baseline on workload w and
// objective i, and returns the level of the interval the rule used:
// better (the whole interval at the admission level of this look, see
// spending, beyond the
// minimum improvement), worse (the whole interval at the futility level
// beyond the noise band the wrong way), within noise (the whole interval
// at the futility level between the two), else uncertain (reported at the
// admission confidence).
func (g *gate) status(w, i int) (Status, float64) {
	win, _, band, _ := thresholds(g.cfg.Objectives[i])
	iv := g.iv[0][w][i]
	admit := g.admitLevel(w, i)
	if lo, _ := iv.Bounds(admit); lo > win {
		return StatusBetter, admit
	}
	lo, hi := iv.Bounds(g.cfg.Futility)
	switch {
	case hi < band:
		return StatusWorse, g.cfg.Futility
	case lo >= band && hi <= win:
		return StatusWithinNoise, g.cfg.Futility
	}
	return StatusUncertain, admit
}

// ratio returns the ratio of the geometric means of the candidate and of
// reference r minus one, the estimate the intervals are built around.
func (g *gate) ratio(r, w, i int) float64 {
	est := g.iv[r][w][i].Est
	if g.cfg.Objectives[i].Direction == frontier.Minimize {
		est = -est
	}
	return math.Expm1(est)
}

// ratioBoundsAt returns the interval of the ratio of geometric means minus
// one (candidate over reference r) at level conf.
func (g *gate) ratioBoundsAt(r, w, i int, conf float64) (lo, hi float64) {
	lo, hi = g.iv[r][w][i].Bounds(conf)
	if g.cfg.Objectives[i].Direction == frontier.Minimize {
		lo, hi = -hi, -lo
	}
	return math.Expm1(lo), math.Expm1(hi)
}

// geoMean returns the geometric mean of positive values.
func geoMean(v []float64) float64 {
	m, _ := logMoments(v)
	return math.Exp(m)
}

// clause is one condition of admission with what to say when it fails
// (with the code) or cannot be told yet.
type clause struct {
	p            prop
	code         string
	fail, unsure func() string
}

// decide evaluates the SLOs and the statistical conditions.
func (g *gate) decide() {
	sloFail := g.slos()
	caps := make([]int, len(g.refs))
	for r := range caps {
		caps[r] = g.cfg.MaxRuns
	}
	caps[0] = g.cfg.MaxBaselineRuns
	ctx := &evalCtx{iv: g.iv, admit: g.cfg.Confidence, reject: g.cfg.Futility, sides: 1 + len(g.refs),
		seq: g.seq, capCand: g.cfg.MaxRuns, capRef: caps}
	clauses := g.clauses()
	all := make([]prop, len(clauses))
	var unsure []string
	for k, c := range clauses {
		all[k] = c.p
		switch c.p.eval(ctx, true).v {
		case triFalse:
			g.reason(c.code, "%s", c.fail())
		case triUnknown:
			unsure = append(unsure, c.unsure())
		}
	}
	o := and(all...).eval(ctx, true)
	switch {
	case sloFail || o.v == triFalse:
		g.v.Decision = Reject
	case o.v == triTrue:
		g.v.Decision = Admit
		g.wins()
		g.regressions()
	default:
		g.v.Decision = Inconclusive
		for _, u := range unsure {
			g.reason(CodeMoreRuns, "%s", u)
		}
		g.moreRuns(o.need)
	}
}

// regressions lists the regressions of an admitted candidate among its
// reasons; with NoRegression, a known one rejects it and a likely one
// holds it, asking for the runs that would tell.
func (g *gate) regressions() {
	held := false
	for _, rg := range g.v.Regressions {
		w := slices.IndexFunc(g.ws, func(x repeat.Workload) bool { return x.String() == rg.Workload })
		i := slices.IndexFunc(g.cfg.Objectives, func(o frontier.Objective) bool { return o.Name == rg.Objective })
		what := "worse than the baseline beyond the noise band"
		if rg.Status == StatusUncertain {
			what = "possibly worse than the baseline beyond the noise band"
		}
		g.reason(CodeRegression, "%s: %s (%s%% CI %+.1f%% to %+.1f%%)", what, g.describePoint(0, w, i),
			pct(float64(rg.Level)), 100*float64(rg.Low), 100*float64(rg.High))
		if !g.cfg.NoRegression {
			continue
		}
		if rg.Status == StatusWorse {
			g.v.Decision = Reject
			continue
		}
		held = true
		_, _, band, _ := thresholds(g.cfg.Objectives[i])
		iv := g.iv[0][w][i]
		c, b := iv.moreRuns(fixed(g.cfg.Futility), math.Abs(iv.Est-band), g.cfg.MaxRuns, g.cfg.MaxBaselineRuns)
		g.v.MoreRuns.Candidate, g.v.MoreRuns.Baseline = max(g.v.MoreRuns.Candidate, c), max(g.v.MoreRuns.Baseline, b)
	}
	switch {
	case g.v.Decision == Reject:
		g.v.Reasons = append([]string{"no_regression: an objective regresses beyond its noise band"}, g.v.Reasons...)
		g.v.ReasonCodes = append([]string{CodeRejectedRegression}, g.v.ReasonCodes...)
		g.v.MoreRuns = MoreRuns{}
	case held:
		g.v.Decision = Inconclusive
		g.reason(CodeMoreRuns, "no_regression: cannot tell yet whether an objective regresses beyond its noise band")
	}
}

// slos records every SLO the candidate's aggregates violate.
func (g *gate) slos() bool {
	fail := false
	k := len(g.cfg.Objectives)
	for w := range g.ws {
		for s, slo := range g.cfg.SLOs {
			v := g.cm[w].Stats[k+s].Value
			if slo.Holds(v) {
				continue
			}
			fail = true
			g.reason(CodeRejectedSLO, "violates slo %s on %s: %s is %s (%+.1f%% from the bound)", slo, g.ws[w],
				slo.Name, fmtFloat(v), 100*repeat.Delta(v, slo.Bound))
		}
	}
	return fail
}

// clauses lists the conditions of admission: better than the baseline,
// beaten by no reference, equivalent to no member.
func (g *gate) clauses() []clause {
	objs := g.cfg.Objectives
	base := g.shared(0)
	out := []clause{{
		p:    betterThan(0, base, objs),
		code: CodeRejectedNotBetter,
		fail: func() string {
			return "not better than the baseline by the minimum improvement on any objective (indistinguishable from it): " + g.closest(0, g.futility)
		},
		unsure: func() string {
			return "cannot tell yet whether it is better than the baseline by the minimum improvement: " + g.closest(0, g.admitLevel)
		},
	}}
	for r := range g.refs {
		ws, name := g.shared(r), g.refName(r)
		if len(ws) == 0 {
			continue
		}
		out = append(out, clause{
			p:      notProp{beatenBy(r, ws, objs)},
			code:   CodeRejectedWorse,
			fail:   func() string { return "beaten by " + name + ": " + g.losses(r) },
			unsure: func() string { return "cannot tell yet whether " + name + " beats it" },
		})
		if r == 0 {
			continue
		}
		out = append(out, clause{
			p:    notProp{equivalent(r, ws, objs)},
			code: CodeRejectedEquivalent,
			fail: func() string {
				return "indistinguishable from " + name + ": within its noise band on every objective, no meaningful win either way"
			},
			unsure: func() string { return "cannot tell yet whether it is equivalent to " + name },
		})
	}
	return out
}

func (g *gate) refName(r int) string {
	if r == 0 {
		return "the baseline " + g.refs[0].Name
	}
	return "archive member " + g.refs[r].Name
}

// futility returns the futility level (for any workload and objective).
func (g *gate) futility(int, int) float64 { return g.cfg.Futility }

// closest describes the objective on which the candidate comes closest to
// a meaningful win over reference r, with its interval at the level the
// rule reported uses there.
func (g *gate) closest(r int, level func(w, i int) float64) string {
	bw, bi, best := -1, -1, math.Inf(-1)
	for _, w := range g.shared(r) {
		for i, o := range g.cfg.Objectives {
			win, _, _, _ := thresholds(o)
			if d := g.iv[r][w][i].Est - win; d > best {
				bw, bi, best = w, i, d
			}
		}
	}
	if bw < 0 {
		return "no comparable measurements"
	}
	o := g.cfg.Objectives[bi]
	return fmt.Sprintf("best is %s, needs %s%.1f%%", g.describe(r, bw, bi, level(bw, bi)), map[bool]string{true: "+", false: "-"}[o.Direction == frontier.Maximize], 100*o.MinImprove)
}

// describe renders "tps on concurrency=8 +2.1% (95% CI -0.5% to +4.7%)":
// the ratio of geometric means against reference r and its interval at
// level, that of the rule the sentence reports (the admission confidence
// for a win or an open question, the futility level for a fact against
// admission).
func (g *gate) describe(r, w, i int, level float64) string {
	lo, hi := g.ratioBoundsAt(r, w, i, level)
	return fmt.Sprintf("%s (%s%% CI %+.1f%% to %+.1f%%)", g.describePoint(r, w, i), pct(level), 100*lo, 100*hi)
}

// describePoint renders "tps on concurrency=8 +2.1%".
func (g *gate) describePoint(r, w, i int) string {
	return fmt.Sprintf("%s on %s %+.1f%%", g.cfg.Objectives[i].Name, g.ws[w], 100*g.ratio(r, w, i))
}

// losses lists where reference r is better than the candidate by more than
// the minimum improvement (by point estimate).
func (g *gate) losses(r int) string {
	var parts []string
	for _, w := range g.shared(r) {
		for i, o := range g.cfg.Objectives {
			if _, loss, _, _ := thresholds(o); g.iv[r][w][i].Est < loss {
				parts = append(parts, g.describe(r, w, i, g.cfg.Futility))
			}
		}
	}
	if len(parts) == 0 {
		return "no objective worse beyond the minimum improvement"
	}
	return joinSemi(parts)
}

// wins records the meaningful wins over the baseline of an admitted
// candidate.
func (g *gate) wins() {
	for _, w := range g.shared(0) {
		for i, o := range g.cfg.Objectives {
			win, _, _, _ := thresholds(o)
			if lo, _ := g.iv[0][w][i].Bounds(g.admitLevel(w, i)); lo > win {
				g.reason(CodeBetter, "better than the baseline: %s", g.describe(0, w, i, g.admitLevel(w, i)))
			}
		}
	}
}

// moreRuns turns the runs needed per side into the verdict's advice.
func (g *gate) moreRuns(need []int) {
	if len(need) == 0 {
		return
	}
	g.v.MoreRuns.Candidate, g.v.MoreRuns.Baseline = need[0], need[1]
	for r := 1; r < len(g.refs); r++ {
		if need[1+r] > 0 {
			if g.v.MoreRuns.Members == nil {
				g.v.MoreRuns.Members = map[string]int{}
			}
			g.v.MoreRuns.Members[g.refs[r].Name] = need[1+r]
		}
	}
}

func joinSemi(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "; "
		}
		s += p
	}
	return s
}

func fmtFloat(v float64) string { return fmt.Sprintf("%.6g", v) }

// pct renders a level as a percentage with two significant digits of its
// complement (95 for 0.95, 99.9964 for 0.999964, 99.99998 for 0.9999998),
// so that a level close to 1 never reads as 100.
func pct(level float64) string {
	p := 100 * level
	if !(p < 100) || p <= 0 {
		return strconv.FormatFloat(p, 'g', 6, 64)
	}
	dec := max(int(math.Ceil(-math.Log10(100-p)))+2, 0)
	s := strconv.FormatFloat(p, 'f', dec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
