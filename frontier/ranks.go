package frontier

import (
	"math"
	"slices"
)

// Ranks returns the 0-based non-dominated rank of each of the n =
// len(data)/k points (row-major, every objective minimised) under strict
// Pareto dominance: rank 0 is the strict non-dominated set, and rank r+1
// holds the points whose strict dominators all have rank <= r. Equivalently
// rank(p) = 1 + the largest rank of a point strictly dominating p (the
// longest dominance chain ending at p), which is what the algorithms compute
// without repeated peeling. Exact duplicates share a rank. NaN compares
// worse than every number, including +Inf.
//
// Algorithms: k = 1 is the dense rank of the values; k = 2 is Jensen's
// sweep over one radix sort with a binary search over the fronts' last y
// (O(n log n)); for k >= 3 every coordinate is replaced by its dense rank
// and duplicates are merged, then k = 3 is a divide and conquer on the
// lexicographic order whose merge step is an offline orthant maximum,
// solved by nested divide and conquer down to a Fenwick-tree sweep
// (O(n log² n)), and k >= 4 a sweep in lexicographic order whose orthant
// maxima are searched in a k-d tree of ranks with pruning bounds (O(n²) in
// the worst case, much faster on real and random data; see rkTree).
//
// Ranks panics if k < 1 or len(data) is not a multiple of k.
func Ranks(data []float64, k int) []int32 {
	hvCheckShape("Ranks", data, k)
	n := len(data) / k
	out := make([]int32, n)
	if n == 0 {
		return out
	}
	if k == 2 {
		rkRanks2(data, out)
		return out
	}
	cr := rkCoordRanks(data, k, n)
	if k == 1 {
		copy(out, cr[0])
		return out
	}
	uniq, u := rkUnique(cr, n)
	var rank []int32
	if k >= rkTreeMinK {
		rank = newRkTree(u).solve()
	} else {
		rank = newRkSolver(u).solve()
	}
	for i, g := range uniq {
		out[i] = rank[g]
	}
	return out
}

// rkTreeMinK is the smallest k ranked with rkTree rather than rkSolver.
const rkTreeMinK = 4

// rkKey is hvKey with NaN mapped above +Inf.
func rkKey(v float64) uint64 {
	if math.IsNaN(v) {
		return math.MaxUint64
	}
	return floatKey(v)
}

// rkCoordRanks returns, for each coordinate, the dense rank of every point
// (equal values share a rank).
func rkCoordRanks(data []float64, k, n int) [][]int32 {
	keys, tk := make([]uint64, n), make([]uint64, n)
	idx, ti := make([]int32, n), make([]int32, n)
	cr := make([][]int32, k)
	for c := range k {
		for i := range n {
			keys[i], idx[i] = rkKey(data[i*k+c]), int32(i)
		}
		sortByKeyBuf(keys, idx, tk, ti)
		r := make([]int32, n)
		d := int32(0)
		for j, i := range idx {
			if j > 0 && keys[j] != keys[j-1] {
				d++
			}
			r[i] = d
		}
		cr[c] = r
	}
	return cr
}

// rkUnique sorts the points lexicographically by their coordinate ranks,
// merges duplicates and returns, for each input point, its unique index
// together with the coordinate ranks of the unique points in lexicographic
// order.
func rkUnique(cr [][]int32, n int) (uniq []int32, u [][]int32) {
	k := len(cr)
	keys, tk := make([]uint64, n), make([]uint64, n)
	order, ti := make([]int32, n), make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	// One radix sort on the first coordinate, then each run of equal first
	// coordinates sorted on the others (runs are short unless values repeat).
	for j, i := range order {
		keys[j] = uint64(cr[0][i])
	}
	sortByKeyBuf(keys, order, tk, ti)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && keys[hi] == keys[lo] {
			hi++
		}
		if hi-lo > 1 {
			run := order[lo:hi]
			slices.SortFunc(run, func(a, b int32) int {
				for _, col := range cr[1:] {
					if col[a] != col[b] {
						return int(col[a]) - int(col[b])
					}
				}
				return 0
			})
		}
		lo = hi
	}
	uniq = make([]int32, n)
	u = make([][]int32, k)
	m := int32(-1)
	for j, i := range order {
		if j == 0 || !rkSameRow(cr, i, order[j-1]) {
			m++
			for c := range k {
				u[c] = append(u[c], cr[c][i])
			}
		}
		uniq[i] = m
	}
	return uniq, u
}

func rkSameRow(cr [][]int32, a, b int32) bool {
	for _, col := range cr {
		if col[a] != col[b] {
			return false
		}
	}
	return true
}

// rkRanks2 writes the ranks of the n = len(out) stride-2 points into out:
// Jensen's sweep. One radix sort orders the points by (x, y) key (ties in x
// are rare and sorted per run); in that order an earlier point dominates the
// current one iff its y is <= the current y (an equal point is a duplicate
// and shares the previous rank). minY[r], the y of the last point given rank
// r, is the smallest y of front r and non-decreasing in r, so the rank is
// the number of fronts with minY <= y: the last front is checked first (a
// new front), then a binary search.
func rkRanks2(data []float64, out []int32) {
	n := len(out)
	xk, yk := make([]uint64, n), make([]uint64, n)
	idx := make([]int32, n)
	for i := range n {
		xk[i], yk[i], idx[i] = rkKey(data[2*i]), rkKey(data[2*i+1]), int32(i)
	}
	ys := make([]uint64, n) // y keys in sorted order; first the radix scratch
	ti := make([]int32, n)
	sortByKeyBuf(xk, idx, ys, ti)
	for j, i := range idx {
		ys[j] = yk[i]
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && xk[hi] == xk[lo] {
			hi++
		}
		if hi-lo > 1 {
			sortByKeyBuf(ys[lo:hi], idx[lo:hi], yk, ti)
		}
		lo = hi
	}
	minY := make([]uint64, 0, 64)
	r := 0
	for j, y := range ys {
		switch {
		case j > 0 && y == ys[j-1] && xk[j] == xk[j-1]:
			// a duplicate keeps the previous rank
		case len(minY) == 0 || y >= minY[len(minY)-1]:
			r = len(minY)
			minY = append(minY, y)
		default:
			lo, hi := 0, len(minY)-1 // minY[hi] > y
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if minY[m] > y {
					hi = m
				} else {
					lo = m + 1
				}
			}
			r = lo
			minY[r] = y
		}
		out[idx[j]] = int32(r)
	}
}
