package frontier

// hvEngine holds the reusable buffers of one hypervolume computation.
type hvEngine struct {
	w3   hv3Work
	w4   hv4Work
	w5   hv5Work
	keys []uint64
	tk   []uint64
	ti   []int32
	// per-dimension scratch, indexed by the dimension d of the sweep.
	front [][]float64
	lim   [][]float64
	order [][]int32
}

// sortBy returns the indices of the n stride-k points sorted by coordinate c.
// The result lives in the engine's buffer for stride k.
func (e *hvEngine) sortBy(pts []float64, n, k, c int) []int32 {
	for len(e.order) <= k {
		e.order = append(e.order, nil)
	}
	if cap(e.keys) < n { // grown by doubling, as the sweeps' sets grow by one point at a time
		c := max(n, 2*cap(e.keys))
		e.keys, e.tk, e.ti = make([]uint64, c), make([]uint64, c), make([]int32, c)
	}
	if cap(e.order[k]) < n {
		e.order[k] = make([]int32, max(n, 2*cap(e.order[k])))
	}
	idx, keys := e.order[k][:n], e.keys[:n]
	for i := range n {
		keys[i] = floatKey(pts[k*i+c])
		idx[i] = int32(i)
	}
	sortByKeyBuf(keys, idx, e.tk, e.ti)
	return idx
}

// buffers returns the front and limited-set scratch slices for dimension d.
func (e *hvEngine) buffers(d int) (front, lim []float64) {
	for len(e.front) <= d {
		e.front = append(e.front, nil)
		e.lim = append(e.lim, nil)
	}
	return e.front[d][:0], e.lim[d][:0]
}

// keep stores the (possibly grown) scratch slices of dimension d.
func (e *hvEngine) keep(d int, front, lim []float64) {
	e.front[d], e.lim[d] = front, lim
}

// hvVolume dispatches on the dimension d of the n stride-d points, all
// strictly below ref.
func (e *hvEngine) hvVolume(pts []float64, n, d int, ref []float64) float64 {
	switch {
	case n == 0:
		return 0
	case n == 1:
		v := 1.0
		for c := range d {
			v *= ref[c] - pts[c]
		}
		return v
	case d == 1:
		m := pts[0]
		for _, x := range pts[:n] {
			m = min(m, x)
		}
		return ref[0] - m
	case d == 2:
		return e.hv2(pts, n, ref)
	case d == 3:
		return e.w3.volume(pts, n, ref)
	case d == 4:
		return e.w4.volume(pts, n, ref)
	case d == 5:
		return e.w5.volume(pts, n, ref)
	}
	return e.hvSweep(pts, n, d, ref)
}

// hv2 computes the hypervolume of n stride-2 points strictly below ref: sort
// by x and add, for each point that lowers the running minimum of y, the
// horizontal strip between the old and the new minimum. O(n log n).
func (e *hvEngine) hv2(pts []float64, n int, ref []float64) float64 {
	order := e.sortBy(pts, n, 2, 0)
	area, yMin := 0.0, ref[1]
	for _, i := range order {
		if y := pts[2*i+1]; y < yMin {
			area += (ref[0] - pts[2*i]) * (yMin - y)
			yMin = y
		}
	}
	return area
}

// excl returns the exclusive volume of the d-dimensional point p: the part
// of the box [p, ref) not covered by the boxes of the n stride-d points in
// lim, each of which is >= p componentwise (a WFG "limited" set). The volume
// is built from positive terms only, so a small exclusive volume keeps its
// relative precision (computing box minus covered volume would not).
func (e *hvEngine) excl(p []float64, lim []float64, n, d int, ref []float64) float64 {
	switch d {
	case 1:
		m := ref[0]
		for _, x := range lim[:n] {
			m = min(m, x)
		}
		return m - p[0]
	case 2:
		return e.excl2(p, lim, n, ref)
	case 3:
		return e.w3.excl(p, lim, n, ref)
	case 4:
		return e.w4.excl(p, lim, n, ref)
	}
	return e.exclSweep(p, lim, n, d, ref)
}

// excl2 is excl for d = 2: the staircase gaps of the limited points inside
// the box of p, summed left to right.
func (e *hvEngine) excl2(p, lim []float64, n int, ref []float64) float64 {
	order := e.sortBy(lim, n, 2, 0)
	area, cur, yMin := 0.0, p[0], ref[1]
	for _, i := range order {
		x, y := lim[2*i], lim[2*i+1]
		if y >= yMin {
			continue
		}
		area += (x - cur) * (yMin - p[1])
		cur, yMin = x, y
		if yMin <= p[1] {
			return area
		}
	}
	return area + (ref[0]-cur)*(yMin-p[1])
}
