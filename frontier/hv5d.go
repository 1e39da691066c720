package frontier

import (
	"math"
	"slices"
)

// hv5Work holds the buffers of the 5D hypervolume sweep.
//
// The sweep visits the points in increasing v (the 5th coordinate) and keeps
// F, the 4D non-dominated set of the (x, y, z, w) projections seen so far.
// The hypervolume is the integral over v of the 4D volume of F, which grows
// by each new point's exclusive 4D contribution. F is kept twice, as arrays
// sorted by z and by w, so a contribution needs no sort (moocore's recursion
// likewise keeps its lists sorted in every coordinate). For a new point p,
// with the roles of z and w possibly exchanged (see contribution):
//
//   - the points of F at or below p's w, limited to p's box (coordinatewise
//     max with p), are taken in z order: one not weakly dominated in (x, y)
//     by an earlier one (a binary search in their staircase) joins S, the 3D
//     set of hv4Work, whose z order it keeps by being appended; p's
//     exclusive 3D volume against S is the area at w = p_w. The pass stops
//     at the first point that covers p's whole (x, y) box;
//   - the points above p's w, limited to its box, are taken in w order: the
//     area shrinks by each one's exclusive 3D volume against S (which it then
//     joins), until it is gone. Most of them are covered by S; the last two
//     points of S found covering one are tried first.
//
// The terms are those of hv4Work.excl (positive gaps of staircases), so the
// results agree with the general sweep to rounding. A point costs O(|F|)
// for the two passes plus O(|S|) for each 3D contribution of the second
// (measured against moocore's recursion in docs/PERFORMANCE.md).
type hv5Work struct {
	// check makes volume stop at the first point that is weakly
	// dominated by an earlier one, or ties the 5th coordinate of the
	// next, and set failed (see hvMutual).
	check, failed bool
	w4            hv4Work
	fz            []xyzw // F sorted by z
	fw            []xyzw // F sorted by w
	stair         []xy   // (x, y) staircase of S while it is built
	order         []int32
	keys          []uint64
	tk            []uint64
	ti            []int32
}

// xyzw is a point of F.
type xyzw struct{ x, y, z, w float64 }

// volume returns the hypervolume of the n stride-5 points, all strictly
// below ref (no NaN).
func (h *hv5Work) volume(pts []float64, n int, ref []float64) float64 {
	if cap(h.keys) < n {
		h.keys, h.tk, h.ti, h.order = make([]uint64, n), make([]uint64, n), make([]int32, n), make([]int32, n)
	}
	keys, order := h.keys[:n], h.order[:n]
	for i := range n {
		keys[i], order[i] = floatKey(pts[5*i+4]), int32(i)
	}
	sortByKeyBuf(keys, order, h.tk, h.ti)
	if cap(h.fz) < n { // F holds at most n points: no growth while it fills
		h.fz, h.fw = make([]xyzw, 0, n), make([]xyzw, 0, n)
	}
	h.fz, h.fw, h.failed = h.fz[:0], h.fw[:0], false
	vol, v := 0.0, 0.0
	for j, oi := range order {
		p := pts[5*int(oi) : 5*int(oi)+5]
		q := xyzw{p[0], p[1], p[2], p[3]}
		c, ok := h.contribution(q, ref)
		if ok {
			v += c
			h.add(q)
		}
		next := ref[4]
		if j+1 < n {
			next = pts[5*int(order[j+1])+4]
		}
		if h.check && (!ok || next == p[4]) {
			h.failed = true
			return 0
		}
		vol += v * (next - p[4])
	}
	return vol
}

