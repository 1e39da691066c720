package report

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/pareto-llm/pareto/frontier"
)

// DensityBound is the number of dominated points a plot draws one by one
// (Options.DensityBound overrides it): beyond it, the dominated points
// farthest from their frontier are drawn as a density layer, a grid of
// counts the page paints under the points, so that a page of 10⁶ points
// stays small and fast. The frontier, the infeasible points, the
// baselines and the dominated points nearest the frontier are always
// exact points.
const DensityBound = 20_000

// Density bins are densityNX × densityNY cells over the plot's range.
const (
	densityNX = 240
	densityNY = 160
)

// Density is the density layer of a series: how many of its dominated
// points, not drawn one by one, fall in each cell of a grid over the
// plot. The cell edges are equally spaced in the axis' value, or in its
// log10 when the axis is drawn on a log scale (LogX, LogY), between X0
// and X1 and Y0 and Y1.
type Density struct {
	// N is the number of points the layer stands for.
	N    int     `json:"n"`
	NX   int     `json:"nx"`
	NY   int     `json:"ny"`
	X0   float64 `json:"x0"`
	X1   float64 `json:"x1"`
	Y0   float64 `json:"y0"`
	Y1   float64 `json:"y1"`
	LogX bool    `json:"logx,omitempty"`
	LogY bool    `json:"logy,omitempty"`
	// C lists the cells that hold points as triples (column, row, count),
	// row 0 at Y0.
	C []int32 `json:"c"`
}

// thin replaces, in every plot with more than bound dominated points, the
// dominated points farthest from their series' frontier by a density
// layer, keeping bound of them (shared between the series in proportion
// to their dominated points).
func (b *builder) thin(pp *PagePlot, p *Plot, bound int) {
	total := 0
	for _, s := range pp.Series {
		total += countStatus(&s, StatusDominated)
	}
	if bound <= 0 || total <= bound {
		return
	}
	for si := range pp.Series {
		s := &pp.Series[si]
		dom := countStatus(s, StatusDominated)
		if dom == 0 {
			continue
		}
		keep := int(math.Ceil(float64(bound) * float64(dom) / float64(total)))
		if keep >= dom {
			continue
		}
		drop := farthest(s, p, dom-keep)
		d := newDensity(pp, p)
		for r := range drop {
			d.add(s.X[r], s.Y[r])
		}
		*s = compact(*s, drop)
		s.D = d.result()
	}
}

func countStatus(s *Series, status int8) int {
	n := 0
	for _, v := range s.S {
		if v == status {
			n++
		}
	}
	return n
}

// farthest returns the n dominated points of s that are farthest from its
// frontier, by the additive ε indicator in the plot's normalised
// coordinates (each axis oriented to be minimised, on its log scale when
// drawn so, divided by its range): how far a point must move on both axes
// to reach the frontier. Baselines are never among them.
func farthest(s *Series, p *Plot, n int) map[int32]bool {
	tx, ty := axisScale(s.X, &p.X), axisScale(s.Y, &p.Y)
	type pt struct{ u, w float64 }
	var front []pt
	for j, st := range s.S {
		if st == StatusFrontier {
			if u, w := tx(s.X[j]), ty(s.Y[j]); !math.IsNaN(u) && !math.IsNaN(w) {
				front = append(front, pt{u, w})
			}
		}
	}
	slices.SortFunc(front, func(a, c pt) int { return cmp.Or(cmp.Compare(a.u, c.u), cmp.Compare(c.w, a.w)) })
	eps := func(u, w float64) float64 {
		if len(front) == 0 || math.IsNaN(u) || math.IsNaN(w) {
			return math.Inf(1)
		}
		// Along the frontier (u ascending) u-f.u falls and w-f.w rises:
		// the maximum of the two is least where they cross.
		k := sort.Search(len(front), func(k int) bool { return u-front[k].u <= w-front[k].w })
		best := math.Inf(1)
		for _, j := range []int{k - 1, k} {
			if j >= 0 && j < len(front) {
				best = min(best, max(u-front[j].u, w-front[j].w))
			}
		}
		return best
	}
	base := map[int32]bool{}
	if s.Base != nil {
		for _, bv := range s.Base.Bases {
			if bv.Row >= 0 {
				base[bv.Row] = true
			}
		}
	}
	type cand struct {
		row int32
		eps float64
	}
	var cands []cand
	for j, st := range s.S {
		if st == StatusDominated && !base[int32(j)] {
			cands = append(cands, cand{int32(j), eps(tx(s.X[j]), ty(s.Y[j]))})
		}
	}
	slices.SortStableFunc(cands, func(a, c cand) int { return cmp.Compare(c.eps, a.eps) })
	drop := make(map[int32]bool, n)
	for _, c := range cands[:min(n, len(cands))] {
		drop[c.row] = true
	}
	return drop
}

