package report

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
)

// DensityBound is the number of dominated points a plot draws one by one
// (Options.DensityBound overrides it): beyond it, dominated points far
// from their frontier are drawn as a density layer, a grid of counts the
// page paints under the points, so that a page of 10⁶ points stays small
// and fast. The frontier, the infeasible and invalid points, the
// baselines and every point within the layer's margin of the strict
// frontier stay exact points: the page's simulator answers exactly within
// the noise bands the margin allows (see Density.Margin).
const DensityBound = 20_000

// Density bins are densityNX × densityNY cells over the plot's range.
const (
	densityNX = 240
	densityNY = 160
)

// The relative margin of a density layer: the widest one (10 %) whose
// kept points fit the bound, but never below 1 % nor below what the
// report's own noise bands need.
const (
	maxMargin = 0.10
	minMargin = 0.01
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
	// Margin is the relative margin m of the layer: every binned point is
	// worse than a feasible kept point of its series by more than a
	// factor 1+m on both axes (|ln ratio| > ln(1+m)), and so is the best
	// corner of its cell (IX, IY). Within noise bands σ and minimum
	// improvements δ whose log thresholds stay within ln(1+m), at the
	// report's bounds, no binned point can be on the frontier nor change
	// a kept point's status.
	Margin float64 `json:"margin"`
	// C lists the cells that hold points as triples (column, row, count),
	// row 0 at Y0.
	C []int32 `json:"c"`
	// IX and IY are, per cell of C, the best value of its points on each
	// axis (rounded towards better), for the page's exactness check.
	IX Floats `json:"ix"`
	IY Floats `json:"iy"`
	// IDs are the binned trials' IDs and Names their names (a generic
	// table's id column; none when no trial has one); Cell[k] is the cell
	// (index into the triples of C) binned trial k falls in, so that the
	// page finds them by either. A table recorded column by column
	// (Records.AddTable) gives no IDs: they are hashes of every cell of a
	// row, known only for the rows read again.
	IDs   []string `json:"ids,omitempty"`
	Names []string `json:"names,omitempty"`
	Cell  []int32  `json:"cell"`
}

// thin replaces, in every plot with more than bound dominated points, the
// dominated points farther than a margin from their series' strict
// frontier by a density layer, the margin chosen so that about bound of
// them (shared between the series in proportion to their dominated
// points) are kept.
func (b *builder) thin(pp *PagePlot, p *Plot, bound int) {
	total := 0
	for _, s := range pp.Series {
		total += countStatus(&s, StatusDominated)
	}
	if bound <= 0 || total <= bound {
		return
	}
	need := max(needMargin(p.X), needMargin(p.Y))
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
		b.thinSeries(pp, p, s, keep, need)
	}
}

// needMargin is the log margin the axis' own σ and δ need: the larger of
// its two log thresholds (frontier.Objective.LogThresholds) in size.
func needMargin(a Axis) float64 {
	win, band := a.Objective().LogThresholds()
	return max(win, -band)
}

