package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
)

// sideBoot is a side's bootstrap, drawn once for every pair: the
// replicates of its hypervolume and, for two objectives, of its Y at every
// X a pair reads it at and of the best X it reaches.
type sideBoot struct {
	est   float64   // hypervolume of the point estimates
	hv    []float64 // per resample
	n     int       // X values read per resample
	ys    []float64 // [r*n+i]
	reach []float64 // per resample
}

// at returns the replicates of the Y read at X i.
func (b *sideBoot) at(i int) []float64 {
	out := make([]float64, 0, len(b.hv))
	for r := i; r < len(b.ys); r += b.n {
		out = append(out, b.ys[r])
	}
	return out
}

// bootSide draws side s's resamples once and measures each: hypervolume,
// and for two objectives the curve read at evals and the reach.
func (e *engine) bootSide(s int, evals []float64) *sideBoot {
	R := e.opt.Resamples
	bt := &sideBoot{hv: make([]float64, R), n: len(evals), ys: make([]float64, R*len(evals)), reach: make([]float64, R)}
	oref := e.orient(e.ref)
	measure := func(sm *sampler, data []float64, r int) float64 {
		if e.k != 2 {
			return e.hypervolume(data, sm.oriented(), oref)
		}
		c := e.curveOf(sm, data)
		if r >= 0 {
			for i, x := range evals {
				bt.ys[r*len(evals)+i] = e.read(&c, x)
			}
			bt.reach[r] = c.Best()
		}
		return e.curveHV(&c, oref)
	}
	sm := e.sampler(s)
	bt.est = measure(sm, sm.estimate(), -1)
	e.parallel(func(r0, r1 int) {
		sm := e.sampler(s)
		for r := r0; r < r1; r++ {
			bt.hv[r] = measure(sm, sm.draw(e.rng(s, r)), r)
		}
	})
	return bt
}

// hypervolume returns the hypervolume of a row-major resample, written
// oriented into scratch.
func (e *engine) hypervolume(data, scratch, oref []float64) float64 {
	e.orientInto(scratch, data)
	return frontier.Hypervolume(scratch, e.k, oref)
}

// orientInto writes data with maximised objectives negated into dst.
func (e *engine) orientInto(dst, data []float64) {
	for i, v := range data {
		if e.opt.Objectives[i%e.k].Direction == frontier.Maximize {
			v = -v
		}
		dst[i] = v
	}
}

// curveOf returns the curve of a row-major 2-objective point set: its
// strict frontier (frontier.StrictFront, which thins dominated points in
// one pass) as a staircase.
func (e *engine) curveOf(sm *sampler, data []float64) Curve {
	o := sm.oriented()
	e.orientInto(o, data)
	sm.xs, sm.ys = sm.xs[:0], sm.ys[:0]
	for i, by := range frontier.StrictFront(o, 2) {
		if by < 0 {
			sm.xs, sm.ys = append(sm.xs, data[2*i]), append(sm.ys, data[2*i+1])
		}
	}
	return NewCurve(sm.xs, sm.ys, e.opt.Objectives[0], e.opt.Objectives[1])
}

// curveHV is the hypervolume of a curve against the oriented reference
// oref (as frontier.Hypervolume of its points): the staircase's area.
func (e *engine) curveHV(c *Curve, oref []float64) float64 {
	n := c.Len()
	pts := make([][2]float64, 0, n)
	for i := range n {
		p := e.orient([]float64{c.X[i], c.Y[i]})
		if p[0] < oref[0] && p[1] < oref[1] {
			pts = append(pts, [2]float64{p[0], p[1]})
		}
	}
	// Oriented, the staircase ascends in the first coordinate and descends
	// in the second.
	slices.SortFunc(pts, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	hv := 0.0
	for i, p := range pts {
		next := oref[0]
		if i+1 < len(pts) {
			next = pts[i+1][0]
		}
		hv += (next - p[0]) * (oref[1] - p[1])
	}
	if math.IsNaN(hv) {
		return math.Inf(1)
	}
	return hv
}
