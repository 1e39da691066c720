package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Lead statuses.
const (
	LeadEstablished = "established"
	LeadUnsettled   = "unsettled"
)

// maxLeadReasons is how many leading points of a side the reasons name.
const maxLeadReasons = 3

// verdict sets the pair's verdict, status, leads, reach and the reasons
// they give, from the noise-aware relation on the union of both sides
// (relation.go), and returns its warnings. Without a band on some
// objective it is inconclusive.
func (e *engine) verdict(p *Pair, a, b int) []string {
	p.Leads, p.Reach = Leads{A: []Lead{}, B: []Lead{}}, []Reach{}
	if !e.measured {
		p.Verdict, p.Status = Inconclusive, RegressionUnsettled
		for _, o := range e.info {
			if o.Band == BandUnmeasured {
				p.Reasons = append(p.Reasons, fmt.Sprintf("%s has no noise band and its repeats cannot measure one (%d degrees of freedom, want at least %d): the verdict cannot tell; give a band (%s, %s) or repeat configurations",
					o.Name, o.Measured.DF, MinNoiseDF, e.opt.Fields.Name("noise"), e.opt.Fields.Name("min_improve")))
			}
		}
		return nil
	}
	// A given band below the noise of this pair's repeats.
	_, info, _ := measureBands([]*Side{e.sides[a], e.sides[b]}, e.opt.Objectives, e.opt.Confidence)
	for i := range info {
		info[i].Band = e.info[i].Band
	}
	warn, wide := belowNoise(info, e.opt.Objectives)
	for i := range warn {
		warn[i] = p.B + " against " + p.A + ": " + warn[i]
	}
	ca, cb := e.relation(a, b, wide)
	p.Verdict, p.Status = relationVerdict(&ca, &cb)
	p.Leads.A, p.Leads.B = e.leads(a, &ca), e.leads(b, &cb)
	p.Reasons = append(p.Reasons, e.leadReasons(p.A, p.B, p.Leads.A)...)
	p.Reasons = append(p.Reasons, e.leadReasons(p.B, p.A, p.Leads.B)...)
	na, nb := len(ca.pts), len(cb.pts)
	ea, eb := e.pointSampler(a, ca.pts).estimate(), e.pointSampler(b, cb.pts).estimate()
	for o, ob := range e.opt.Objectives {
		r := Reach{Objective: ob.Name, A: Num(bestOn(ea, e.k, o, ob)), B: Num(bestOn(eb, e.k, o, ob)),
			ShareA: Num(ca.share[na+o]), ShareB: Num(cb.share[nb+o])}
		r.Change = Num(ratio(float64(r.B), float64(r.A)))
		sa, sb := ca.claim(na+o), cb.claim(nb+o)
		switch {
		case sb == established:
			r.Status = Better
		case sa == established:
			r.Status = Worse
		case sa == ruledOut && sb == ruledOut:
			r.Status = Same
		default:
			r.Status = Uncertain
		}
		p.Reach = append(p.Reach, r)
		if r.Status != Same {
			p.Reasons = append(p.Reasons, fmt.Sprintf("the best %s %s reaches is %s against %s for %s (%s): %s", ob.Name, p.B,
				sig(r.B), sig(r.A), p.A, fmtPct(r.Change), reachWord(r.Status, p)))
		}
	}
	return warn
}

// reachWord says who reaches further.
func reachWord(st string, p *Pair) string {
	switch st {
	case Better:
		return p.B + " reaches further beyond the noise band"
	case Worse:
		return p.A + " reaches further beyond the noise band"
	}
	return "uncertain"
}

// leads returns the points of side s whose claim is not ruled out, most
// often leading first.
func (e *engine) leads(s int, c *sideClaims) []Lead {
	out := []Lead{}
	for j, i := range c.pts {
		pt := &e.sides[s].Points[i]
		st := c.claim(j)
		if st == ruledOut {
			continue
		}
		l := Lead{ID: pt.ID, Values: nums(pt.Values), Estimate: c.est[j], Share: Num(c.share[j]), Status: LeadUnsettled}
		if st == established {
			l.Status = LeadEstablished
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(x, y Lead) int {
		if x.Status != y.Status {
			return strings.Compare(x.Status, y.Status) // established first
		}
		return cmp.Compare(y.Share, x.Share)
	})
	return out
}

// leadReasons names the leading points of side name against other.
func (e *engine) leadReasons(name, other string, ls []Lead) []string {
	var out []string
	for i, l := range ls {
		if i == maxLeadReasons {
			out = append(out, fmt.Sprintf("and %d more points of %s that may lead", len(ls)-i, name))
			break
		}
		vals := make([]string, len(l.Values))
		for o, v := range l.Values {
			vals[o] = e.opt.Objectives[o].Name + "=" + sig(v)
		}
		what := "leads"
		if l.Status == LeadUnsettled {
			what = "may lead"
		}
		out = append(out, fmt.Sprintf("%s's %s (%s) %s: on the noise-aware frontier of both sides, and no point of %s reaches it within the bands (%.0f%% of resamples)",
			name, l.ID, strings.Join(vals, ", "), what, other, 100*float64(l.Share)))
	}
	return out
}