// thinSeries bins the dominated points of s beyond the margin that keeps
// about keep of them (at least need, in log units).
func (b *builder) thinSeries(pp *PagePlot, p *Plot, s *Series, keep int, need float64) {
	tx, ty := orient(&p.X), orient(&p.Y)
	strict := p.X.Noise == 0 && p.X.MinImprove == 0 && p.Y.Noise == 0 && p.Y.MinImprove == 0
	st := newStair(s, tx, ty, strict)
	base := map[int32]bool{}
	if s.Base != nil {
		for _, bv := range s.Base.Bases {
			if bv.Row >= 0 {
				base[bv.Row] = true
			}
		}
	}
	var rows []int32  // the candidates for the layer: dominated, not a baseline, placed
	var mus []float64 // the margin of each
	fixed := 0        // dominated points that are never binned
	for j, v := range s.S {
		if v != StatusDominated {
			continue
		}
		u, w := tx(s.X[j]), ty(s.Y[j])
		if base[int32(j)] || math.IsNaN(u) || math.IsNaN(w) {
			fixed++
			continue
		}
		rows, mus = append(rows, int32(j)), append(mus, st.margin(u, w))
	}
	lo, hi := max(math.Log1p(minMargin), need), max(math.Log1p(maxMargin), need)
	L := hi
	if k := keep - fixed; k >= 0 && k < len(mus) {
		sorted := slices.Clone(mus)
		slices.Sort(sorted) // the k-th smallest margin: where the points kept end
		L = min(hi, max(lo, sorted[k]))
	} else if k < 0 {
		L = lo
	}
	drop := make([]bool, len(s.S))
	g := newDensity(pp, p)
	// The best corner of every cell of the points beyond the margin: a
	// cell whose best corner is not beyond it keeps its points.
	cellOf := make([]int32, len(s.S))
	bx, by, held := make([]float64, densityNX*densityNY), make([]float64, densityNX*densityNY), make([]bool, densityNX*densityNY)
	better := func(dir frontier.Direction, a, c float64) float64 {
		if dir == frontier.Maximize {
			return max(a, c)
		}
		return min(a, c)
	}
	ndrop := 0
	for k, r := range rows {
		if !(mus[k] > L) {
			continue
		}
		drop[r], cellOf[r] = true, -1
		ndrop++
		if c, ok := g.cell(s.X[r], s.Y[r]); ok {
			cellOf[r] = c
			if !held[c] {
				held[c], bx[c], by[c] = true, s.X[r], s.Y[r]
			} else {
				bx[c], by[c] = better(p.X.Direction, bx[c], s.X[r]), better(p.Y.Direction, by[c], s.Y[r])
			}
		}
	}
	for c, h := range held {
		if !h {
			continue
		}
		ix, iy := roundToward(bx[c], p.X.Direction == frontier.Maximize), roundToward(by[c], p.Y.Direction == frontier.Maximize)
		if st.margin(tx(ix), ty(iy)) > L {
			g.ideal[int32(c)] = [2]float64{ix, iy}
		} else {
			held[c] = false // kept
		}
	}
	binned := rows[:0]
	for _, r := range rows {
		if !drop[r] {
			continue
		}
		if c := cellOf[r]; c >= 0 && !held[c] {
			drop[r] = false
			ndrop--
			continue
		}
		binned = append(binned, r)
	}
	rows = binned
	if ndrop == 0 {
		return
	}
	ids, names := make([]string, len(rows)), []string(nil)
	known := true // every binned trial's ID is known
	for k, r := range rows {
		g.add(s.X[r], s.Y[r])
		i := s.P[r]
		ids[k] = b.recs.id[i]
		known = known && ids[k] != ""
		if n := b.recs.nameOf(i); n != "" {
			if names == nil {
				names = make([]string, len(rows))
			}
			names[k] = n
		}
	}
	if !known {
		ids = nil
	}
	d := g.result()
	d.Margin = math.Expm1(L)
	index := map[int32]int32{}
	for k := 0; k < len(d.C); k += 3 {
		index[d.C[k+1]*int32(d.NX)+d.C[k]] = int32(k / 3)
	}
	d.IDs, d.Names, d.Cell = ids, names, make([]int32, len(rows))
	for k, r := range rows {
		d.Cell[k] = index[cellOf[r]]
	}
	*s = compact(*s, drop)
	s.D = d
}

// roundToward rounds v > 0 to six significant digits, up or down.
func roundToward(v float64, up bool) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	step := math.Pow(10, math.Floor(math.Log10(v))-5)
	for (up && r < v) || (!up && r > v) {
		if up {
			r += step
		} else {
			r -= step
		}
		r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'g', 6, 64), 64)
	}
	return r
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

// orient maps an axis value to its minimised natural log (NaN for a value
// that is not finite and positive), the scale of the relation's relative
// thresholds.
func orient(a *Axis) func(float64) float64 {
	sign := 1.0
	if a.Direction == frontier.Maximize {
		sign = -1
	}
	return func(v float64) float64 {
		if !(v > 0) || math.IsInf(v, 0) {
			return math.NaN()
		}
		return sign * math.Log(v)
	}
}

