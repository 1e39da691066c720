package compare

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	"github.com/pareto-llm/pareto/frontier"
)

// The verdict of a pair is the noise-aware relation of frontier.Beats on
// the union of both sides' points, the one pareto front draws the
// noise-aware frontier with:
//
//   - a point of A leads when it is on the noise-aware frontier of A ∪ B
//     (frontier.NoiseFront, the Schwartz set of Beats) and no point of B
//     reaches it within the noise bands: every point of B is worse than it
//     beyond its noise band on some objective (covers);
//   - A reaches further on an objective when B's best value there is worse
//     than A's best beyond the noise band;
//   - and the same for B.
//
// These are A's and B's claims. B dominates A when A has no claim and B
// has one; A dominates when the reverse; crossing when both have one;
// indistinguishable when neither has. This is the point estimates'
// verdict: a difference inside the bands is never a claim. The resamples
// then judge each claim that holds for the point estimates: established
// when it holds in at least the confidence level of the resamples,
// unsettled otherwise. A side leads when one of its claims is
// established, does not when it has none, and is unsettled otherwise; a
// verdict needs both sides settled, else it is inconclusive. So a verdict
// other than inconclusive is always the point estimates' one, and a
// regression (A leads) is always one the resamples confirm.
//
// When a given noise band is narrower than the run-to-run noise the
// pair's repeats show (belowNoise), neither a point estimate inside the
// band nor one beyond it shows much: a claim that holds for the point
// estimates is then established only when it also holds, with the bands
// widened to the band the noise suggests, in at least the confidence
// level of the resamples; one that does not hold for them is ruled out
// only when it holds in at most 1 - confidence of the resamples (with the
// given bands), and is unsettled otherwise.

// covers reports whether q reaches p within p's noise band: q is no worse
// than p beyond the band on every objective (the first half of Beats).
func covers(q, p []float64, objs []frontier.Objective) bool {
	for i, o := range objs {
		if !noWorse(q[i], p[i], o) {
			return false
		}
	}
	return true
}

// noWorse reports whether q is no worse than p beyond p's noise band on
// objective o (as frontier.Beats compares).
func noWorse(q, p float64, o frontier.Objective) bool {
	if o.Direction == frontier.Maximize {
		return !(q < p*(1-o.Noise))
	}
	return !(q > p*(1+o.Noise))
}

// better reports whether a is strictly better than b on objective o.
func better(a, b float64, o frontier.Objective) bool {
	if o.Direction == frontier.Maximize {
		return a > b
	}
	return a < b
}

// coverIndex answers covers queries against one side's points: for two
// objectives the points in the minimising orientation sorted on the
// first objective with the running best of the second, else the side's
// strict frontier (a point that reaches p is weakly dominated by a
// frontier point that does too). Oriented values are negated exactly, so
// the comparisons are those of noWorse.
type coverIndex struct {
	objs []frontier.Objective
	k    int
	rows [][]float64
	xy   []xy // two objectives: sorted on x, y the running minimum
}

type xy struct{ x, y float64 }

// reset rebuilds the index over the row-major data (oriented: the same
// rows with maximised objectives negated).
func (c *coverIndex) reset(data, oriented []float64, objs []frontier.Objective) {
	k := len(objs)
	c.objs, c.k, c.rows, c.xy = objs, k, c.rows[:0], c.xy[:0]
	if k == 2 {
		for i := 0; i < len(oriented); i += 2 {
			c.xy = append(c.xy, xy{oriented[i], oriented[i+1]})
		}
		slices.SortFunc(c.xy, func(a, b xy) int { return cmp.Compare(a.x, b.x) }) // finite values
		for i := 1; i < len(c.xy); i++ {
			c.xy[i].y = min(c.xy[i].y, c.xy[i-1].y)
		}
		return
	}
	for i, by := range frontier.StrictFront(oriented, k) {
		if by < 0 {
			c.rows = append(c.rows, data[i*k:i*k+k])
		}
	}
}

// corner returns p's noise band edge on objective o in the minimising
// orientation: a point reaches p there when its oriented value is at most
// the corner.
func corner(p float64, o frontier.Objective) float64 {
	if o.Direction == frontier.Maximize {
		return -(p * (1 - o.Noise))
	}
	return p * (1 + o.Noise)
}

