package frontier

import (
	"fmt"
	"math"
	"sync"
)

// Hypervolume returns the exact hypervolume of the n = len(data)/k points
// (row-major, every objective minimised) with respect to the reference point
// ref: the Lebesgue measure of the union of the boxes [p, ref] over the
// points p.
//
// Points that do not strictly dominate ref (p_i < ref_i on every coordinate;
// NaN never does) contribute nothing and are ignored; HypervolumeDetail
// reports how many were discarded so that callers can warn, as moocore does.
// Dominated points and duplicates are allowed. Empty input gives 0. A kept
// point with a -Inf coordinate, or a +Inf reference coordinate with at least
// one kept point, gives +Inf.
//
// Maximised objectives are the caller's job: negate that column of data and
// of ref (the hypervolume is invariant under this reflection).
//
// Algorithms: k = 2 sort and sweep, k = 3 HV3D dimension sweep, both
// O(n log n); k = 4 sweep over exclusive 3D contributions, each found by
// one pass over the z-sorted 3D front (HV4D+-like, O(n²) worst case; see
// hv4Work); k = 5 sweep in the 5th coordinate over exclusive 4D
// contributions against the 4D front kept sorted in z and in w (see
// hv5Work; no sort per contribution); k >= 6 recursive dimension sweep
// with WFG-style limited sets down to the 4D case (exponential in k in the
// worst case).
//
// Hypervolume panics if k < 1, len(data) is not a multiple of k or
// len(ref) != k; these are programming errors.
func Hypervolume(data []float64, k int, ref []float64) float64 {
	hv, _ := HypervolumeDetail(data, k, ref)
	return hv
}

// HypervolumeDetail is Hypervolume that also returns the number of points
// discarded because they do not strictly dominate ref. It panics under the
// same conditions as Hypervolume.
func HypervolumeDetail(data []float64, k int, ref []float64) (hv float64, discarded int) {
	hvCheckShape("HypervolumeDetail", data, k)
	if len(ref) != k {
		panic(fmt.Sprintf("frontier.HypervolumeDetail: len(ref) = %d, want k = %d", len(ref), k))
	}
	kept, infinite := hvKeep(data, k, ref)
	n := len(kept) / k
	discarded = len(data)/k - n
	if n == 0 {
		return 0, discarded
	}
	if infinite {
		return math.Inf(1), discarded
	}
	kept, n = thinDominated(kept, k)
	e := hvEngines.Get().(*hvEngine)
	defer hvEngines.Put(e)
	return e.hvVolume(kept, n, k, ref), discarded
}

// hvEngines keeps engines between calls: the groups of a query (and the
// resamples of an interval) reuse the buffers of the last volume instead
// of growing new ones.
var hvEngines = sync.Pool{New: func() any { return new(hvEngine) }}

// hvMutual returns Hypervolume(data, 5, ref) of stride-5 points, and
// ok = true, when it finds in passing that they are mutually non-dominated:
// every point finite and strictly below ref, the 5th coordinates distinct,
// and no point weakly dominated in the first four by one with a smaller
// 5th (the 5D sweep rejects exactly those, see hv5Work.contribution). Then
// no point dominates another, and the frontier is every point. Otherwise
// ok is false, found at the first point that fails, and the volume is
// not computed.
func hvMutual(data, ref []float64) (hv float64, ok bool) {
	kept, infinite := hvKeep(data, 5, ref)
	n := len(kept) / 5
	if n != len(data)/5 || infinite || n < 2 {
		return 0, false
	}
	for _, v := range data {
		if math.IsInf(v, 0) {
			return 0, false
		}
	}
	e := hvEngines.Get().(*hvEngine)
	defer hvEngines.Put(e)
	e.w5.check = true
	hv = e.hvVolume(kept, n, 5, ref)
	e.w5.check = false
	return hv, !e.w5.failed
}

// thinDominated drops points dominated by a frontier pivot (one linear
// pass; see pivotFilter): they add no volume, and on random data they are
// almost all of them. It returns the kept points and their count.
func thinDominated(pts []float64, k int) ([]float64, int) {
	n := len(pts) / k
	if n < pivotFilterMin || k < 2 {
		return pts, n
	}
	dom := make([]int32, n)
	for i := range dom {
		dom[i] = -1
	}
	rows := pivotFilter(pts, k, dom)
	if len(rows) == n {
		return pts, n
	}
	out := make([]float64, 0, len(rows)*k)
	for _, r := range rows {
		out = append(out, pts[int(r)*k:int(r)*k+k]...)
	}
	return out, len(rows)
}

// hvCheckShape panics when data is not a valid row-major matrix with k
// columns.
func hvCheckShape(fn string, data []float64, k int) {
	if k < 1 {
		panic(fmt.Sprintf("frontier.%s: k = %d, want k >= 1", fn, k))
	}
	if len(data)%k != 0 {
		panic(fmt.Sprintf("frontier.%s: len(data) = %d is not a multiple of k = %d", fn, len(data), k))
	}
}

// hvKeep returns the points that strictly dominate ref (data itself when
// they all do, else a copy). infinite reports whether the volume is
// unbounded (a kept point has a -Inf coordinate or ref has a +Inf
// coordinate).
func hvKeep(data []float64, k int, ref []float64) (kept []float64, infinite bool) {
	refInf := false
	for _, r := range ref {
		refInf = refInf || math.IsInf(r, 1)
	}
	// Usually every point counts: then data itself is returned (it is
	// only read), without a copy.
	all := true
	for i := 0; i < len(data) && all; i += k {
		for c, v := range data[i : i+k] {
			if !(v < ref[c]) || math.IsInf(v, -1) {
				all = false
				break
			}
		}
	}
	if all {
		return data, refInf && len(data) > 0
	}
	kept = make([]float64, 0, len(data))
	for i := 0; i < len(data); i += k {
		p := data[i : i+k]
		ok := true
		for c, v := range p {
			if !(v < ref[c]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, v := range p {
			infinite = infinite || math.IsInf(v, -1)
		}
		kept = append(kept, p...)
	}
	return kept, infinite || (refInf && len(kept) > 0)
}

// AutoReference returns the reference point used for "--ref auto": for each
// objective, the worst (largest) finite value plus 10% of the objective's
// range, max - min, over the finite values. When the range is zero (a single
// point, or all values equal) 10% of |max| is used instead, and 1 if max is
// also zero, so the rule is well defined for one point. The result is always
// strictly greater than every finite value of its column, so every finite
// point strictly dominates it and counts. An objective without any finite
// value gets +Inf. Empty input gives nil.
//
// Like Hypervolume, AutoReference assumes minimised objectives (negate
// maximised ones first) and panics if k < 1 or len(data) is not a multiple
// of k.
func AutoReference(data []float64, k int) []float64 {
	hvCheckShape("AutoReference", data, k)
	if len(data) == 0 {
		return nil
	}
	ref := make([]float64, k)
	for c := range k {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := c; i < len(data); i += k {
			if v := data[i]; !math.IsInf(v, 0) && !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		ref[c] = autoRef(lo, hi)
	}
	return ref
}

func autoRef(lo, hi float64) float64 {
	if lo > hi {
		return math.Inf(1)
	}
	span := hi - lo
	if span == 0 || math.IsInf(span, 0) {
		span = math.Abs(hi)
	}
	if span == 0 {
		span = 1
	}
	r := hi + 0.1*span
	if !(r > hi) {
		r = math.Nextafter(hi, math.Inf(1))
	}
	return r
}
