package compare

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
)

// setVerdict judges a pair on other than two objectives by set dominance
// under the noise bands (frontier.Beats): B dominates when some frontier
// point of A is beaten by a point of B and none of B's by a point of A,
// and so on. The point estimates' verdict stands when at least the
// confidence level of the resamples reach it too; otherwise the pair is
// inconclusive.
func (e *engine) setVerdict(p *Pair, a, b int) {
	sa, sb := e.sampler(a), e.sampler(b)
	v0, lostA, lostB := e.sets(sa.estimate(), sb.estimate())
	agree := make([]int, e.opt.Resamples)
	regress := make([]int, e.opt.Resamples)
	e.parallel(func(r0, r1 int) {
		sa, sb := e.sampler(a), e.sampler(b)
		for r := r0; r < r1; r++ {
			v, _, _ := e.sets(sa.draw(e.rng(a, r)), sb.draw(e.rng(b, r)))
			if v == v0 {
				agree[r] = 1
			}
			if v == ADominates || v == Crossing {
				regress[r] = 1
			}
		}
	})
	share := float64(sum(agree)) / float64(e.opt.Resamples)
	regShare := float64(sum(regress)) / float64(e.opt.Resamples)
	n := Num(share)
	p.Agreement = &n
	p.Verdict = v0
	if share < e.opt.Confidence {
		p.Verdict = Inconclusive
	}
	switch {
	case p.Verdict == ADominates || p.Verdict == Crossing:
		p.Status = Regression
	case regShare > 1-e.opt.Confidence:
		p.Status = RegressionUnsettled
	default:
		p.Status = NoRegression
	}
	p.Reasons = []string{
		fmt.Sprintf("%d of %s's frontier points are beaten by a point of %s beyond the bands, %d of %s's by a point of %s",
			lostA, p.A, p.B, lostB, p.B, p.A),
		fmt.Sprintf("%.1f%% of %d resamples reach the verdict %s", 100*share, e.opt.Resamples, v0),
	}
}

// sets returns the set dominance verdict of two row-major point sets and
// how many frontier points of each the other beats.
func (e *engine) sets(da, db []float64) (string, int, int) {
	fa, fb := e.front(da), e.front(db)
	lostA, lostB := beaten(fa, fb, e.opt.Objectives), beaten(fb, fa, e.opt.Objectives)
	switch {
	case lostA > 0 && lostB > 0:
		return Crossing, lostA, lostB
	case lostA > 0:
		return BDominates, lostA, lostB
	case lostB > 0:
		return ADominates, lostA, lostB
	}
	return Indistinguishable, lostA, lostB
}

// front returns the strict frontier rows of a row-major point set.
func (e *engine) front(data []float64) [][]float64 {
	var out [][]float64
	for i, by := range frontier.StrictFront(e.orient(data), e.k) {
		if by < 0 {
			out = append(out, data[i*e.k:i*e.k+e.k])
		}
	}
	return out
}

// beaten counts the points of xs that some point of by beats. by is
// sorted best first on the first objective, so that the scan for each x
// stops at the first point too far behind it there to beat it.
func beaten(xs, by [][]float64, objs []frontier.Objective) int {
	o := objs[0]
	maxim := o.Direction == frontier.Maximize
	by = slices.Clone(by)
	slices.SortFunc(by, func(a, b []float64) int {
		if maxim {
			return cmp.Compare(b[0], a[0])
		}
		return cmp.Compare(a[0], b[0])
	})
	n := 0
	for _, x := range xs {
		for _, y := range by {
			if maxim && y[0] < x[0]*(1-o.Noise) || !maxim && y[0] > x[0]*(1+o.Noise) {
				break // no later point is close enough on the first objective
			}
			if frontier.Beats(y, x, objs) {
				n++
				break
			}
		}
	}
	return n
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