// contribution returns the exclusive 4D volume of p against F; ok is false
// when a point of F weakly dominates p.
//
// The roles of z and w are symmetric: the pass that builds S can run over
// F by z (filtering w <= p_w, the sweep then in w) or over F by w (filtering
// z <= p_z, the sweep in z). The sweep is the costlier pass per point, so
// it runs in the coordinate where fewer points of F lie above p.
func (h *hv5Work) contribution(p xyzw, ref []float64) (float64, bool) {
	base, sweep := h.fz, h.fw
	pb, ps := p.z, p.w // p's base and sweep coordinates
	r := [4]float64{ref[0], ref[1], ref[2], ref[3]}
	loW := searchW(h.fw, p.w)
	swap := false
	if loZ := searchZ(h.fz, p.z); len(h.fz)-loZ < len(h.fw)-loW {
		swap = true
		base, sweep, pb, ps = h.fw, h.fz, p.w, p.z
		r[2], r[3] = r[3], r[2]
		loW = loZ
	}
	w4 := &h.w4
	s, st := w4.s[:0], h.stair[:0]
	// c is the last staircase point that covered a limited point, as a
	// bound on f itself (see coverBound): the test needs no limiting, and
	// the covered points (most of them) are never limited.
	c := xy{math.Inf(1), math.Inf(1)}
	for _, f := range base {
		fb, fs := f.z, f.w
		if swap {
			fb, fs = f.w, f.z
		}
		// Skip points above p's w, and points covered by c, with one
		// branch (each comparison alone is unpredictable).
		if b2u(fs > ps)|(b2u(c.x <= f.x)&b2u(c.y <= f.y)) != 0 {
			continue
		}
		if b2u(f.x <= p.x)&b2u(f.y <= p.y) != 0 { // limited to p's box, f is (p_x, p_y)
			if fb <= pb {
				w4.s, h.stair = s, st
				return 0, false
			}
			// f covers p's (x, y) box from f's z up: every later point is
			// covered by it (and no point of the staircase covers it).
			s = append(s, xyz{p.x, p.y, fb})
			break
		}
		q := xyz{max(f.x, p.x), max(f.y, p.y), max(fb, pb)}
		var in bool
		var d xy
		if st, in, d = stairAdd(st, q.x, q.y); in {
			s = append(s, q)
		} else {
			c = xy{coverBound(d.x, p.x), coverBound(d.y, p.y)}
		}
	}
	w4.s, h.stair = s, st
	pp := [3]float64{p.x, p.y, pb}
	area, _, _ := w4.contribution(pp[:], r[:3])
	// The points above p in the sweep coordinate, in that order.
	vol, wPrev := 0.0, ps
	// The last points of S found to cover a limited point, as bounds on
	// f (coverBound): the next is often covered by one of them too (S
	// only grows, so a point that left S is still covered by another).
	cov := xyz{math.Inf(1), math.Inf(1), math.Inf(1)}
	cov2 := cov
	for _, f := range sweep[loW:] {
		if area <= 0 {
			return vol, true
		}
		fb, fs := f.z, f.w
		if swap {
			fb, fs = f.w, f.z
		}
		vol += area * (fs - wPrev)
		wPrev = fs
		if b2u(f.x <= p.x)&b2u(f.y <= p.y)&b2u(fb <= pb) != 0 { // limited, f is p: it covers the rest
			return vol, true
		}
		c1 := b2u(cov.x <= f.x) & b2u(cov.y <= f.y) & b2u(cov.z <= fb)
		c2 := b2u(cov2.x <= f.x) & b2u(cov2.y <= f.y) & b2u(cov2.z <= fb)
		if c1|c2 != 0 {
			if c1 == 0 {
				cov, cov2 = cov2, cov
			}
			continue
		}
		q := [3]float64{max(f.x, p.x), max(f.y, p.y), max(fb, pb)}
		if c, stop, ok := w4.contribution(q[:], r[:3]); ok {
			area -= c
			w4.insert(q[:], stop)
		} else {
			d := w4.cov
			cov, cov2 = xyz{coverBound(d.x, p.x), coverBound(d.y, p.y), coverBound(d.z, pb)}, cov
		}
	}
	if area <= 0 {
		return vol, true
	}
	return vol + area*(r[3]-wPrev), true
}

// coverBound turns a coordinate c >= v of a point limited to p's box
// (v is p's coordinate) into a bound on an unlimited coordinate x:
// c <= max(x, v) exactly when coverBound(c, v) <= x (-Inf when c = v).
func coverBound(c, v float64) float64 {
	if c == v {
		return math.Inf(-1)
	}
	return c
}

// searchZ returns the index of the first point of fz (sorted by z) above
// z.
func searchZ(fz []xyzw, z float64) int {
	lo, hi := 0, len(fz)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if fz[m].z <= z {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchW is searchZ for fw, sorted by w.
func searchW(fw []xyzw, w float64) int {
	lo, hi := 0, len(fw)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if fw[m].w <= w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// stairAdd inserts (x, y) into the staircase st (x ascending, y descending)
// unless a point of st weakly dominates it; in reports whether it did, and
// cov is the dominating point when it did not.
func stairAdd(st []xy, x, y float64) (out []xy, in bool, cov xy) {
	lo := stairAbove(st, x) // the first index with st.x > x
	if lo > 0 && st[lo-1].y <= y {
		return st, false, st[lo-1]
	}
	b := lo
	if b > 0 && st[b-1].x == x {
		b-- // same x, larger y: dominated
	}
	e := lo
	for e < len(st) && st[e].y >= y {
		e++
	}
	return stairPut(st, b, e, xy{x, y}), true, cov
}

// add inserts p into F and drops the points of F it weakly dominates.
func (h *hv5Work) add(p xyzw) {
	loZ := searchZ(h.fz, math.Nextafter(p.z, math.Inf(-1))) // first z >= p.z
	loW := searchW(h.fw, math.Nextafter(p.w, math.Inf(-1)))
	// The points p dominates lie in both suffixes: look in the shorter one
	// first.
	var dropped bool
	if len(h.fz)-loZ <= len(h.fw)-loW {
		if h.fz, dropped = dropCovered(h.fz, loZ, p); dropped {
			h.fw, _ = dropCovered(h.fw, loW, p)
		}
	} else if h.fw, dropped = dropCovered(h.fw, loW, p); dropped {
		h.fz, _ = dropCovered(h.fz, loZ, p)
	}
	h.fz = slices.Insert(h.fz, loZ, p)
	h.fw = slices.Insert(h.fw, loW, p)
}

// dropCovered removes from f[lo:] the points weakly dominated by p (f[:lo]
// holds none) and reports whether there were any.
func dropCovered(f []xyzw, lo int, p xyzw) ([]xyzw, bool) {
	k := lo
	for k < len(f) && !weaklyBelow(p, f[k]) {
		k++
	}
	if k == len(f) {
		return f, false
	}
	for _, g := range f[k+1:] {
		if !weaklyBelow(p, g) {
			f[k] = g
			k++
		}
	}
	return f[:k], true
}

// weaklyBelow reports whether p <= f on every coordinate, without a branch
// per coordinate (the outcome of each comparison is unpredictable).
func weaklyBelow(p, f xyzw) bool {
	return b2u(f.x < p.x)|b2u(f.y < p.y)|b2u(f.z < p.z)|b2u(f.w < p.w) == 0
}

// b2u is 1 for true and 0 for false (a SETcc, not a branch).
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
