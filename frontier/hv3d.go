package frontier

// hv3Work holds reusable buffers for the 3D dimension sweep.
type hv3Work struct {
	keys, tk []uint64
	zidx     []int32
	xidx     []int32
	ti       []int32
	rankOf   []int32
	xr, yr   []float64 // x and y of the point with a given x-rank
	tree     hvBitTree
}

func (w *hv3Work) grow(n int) {
	if cap(w.keys) < n {
		c := max(n, 2*cap(w.keys))
		w.keys, w.tk = make([]uint64, c), make([]uint64, c)
		w.zidx, w.xidx, w.ti, w.rankOf = make([]int32, c), make([]int32, c), make([]int32, c), make([]int32, c)
		w.xr, w.yr = make([]float64, c), make([]float64, c)
	}
}

// sortCoord returns the indices 0..n-1 of the stride-3 points sorted by
// coordinate c, in dst.
func (w *hv3Work) sortCoord(pts []float64, n, c int, dst []int32) {
	keys := w.keys[:n]
	for i := range n {
		keys[i] = floatKey(pts[3*i+c])
		dst[i] = int32(i)
	}
	sortByKeyBuf(keys, dst[:n], w.tk, w.ti)
}

// prepare readies w for a sweep over the n stride-3 points in pts: it
// ranks them by x (rankOf, with xr and yr the x and y of each x-rank),
// empties the tree, and returns their indices sorted by z.
func (w *hv3Work) prepare(pts []float64, n int) []int32 {
	w.grow(n)
	zidx, xidx := w.zidx[:n], w.xidx[:n]
	w.sortCoord(pts, n, 2, zidx)
	w.sortCoord(pts, n, 0, xidx)
	for r, i := range xidx {
		w.rankOf[i] = int32(r)
		w.xr[r], w.yr[r] = pts[3*i], pts[3*i+1]
	}
	w.tree.reset(n)
	return zidx
}

// volume returns the hypervolume of the n stride-3 points in pts, each of
// which must be strictly below ref on every coordinate (no NaN).
//
// HV3D (Beume et al. 2009): sweep in z; the (x, y) projection of the points
// seen so far is kept as a staircase of non-dominated points, indexed by
// x-rank in a 64-ary bitset tree. Inserting a point adds exactly the area it
// uncovers, found by walking the successors it dominates; each point is
// removed at most once, so the sweep is O(n log n) after the sorts.
func (w *hv3Work) volume(pts []float64, n int, ref []float64) float64 {
	if n == 0 {
		return 0
	}
	zidx := w.prepare(pts, n)
	area, vol := 0.0, 0.0
	zPrev := pts[3*zidx[0]+2]
	for _, i := range zidx {
		z := pts[3*i+2]
		vol += area * (z - zPrev)
		zPrev = z
		area += w.insert(int(w.rankOf[i]), ref)
	}
	return vol + area*(ref[2]-zPrev)
}

// insert adds the point with x-rank r to the staircase and returns the area
// it uncovers inside the reference box (0 if it is weakly dominated).
func (w *hv3Work) insert(r int, ref []float64) float64 {
	x, y := w.xr[r], w.yr[r]
	t := &w.tree
	a := t.pred(r)
	top := ref[1]
	if a >= 0 {
		if w.yr[a] <= y {
			return 0
		}
		top = w.yr[a]
	}
	b := t.succ(r)
	if b >= 0 && w.xr[b] == x && w.yr[b] <= y {
		return 0
	}
	gain, cur := 0.0, x
	for b >= 0 && w.yr[b] >= y {
		gain += (w.xr[b] - cur) * (top - y)
		cur, top = w.xr[b], w.yr[b]
		t.remove(b)
		b = t.succ(b)
	}
	end := ref[0]
	if b >= 0 {
		end = w.xr[b]
	}
	gain += (end - cur) * (top - y)
	if a >= 0 && w.xr[a] == x {
		t.remove(a) // same x, larger y: dominated by the new point
	}
	t.insert(r)
	return gain
}

// excl returns the part of the box [p, ref) not covered by the boxes of the
// n stride-3 points in lim, each >= p componentwise. The uncovered area of
// p's (x, y) box is summed from the staircase gaps at z = p_z, then reduced
// by the area each later point (in z order) newly covers, so every term
// stays on the scale of the result. O(m log m).
func (w *hv3Work) excl(p, lim []float64, n int, ref []float64) float64 {
	if n == 0 {
		return (ref[0] - p[0]) * (ref[1] - p[1]) * (ref[2] - p[2])
	}
	zidx := w.prepare(lim, n)
	j := 0
	for ; j < n && lim[3*zidx[j]+2] <= p[2]; j++ {
		w.insert(int(w.rankOf[zidx[j]]), ref)
	}
	area := w.gaps(p, ref)
	vol, zPrev := 0.0, p[2]
	for ; j < n && area > 0; j++ {
		i := zidx[j]
		z := lim[3*i+2]
		vol += area * (z - zPrev)
		zPrev = z
		area -= w.insert(int(w.rankOf[i]), ref)
	}
	if area <= 0 {
		return vol
	}
	return vol + area*(ref[2]-zPrev)
}

// gaps returns the area of [p_x, ref_x) x [p_y, ref_y) not covered by the
// staircase, whose points are all >= p in x and y.
func (w *hv3Work) gaps(p, ref []float64) float64 {
	area, cur, top := 0.0, p[0], ref[1]
	for b := w.tree.first(); b >= 0; b = w.tree.succ(b) {
		area += (w.xr[b] - cur) * (top - p[1])
		cur, top = w.xr[b], w.yr[b]
		if top <= p[1] {
			return area
		}
	}
	return area + (ref[0]-cur)*(top-p[1])
}
