package frontier

import (
	"math"
	"slices"
)

// hv4Work holds the buffers of the 4D hypervolume sweep.
//
// The sweep visits the points in increasing w (the 4th coordinate) and keeps
// S, the 3D non-dominated set of the (x, y, z) projections seen so far, as
// parallel arrays sorted by z. The hypervolume is the integral over w of the
// 3D volume of S, which grows by each new point's exclusive 3D contribution.
// A contribution is found by one pass over S in z order (the idea of
// Guerreiro and Fonseca's HV4D+, with a different staircase):
//
//   - below p's z, every point of S either weakly dominates p (no
//     contribution), covers the top of p's (x, y) box from some y on (a
//     "wall" at x <= p_x: only the lowest matters), covers its right side
//     from some x on (a wall at y <= p_y), or lies inside the box; the
//     uncovered area at z = p_z is the box minus the staircase of the inside
//     points and the two walls;
//   - above p's z, each point limited to the box (max with p) is inserted
//     into that staircase, removing the area it newly covers, until the area
//     is gone or a point covers the whole (x, y) box.
//
// The volume is built from positive terms only (the gaps of the staircase),
// so a small contribution keeps its relative precision. Each contribution
// costs O(m) plus sorting the inside points, with m = |S|: O(n²) in the
// worst case (all points mutually non-dominated), O(n log n) when S stays
// small.
type hv4Work struct {
	s     []xyz // S sorted by z
	in    []xy  // inside points below p's z
	cov   xyz   // the point of S that weakly dominated the last rejected point
	st    []xy  // the staircase
	order []int32
	keys  []uint64
	tk    []uint64
	ti    []int32
}

type xy struct{ x, y float64 }

type xyz struct{ x, y, z float64 }

// sortW empties the sweep's 3D front and returns the indices of the n
// stride-4 points in pts sorted by w.
func (w *hv4Work) sortW(pts []float64, n int) []int32 {
	if cap(w.keys) < n {
		c := max(n, 2*cap(w.keys)) // grown by doubling: the limited sets of a 5D sweep grow by one point at a time
		w.keys, w.tk, w.ti, w.order = make([]uint64, c), make([]uint64, c), make([]int32, c), make([]int32, c)
	}
	keys, order := w.keys[:n], w.order[:n]
	for i := range n {
		keys[i], order[i] = floatKey(pts[4*i+3]), int32(i)
	}
	sortByKeyBuf(keys, order, w.tk, w.ti)
	w.s = w.s[:0]
	return order
}

// volume returns the hypervolume of the n stride-4 points, all strictly
// below ref (no NaN).
func (w *hv4Work) volume(pts []float64, n int, ref []float64) float64 {
	order := w.sortW(pts, n)
	vol, v := 0.0, 0.0
	for j, oi := range order {
		p := pts[4*int(oi) : 4*int(oi)+4]
		if c, stop, ok := w.contribution(p, ref); ok {
			v += c
			w.insert(p, stop)
		}
		next := ref[3]
		if j+1 < n {
			next = pts[4*int(order[j+1])+3]
		}
		vol += v * (next - p[3])
	}
	return vol
}

// contribution returns the exclusive 3D volume of p's (x, y, z) box against
// S; ok is false when a point of S weakly dominates p (then w.cov is one). stop is the index of
// the first point of S above p_z whose (x, y) is <= p's, or len(S): the
// points of S that p weakly dominates lie below it (a point above it would
// be dominated by it, and S has none).
func (w *hv4Work) contribution(p, ref []float64) (c float64, stop int, ok bool) {
	px, py, pz := p[0], p[1], p[2]
	s := w.s
	wallY, wallX := ref[1], ref[0] // lowest wall over p's box, leftmost wall beside it
	// One pass over the points below p's z, without data-dependent
	// branches but the exits: every point is written to in, and kept (k
	// advances) only when it is inside.
	if cap(w.in) < len(s) {
		w.in = make([]xy, len(s), 2*len(s))
	}
	in, k := w.in[:len(s)], 0
	inf := math.Inf(1)
	j := 0
	for ; j < len(s); j++ {
		q := s[j]
		if q.z > pz {
			break
		}
		lx, ly := b2u(q.x <= px), b2u(q.y <= py)
		if lx&ly != 0 { // q weakly dominates p
			w.cov = q
			return 0, 0, false
		}
		yy, xx := [2]float64{inf, q.y}, [2]float64{inf, q.x}
		wallY = min(wallY, yy[lx&1])
		wallX = min(wallX, xx[ly&1])
		in[k] = xy{q.x, q.y}
		k += int(^(lx | ly) & 1)
	}
	in = in[:k]
	// The staircase at z = p_z: x ascending, y descending, every point
	// inside [p_x, ref_x) x [p_y, ref_y): the walls, then the inside points
	// below them.
	st := w.st[:0]
	if wallY < ref[1] {
		st = append(st, xy{px, wallY})
	}
	if wallX < ref[0] {
		st = append(st, xy{wallX, py})
	}
	for _, q := range in {
		if q.x < wallX && q.y < wallY {
			st, _, _ = stairAdd(st, q.x, q.y) // the shape only: the area is stairGaps'
		}
	}
	area := stairGaps(st, px, py, ref)
	vol, zPrev := 0.0, pz
	stop = len(s)
	for ; j < len(s) && area > 0; j++ {
		z := s[j].z
		vol += area * (z - zPrev)
		zPrev = z
		if b2u(s[j].x <= px)&b2u(s[j].y <= py) != 0 { // limited, it covers p's whole box
			area, stop = 0, j
			break
		}
		var gain float64
		st, gain = stairInsert(st, max(s[j].x, px), max(s[j].y, py), ref)
		area -= gain
	}
	w.st = st
	if area > 0 {
		vol += area * (ref[2] - zPrev)
	}
	return vol, stop, true
}