// covered reports whether some point of the index reaches p.
func (c *coverIndex) covered(p []float64) bool {
	if c.k == 2 {
		cx, cy := corner(p[0], c.objs[0]), corner(p[1], c.objs[1])
		// Rows reaching p on the first objective are a prefix.
		n := sort.Search(len(c.xy), func(i int) bool { return c.xy[i].x > cx })
		return n > 0 && c.xy[n-1].y <= cy
	}
	for _, q := range c.rows {
		if covers(q, p, c.objs) {
			return true
		}
	}
	return false
}

// claims holds, for one resample of a pair, which claims of each side
// hold: a[j] point j of A leads, a[nA+o] A reaches further on objective o;
// b likewise.
type claims struct {
	a, b []bool
	// scratch
	union, orientA, orientB []float64
	ia, ib                  coverIndex
}

// claimsOf fills c with the claims of A and B for the row-major point
// sets da and db under the bands of objs.
func (e *engine) claimsOf(da, db []float64, objs []frontier.Objective, c *claims) {
	k := e.k
	na, nb := len(da)/k, len(db)/k
	c.union = append(append(c.union[:0], da...), db...)
	by := frontier.NoiseFront(c.union, objs).By
	c.a, c.b = growB(c.a, na+k), growB(c.b, nb+k)
	c.orientA = e.leading(c.a[:na], by[:na], da, db, objs, &c.ia, c.orientA)
	c.orientB = e.leading(c.b[:nb], by[na:], db, da, objs, &c.ib, c.orientB)
	for o, ob := range objs {
		ba, bb := bestOn(da, k, o, ob), bestOn(db, k, o, ob)
		c.a[na+o] = !noWorse(bb, ba, ob)
		c.b[nb+o] = !noWorse(ba, bb, ob)
	}
}

// leading sets lead[j] for the points of d (their places on the union's
// noise-aware frontier in by): on it and reached by no point of other
// (indexed in ix only when some point of d is on it; scratch holds other
// oriented and is returned).
func (e *engine) leading(lead []bool, by []int32, d, other []float64, objs []frontier.Objective, ix *coverIndex, scratch []float64) []float64 {
	k := e.k
	built := false
	for j := range lead {
		lead[j] = false
		if by[j] >= 0 {
			continue
		}
		if !built {
			scratch = growF(scratch, len(other))
			e.orientInto(scratch, other)
			ix.reset(other, scratch, objs)
			built = true
		}
		lead[j] = !ix.covered(d[j*k : j*k+k])
	}
	return scratch
}

