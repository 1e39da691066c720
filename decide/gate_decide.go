package decide

import (
	"fmt"
	"math"

	"github.com/pareto-llm/pareto/frontier"
)

// results fills the per-workload comparison of the verdict.
func (g *gate) results() {
	for w, wl := range g.ws {
		res := WorkloadResult{Workload: wl.String(), CandidateRuns: runs(g.cm[w]), BaselineRuns: runs(g.rm[0][w]),
			Objectives: []ObjectiveResult{}}
		for i, o := range g.cfg.Objectives {
			c, b := g.cm[w].Stats[i].Value, g.rm[0][w].Stats[i].Value
			lo, hi := g.ratioBounds(0, w, i)
			r := ObjectiveResult{Name: o.Name, Candidate: Num(c), Baseline: Num(b), Delta: Num(Delta(c, b)),
				Low: Num(lo), High: Num(hi), Nearest: Num(math.NaN()), DeltaNearest: Num(math.NaN())}
			if m := g.rm[g.nr][w]; m != nil {
				r.Nearest, r.DeltaNearest = Num(m.Stats[i].Value), Num(Delta(c, m.Stats[i].Value))
			}
			res.Objectives = append(res.Objectives, r)
		}
		g.v.Workloads = append(g.v.Workloads, res)
	}
}

// ratioBounds returns the interval of the ratio of geometric means minus
// one (candidate over reference r) at the admission confidence.
func (g *gate) ratioBounds(r, w, i int) (lo, hi float64) {
	lo, hi = g.iv[r][w][i].Bounds(g.cfg.Confidence)
	if g.cfg.Objectives[i].Direction == frontier.Minimize {
		lo, hi = -hi, -lo
	}
	return math.Expm1(lo), math.Expm1(hi)
}

// clause is one condition of admission with what to say when it fails or
// cannot be told yet.
type clause struct {
	p            prop
	fail, unsure func() string
}

// decide evaluates the SLOs and the statistical conditions.
func (g *gate) decide() {
	sloFail := g.slos()
	ctx := &evalCtx{iv: g.iv, admit: g.cfg.Confidence, reject: g.cfg.Futility, sides: 1 + len(g.refs)}
	clauses := g.clauses()
	all := make([]prop, len(clauses))
	var unsure []string
	for k, c := range clauses {
		all[k] = c.p
		switch c.p.eval(ctx, true).v {
		case triFalse:
			g.reason("%s", c.fail())
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
	default:
		g.v.Decision = Inconclusive
		g.v.Reasons = append(g.v.Reasons, unsure...)
		g.moreRuns(o.need)
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
			g.reason("violates slo %s on %s: %s is %s (%+.1f%% from the bound)", slo, g.ws[w],
				slo.Name, fmtFloat(v), 100*Delta(v, slo.Bound))
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
		p: betterThan(0, base, objs),
		fail: func() string {
			return "not better than the baseline by the minimum improvement on any objective (indistinguishable from it): " + g.closest(0)
		},
		unsure: func() string {
			return "cannot tell yet whether it is better than the baseline by the minimum improvement: " + g.closest(0)
		},
	}}
	for r := range g.refs {
		ws, name := g.shared(r), g.refName(r)
		if len(ws) == 0 {
			continue
		}
		out = append(out, clause{
			p:      notProp{beatenBy(r, ws, objs)},
			fail:   func() string { return "beaten by " + name + ": " + g.losses(r) },
			unsure: func() string { return "cannot tell yet whether " + name + " beats it" },
		})
		if r == 0 {
			continue
		}
		out = append(out, clause{
			p: notProp{equivalent(r, ws, objs)},
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

// closest describes the objective on which the candidate comes closest to
// a meaningful win over reference r.
func (g *gate) closest(r int) string {
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
	return fmt.Sprintf("best is %s, needs %s%.1f%%", g.describe(r, bw, bi), map[bool]string{true: "+", false: "-"}[o.Direction == frontier.Maximize], 100*o.MinImprove)
}

// describe renders "tps on concurrency=8: +2.1% (95% CI -0.5% to +4.7%)".
func (g *gate) describe(r, w, i int) string {
	lo, hi := g.ratioBounds(r, w, i)
	c, b := g.cm[w].Stats[i].Value, g.rm[r][w].Stats[i].Value
	return fmt.Sprintf("%s on %s %+.1f%% (%g%% CI %+.1f%% to %+.1f%%)", g.cfg.Objectives[i].Name, g.ws[w],
		100*Delta(c, b), 100*g.cfg.Confidence, 100*lo, 100*hi)
}

// losses lists where reference r is better than the candidate by more than
// the minimum improvement (by point estimate).
func (g *gate) losses(r int) string {
	var parts []string
	for _, w := range g.shared(r) {
		for i, o := range g.cfg.Objectives {
			if _, loss, _, _ := thresholds(o); g.iv[r][w][i].Est < loss {
				parts = append(parts, g.describe(r, w, i))
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
			if lo, _ := g.iv[0][w][i].Bounds(g.cfg.Confidence); lo > win {
				g.reason("better than the baseline: %s", g.describe(0, w, i))
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