// stair is the strict frontier of a series' feasible points in oriented
// log coordinates, u ascending (w descending).
type stair struct{ u, w []float64 }

// newStair returns the stair of s in the coordinates tx, ty. Under the
// strict relation (strict) the series' frontier points are its strict
// frontier, and the dominated points, each strictly dominated by a
// feasible point, are left out before sorting: unless a frontier point
// has no coordinates (a value of 0), for the points only it dominates
// are then on the stair.
func newStair(s *Series, tx, ty func(float64) float64, strict bool) *stair {
	type pt struct{ u, w float64 }
	var pts []pt
	for j, v := range s.S {
		if v == StatusFrontier || (v == StatusDominated && !strict) {
			if u, w := tx(s.X[j]), ty(s.Y[j]); !math.IsNaN(u) && !math.IsNaN(w) {
				pts = append(pts, pt{u, w})
			} else if strict && v == StatusFrontier {
				return newStair(s, tx, ty, false)
			}
		}
	}
	slices.SortFunc(pts, func(a, c pt) int { return cmp.Or(cmp.Compare(a.u, c.u), cmp.Compare(a.w, c.w)) })
	st := &stair{}
	for _, q := range pts {
		if len(st.w) == 0 || q.w < st.w[len(st.w)-1] {
			st.u, st.w = append(st.u, q.u), append(st.w, q.w)
		}
	}
	return st
}

// margin returns by how much (in log units) the strict frontier beats the
// point (u, w) on both axes at once: the largest over frontier points f of
// min(u-f.u, w-f.w); not positive for a point on the strict frontier.
func (st *stair) margin(u, w float64) float64 {
	if len(st.u) == 0 || math.IsNaN(u) || math.IsNaN(w) {
		return math.Inf(-1)
	}
	// Along the frontier u-f.u falls and w-f.w rises: the minimum of the
	// two is largest where they cross.
	k := sort.Search(len(st.u), func(k int) bool { return u-st.u[k] <= w-st.w[k] })
	best := math.Inf(-1)
	for _, j := range []int{k - 1, k} {
		if j >= 0 && j < len(st.u) {
			best = max(best, min(u-st.u[j], w-st.w[j]))
		}
	}
	return best
}

// densityGrid counts points into the cells of a Density.
type densityGrid struct {
	d      Density
	counts map[int32]int32
	// ideal holds the best corner of each cell.
	ideal map[int32][2]float64
}

// newDensity returns an empty grid over the range of every point of the
// plot.
func newDensity(pp *PagePlot, p *Plot) *densityGrid {
	g := &densityGrid{d: Density{NX: densityNX, NY: densityNY, LogX: pp.X.Log, LogY: pp.Y.Log,
		X0: math.Inf(1), X1: math.Inf(-1), Y0: math.Inf(1), Y1: math.Inf(-1)}, counts: map[int32]int32{}, ideal: map[int32][2]float64{}}
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

// cell returns the cell of the point (x, y), false when no cell can hold
// it (NaN, or not positive on a log axis).
func (g *densityGrid) cell(x, y float64) (int32, bool) {
	tx, okx := g.t(x, g.d.LogX)
	ty, oky := g.t(y, g.d.LogY)
	if !okx || !oky {
		return 0, false
	}
	cx := min(g.d.NX-1, max(0, int(float64(g.d.NX)*(tx-g.d.X0)/(g.d.X1-g.d.X0))))
	cy := min(g.d.NY-1, max(0, int(float64(g.d.NY)*(ty-g.d.Y0)/(g.d.Y1-g.d.Y0))))
	return int32(cy*g.d.NX + cx), true
}

// add counts the point (x, y); a point no cell can hold is counted in N
// only.
func (g *densityGrid) add(x, y float64) {
	g.d.N++
	if c, ok := g.cell(x, y); ok {
		g.counts[c]++
	}
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
		d.IX, d.IY = append(d.IX, g.ideal[c][0]), append(d.IY, g.ideal[c][1])
	}
	return &d
}