// bestOn returns the best value of objective o among the rows of data.
func bestOn(data []float64, k, o int, ob frontier.Objective) float64 {
	v := data[o]
	for i := o + k; i < len(data); i += k {
		if better(data[i], v, ob) {
			v = data[i]
		}
	}
	return v
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growB(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	return s[:n]
}

// Claim states of a side's claims over the resamples.
const (
	established = iota
	unsettled
	ruledOut
)

// sideClaims is one side's claims judged over the resamples.
type sideClaims struct {
	pts   []int     // the side's points the claims are of
	est   []bool    // at the point estimates
	share []float64 // share of resamples
	// wide is, when some given band is below the measured noise
	// (belowNoise), the share of resamples in which the claim holds with
	// the bands widened to the measured noise; else share.
	wide   []float64
	conf   float64
	strict bool
	state  int // of the side: established, unsettled or ruled out
}

// judgeClaims sets the side's state: established when a claim is,
// ruled out when every claim is, unsettled otherwise.
func (s *sideClaims) judgeClaims() {
	s.state = ruledOut
	for i := range s.est {
		switch s.claim(i) {
		case established:
			s.state = established
			return
		case unsettled:
			s.state = unsettled
		}
	}
}

// claim judges claim i: established when it holds for the point
// estimates and in at least the confidence level of the resamples,
// unsettled when it holds for the point estimates only, ruled out when it
// does not hold for them (a difference inside the bands). When a given
// band is below the measured noise (strict), a lead is established only
// beyond the measured noise too (wide), and ruled out only when at most
// 1 - confidence of the resamples hold it.
func (s *sideClaims) claim(i int) int {
	est, share := s.est[i], s.share[i]
	switch {
	case est && s.wide[i] >= s.conf:
		return established
	case est, s.strict && share > 1-s.conf:
		return unsettled
	}
	return ruledOut
}

// relation judges pair a, b by the noise-aware relation on the union of
// their points, at the point estimates and over the resamples (also with
// the bands wide, when not nil: belowNoise).
func (e *engine) relation(a, b int, wide []frontier.Objective) (ca, cb sideClaims) {
	ca.pts, cb.pts = e.relationPoints(a, wide), e.relationPoints(b, wide)
	sa, sb := e.pointSampler(a, ca.pts), e.pointSampler(b, cb.pts)
	var c claims
	e.claimsOf(sa.estimate(), sb.estimate(), e.opt.Objectives, &c)
	ca.est, cb.est = slices.Clone(c.a), slices.Clone(c.b)
	if wide != nil && !slices.Contains(ca.est, true) && !slices.Contains(cb.est, true) {
		// No lead to confirm: only the bands' resamples matter.
		wide = nil
		ca.strict, cb.strict = true, true
	}
	// Counts per claim: with the bands, then with the widened ones.
	na, nb := make([]int, 2*len(c.a)), make([]int, 2*len(c.b))
	var mu sync.Mutex
	e.parallel(func(r0, r1 int) {
		sa, sb := e.pointSampler(a, ca.pts), e.pointSampler(b, cb.pts)
		var c claims
		la, lb := make([]int, len(na)), make([]int, len(nb))
		for r := r0; r < r1; r++ {
			da, db := sa.draw(e.rng(a, r)), sb.draw(e.rng(b, r))
			e.claimsOf(da, db, e.opt.Objectives, &c)
			count(la[:len(la)/2], c.a)
			count(lb[:len(lb)/2], c.b)
			if wide != nil {
				e.claimsOf(da, db, wide, &c)
			}
			count(la[len(la)/2:], c.a)
			count(lb[len(lb)/2:], c.b)
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range na {
			na[i] += la[i]
		}
		for i := range nb {
			nb[i] += lb[i]
		}
	})
	for _, x := range []struct {
		c *sideClaims
		n []int
	}{{&ca, na}, {&cb, nb}} {
		shares := make([]float64, len(x.n))
		for i, v := range x.n {
			shares[i] = float64(v) / float64(e.opt.Resamples)
		}
		x.c.share, x.c.wide = shares[:len(shares)/2], shares[len(shares)/2:]
		x.c.conf, x.c.strict = e.opt.Confidence, x.c.strict || wide != nil
		x.c.judgeClaims()
	}
	return ca, cb
}

func count(n []int, b []bool) {
	for i, v := range b {
		if v {
			n[i]++
		}
	}
}

// relationPoints returns the points of side s the relation is computed
// on. With acyclic bands (frontier.CycleSum at most 1) these are the
// points that may lead (engine.mayLead): a point left out is strictly
// dominated in every resample by a kept point of its side, which beats
// whatever it beats and is beaten only by what beats it too, so leaving
// it out changes no other point's place on the noise-aware frontier, and
// whenever it would lead its dominator leads as well (it reaches no
// further, on no objective). With cycles every point counts (removing one
// may break a path of the Schwartz set).
//
// The points are in order of their first objective's estimate, best first,
// so that a resample comes nearly sorted to the cover index.
func (e *engine) relationPoints(s int, wide []frontier.Objective) []int {
	var pts []int
	if frontier.CycleSum(e.opt.Objectives) <= 1 && (wide == nil || frontier.CycleSum(wide) <= 1) {
		pts = slices.Clone(e.active[s])
	} else {
		pts = make([]int, len(e.sides[s].Points))
		for i := range pts {
			pts[i] = i
		}
	}
	ps, o := e.sides[s].Points, e.opt.Objectives[0]
	slices.SortStableFunc(pts, func(i, j int) int {
		switch {
		case better(ps[i].Values[0], ps[j].Values[0], o):
			return -1
		case better(ps[j].Values[0], ps[i].Values[0], o):
			return 1
		}
		return 0
	})
	return pts
}

// pointSampler returns a sampler of the points pts of side s.
func (e *engine) pointSampler(s int, pts []int) *sampler {
	return &sampler{side: e.sides[s], pts: pts, k: e.k, agg: e.opt.Aggregate, buf: make([]float64, len(pts)*e.k)}
}

// relationVerdict maps the sides' states to a verdict and a CI status: B
// regressed when A leads (established), possibly when A's lead is
// unsettled.
func relationVerdict(ca, cb *sideClaims) (string, string) {
	status := NoRegression
	switch ca.state {
	case established:
		status = Regression
	case unsettled:
		status = RegressionUnsettled
	}
	switch {
	case ca.state == ruledOut && cb.state == established:
		return BDominates, status
	case ca.state == established && cb.state == ruledOut:
		return ADominates, status
	case ca.state == established && cb.state == established:
		return Crossing, status
	case ca.state == ruledOut && cb.state == ruledOut:
		return Indistinguishable, status
	}
	return Inconclusive, status
}
