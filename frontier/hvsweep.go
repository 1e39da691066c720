package frontier

// hvSweep computes the hypervolume of n stride-d points (d >= 4) strictly
// below ref by a dimension sweep in the last coordinate (the HV4D idea of
// Guerreiro, Fonseca and Emmerich, generalised): V, the (d-1)-dimensional
// volume of the points seen so far, grows by each new point's exclusive
// contribution, computed by excl on the current (d-1)-front limited to the
// point's box (WFG's "limit" reduction, While et al. 2012); the volume adds
// V times the gap to the next point. Points weakly dominated in the first
// d-1 coordinates by the new point leave the front.
//
// For d = 4 each contribution costs O(m log m) with m the size of the 3D
// front, so O(n² log n) in the worst case; for d >= 5 the recursion is
// exponential in d in the worst case.
func (e *hvEngine) hvSweep(pts []float64, n, d int, ref []float64) float64 {
	order := e.sortBy(pts, n, d, d-1)
	front, lim := e.buffers(d)
	vol, v := 0.0, 0.0
	for j, oi := range order {
		i := int(oi)
		p := pts[d*i : d*i+d-1]
		var dom bool
		if lim, dom = hvLimit(front, p, lim); !dom {
			v += e.excl(p, lim, len(lim)/(d-1), d-1, ref)
			front = hvDropDominated(front, p)
		}
		next := ref[d-1]
		if j+1 < n {
			next = pts[d*int(order[j+1])+d-1]
		}
		vol += v * (next - pts[d*i+d-1])
	}
	e.keep(d, front, lim)
	return vol
}

// exclSweep is excl for d >= 4: the same sweep over the limited points in
// lim, starting from the exclusive (d-1)-volume of p at its own height and
// reducing it by each later point's exclusive contribution.
func (e *hvEngine) exclSweep(p, pts []float64, n, d int, ref []float64) float64 {
	order := e.sortBy(pts, n, d, d-1)
	front, lim := e.buffers(d)
	defer func() { e.keep(d, front, lim) }()
	m, j := d-1, 0
	for ; j < n && pts[d*int(order[j])+m] <= p[m]; j++ {
		i := int(order[j])
		front = hvInsertFront(front, pts[d*i:d*i+m])
	}
	area := e.excl(p[:m], front, len(front)/m, m, ref)
	vol, zPrev := 0.0, p[m]
	for ; j < n && area > 0; j++ {
		i := int(order[j])
		q := pts[d*i : d*i+m]
		z := pts[d*i+m]
		vol += area * (z - zPrev)
		zPrev = z
		var dom bool
		if lim, dom = hvLimit(front, q, lim); !dom {
			area -= e.excl(q, lim, len(lim)/m, m, ref)
			front = hvDropDominated(front, q)
		}
	}
	if area <= 0 {
		return vol
	}
	return vol + area*(ref[m]-zPrev)
}

// hvLimit fills lim with max(s, p) for every point s of the stride-len(p)
// front. It stops early and reports dom = true when some s is <= p on every
// coordinate (p then has no exclusive volume).
func hvLimit(front, p, lim []float64) (out []float64, dom bool) {
	m := len(p)
	lim = lim[:0]
	for t := 0; t < len(front); t += m {
		s := front[t : t+m]
		le := true
		for c, v := range s {
			if v > p[c] {
				le = false
				break
			}
		}
		if le {
			return lim, true
		}
		for c, v := range s {
			lim = append(lim, max(v, p[c]))
		}
	}
	return lim, false
}

// hvInsertFront adds p to the stride-len(p) front unless a front point
// weakly dominates it.
func hvInsertFront(front, p []float64) []float64 {
	m := len(p)
	for t := 0; t < len(front); t += m {
		le := true
		for c, v := range front[t : t+m] {
			if v > p[c] {
				le = false
				break
			}
		}
		if le {
			return front
		}
	}
	return hvDropDominated(front, p)
}

// hvDropDominated removes from the stride-len(p) front every point weakly
// dominated by p, then appends p.
func hvDropDominated(front, p []float64) []float64 {
	d := len(p)
	j := 0
	for t := 0; t < len(front); t += d {
		dom := true
		for c := range d {
			if front[t+c] < p[c] {
				dom = false
				break
			}
		}
		if !dom {
			copy(front[j:j+d], front[t:t+d])
			j += d
		}
	}
	return append(front[:j], p...)
}