// axisScale maps an axis value to its normalised, minimised coordinate.
func axisScale(vs []float64, a *Axis) func(float64) float64 {
	t := func(v float64) float64 {
		if a.Log {
			if v <= 0 {
				return math.NaN()
			}
			return math.Log10(v)
		}
		return v
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if x := t(v); !math.IsNaN(x) && !math.IsInf(x, 0) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	span := hi - lo
	if !(span > 0) {
		span = 1
	}
	sign := 1.0
	if a.Direction == frontier.Maximize {
		sign = -1
	}
	return func(v float64) float64 { return sign * t(v) / span }
}

// densityGrid counts points into the cells of a Density.
type densityGrid struct {
	d      Density
	counts map[int32]int32
}

// newDensity returns an empty grid over the range of every point of the
// plot.
func newDensity(pp *PagePlot, p *Plot) *densityGrid {
	g := &densityGrid{d: Density{NX: densityNX, NY: densityNY, LogX: p.X.Log, LogY: p.Y.Log,
		X0: math.Inf(1), X1: math.Inf(-1), Y0: math.Inf(1), Y1: math.Inf(-1)}, counts: map[int32]int32{}}
	for _, s := range pp.Series {
		for j := range s.X {
			if x, ok := g.t(s.X[j], g.d.LogX); ok {
				g.d.X0, g.d.X1 = min(g.d.X0, x), max(g.d.X1, x)
			}
			if y, ok := g.t(s.Y[j], g.d.LogY); ok {
				g.d.Y0, g.d.Y1 = min(g.d.Y0, y), max(g.d.Y1, y)
			}
		}
	}
	for _, e := range []*[2]*float64{{&g.d.X0, &g.d.X1}, {&g.d.Y0, &g.d.Y1}} {
		lo, hi := e[0], e[1]
		if math.IsInf(*lo, 0) {
			*lo, *hi = 0, 1
		}
		if !(*hi > *lo) {
			*lo, *hi = *lo-0.5, *hi+0.5
		}
	}
	return g
}

// t maps a value to the grid's scale, false when it cannot be placed.
func (g *densityGrid) t(v float64, log bool) (float64, bool) {
	if log {
		if !(v > 0) {
			return 0, false
		}
		v = math.Log10(v)
	}
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}

// add counts the point (x, y); a point no cell can hold (NaN, or not
// positive on a log axis) is counted in N only.
func (g *densityGrid) add(x, y float64) {
	g.d.N++
	tx, okx := g.t(x, g.d.LogX)
	ty, oky := g.t(y, g.d.LogY)
	if !okx || !oky {
		return
	}
	cx := min(g.d.NX-1, max(0, int(float64(g.d.NX)*(tx-g.d.X0)/(g.d.X1-g.d.X0))))
	cy := min(g.d.NY-1, max(0, int(float64(g.d.NY)*(ty-g.d.Y0)/(g.d.Y1-g.d.Y0))))
	g.counts[int32(cy*g.d.NX+cx)]++
}

// result returns the layer with its cells in row-major order.
func (g *densityGrid) result() *Density {
	d := g.d
	cells := make([]int32, 0, len(g.counts))
	for c := range g.counts {
		cells = append(cells, c)
	}
	slices.Sort(cells)
	d.C = make([]int32, 0, 3*len(cells))
	for _, c := range cells {
		d.C = append(d.C, c%int32(d.NX), c/int32(d.NX), g.counts[c])
	}
	return &d
}