// stairGaps returns the area of [px, ref_x) x [py, ref_y) not covered by the
// staircase st.
func stairGaps(st []xy, px, py float64, ref []float64) float64 {
	area, cur, top := 0.0, px, ref[1]
	for _, q := range st {
		area += (q.x - cur) * (top - py)
		cur, top = q.x, q.y
		if top <= py {
			return area
		}
	}
	return area + (ref[0]-cur)*(top-py)
}

// stairAbove returns the first index of the staircase st (x ascending)
// whose x is above x, len(st) when none is.
func stairAbove(st []xy, x float64) int {
	if len(st) <= 8 { // the usual staircase of a 5D contribution: a scan is cheaper
		lo := 0
		for lo < len(st) && st[lo].x <= x {
			lo++
		}
		return lo
	}
	lo, hi := 0, len(st)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if st[m].x > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// stairInsert adds (x, y) to the staircase and returns the area of
// [x, ref_x) x [y, ref_y) it newly covers (0 if a staircase point weakly
// dominates it).
func stairInsert(st []xy, x, y float64, ref []float64) ([]xy, float64) {
	// b = first index with st[b].x > x; a = b-1 has st[a].x <= x.
	b := stairAbove(st, x)
	top := ref[1]
	a := b - 1
	if a >= 0 {
		if st[a].y <= y {
			return st, 0
		}
		top = st[a].y
	}
	gain, cur := 0.0, x
	e := b
	for e < len(st) && st[e].y >= y {
		gain += (st[e].x - cur) * (top - y)
		cur, top = st[e].x, st[e].y
		e++
	}
	end := ref[0]
	if e < len(st) {
		end = st[e].x
	}
	gain += (end - cur) * (top - y)
	// Replace st[b:e] (dominated) by the new point; a point at the same x
	// with a larger y is dominated too.
	if a >= 0 && st[a].x == x {
		b = a
	}
	return stairPut(st, b, e, xy{x, y}), gain
}

// stairPut replaces st[b:e] (b <= e) by q. The staircases are a few
// points: the elements are moved one by one (a memmove's dispatch on the
// size costs more and mispredicts), and nothing is cleared.
func stairPut(st []xy, b, e int, q xy) []xy {
	if e == b {
		st = append(st, xy{})
		for i := len(st) - 1; i > b; i-- {
			st[i] = st[i-1]
		}
		st[b] = q
		return st
	}
	st[b] = q
	k := b + 1
	for _, t := range st[e:] {
		st[k] = t
		k++
	}
	return st[:k]
}

// insert adds p's projection to S and drops the points of S it weakly
// dominates: they all have z >= p_z and lie below index stop (see
// contribution).
func (w *hv4Work) insert(p []float64, stop int) {
	q := xyz{p[0], p[1], p[2]}
	s := w.s
	lo, hi := 0, stop
	for lo < hi { // lo = first index with z >= q.z
		m := int(uint(lo+hi) >> 1)
		if s[m].z < q.z {
			lo = m + 1
		} else {
			hi = m
		}
	}
	f := hv4NextDominated(s[:stop], lo, q)
	if f == stop { // nothing dominated: shift and insert
		w.s = slices.Insert(s, lo, q)
		return
	}
	// q takes the slot of the first dominated point; the runs between the
	// other dominated points move down.
	copy(s[lo+1:f+1], s[lo:f])
	s[lo] = q
	k, j := f+1, f+1
	for j < stop {
		g := hv4NextDominated(s[:stop], j, q)
		k += copy(s[k:], s[j:g])
		j = g + 1
	}
	k += copy(s[k:], s[stop:])
	w.s = s[:k]
}

// hv4NextDominated returns the first index >= j of a point of s weakly
// dominated by q in x and y, or len(s).
func hv4NextDominated(s []xyz, j int, q xyz) int {
	for j < len(s) && b2u(s[j].x < q.x)|b2u(s[j].y < q.y) != 0 { // one branch, not two
		j++
	}
	return j
}

// excl returns the exclusive 4D volume of p against the n stride-4 points
// of lim, each >= p componentwise (a WFG limited set): the same sweep in w
// over lim, starting from p's exclusive 3D volume against the 3D front of
// the points at or below p_w and reducing it by each later point's 3D
// contribution, until nothing is left.
func (w *hv4Work) excl(p, lim []float64, n int, ref []float64) float64 {
	order := w.sortW(lim, n)
	j := 0
	for ; j < n && lim[4*int(order[j])+3] <= p[3]; j++ {
		q := lim[4*int(order[j]) : 4*int(order[j])+4]
		if stop, ok := w.undominated(q); ok {
			w.insert(q, stop)
		}
	}
	area, _, ok := w.contribution(p, ref)
	if !ok {
		return 0
	}
	vol, wPrev := 0.0, p[3]
	for ; j < n && area > 0; j++ {
		q := lim[4*int(order[j]) : 4*int(order[j])+4]
		vol += area * (q[3] - wPrev)
		wPrev = q[3]
		if c, stop, ok := w.contribution(q, ref); ok {
			area -= c
			w.insert(q, stop)
		}
	}
	if area <= 0 {
		return vol
	}
	return vol + area*(ref[3]-wPrev)
}

// undominated reports whether no point of S weakly dominates q's (x, y, z),
// with the bound insert needs (len(S): every point above q_z is checked).
func (w *hv4Work) undominated(q []float64) (stop int, ok bool) {
	for _, s := range w.s {
		if s.z > q[2] {
			break
		}
		if s.x <= q[0] && s.y <= q[1] {
			return 0, false
		}
	}
	return len(w.s), true
}
