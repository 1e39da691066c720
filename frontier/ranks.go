package frontier

import (
	"math"
	"sort"
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
// Algorithms: every coordinate is replaced by its dense rank and duplicates
// are merged; k = 1 is the dense rank; k = 2 is Jensen's sweep with a binary
// search over the fronts' last y (O(n log n)); k >= 3 is a divide and conquer
// on the lexicographic order whose merge step is an offline orthant
// maximum, solved by nested divide and conquer down to a Fenwick-tree sweep
// (O(n log^(k-1) n)).
//
// Ranks panics if k < 1 or len(data) is not a multiple of k.
func Ranks(data []float64, k int) []int32 {
	hvCheckShape("Ranks", data, k)
	n := len(data) / k
	out := make([]int32, n)
	if n == 0 {
		return out
	}
	cr := rkCoordRanks(data, k, n)
	if k == 1 {
		copy(out, cr[0])
		return out
	}
	uniq, u := rkUnique(cr, n)
	var rank []int32
	if k == 2 {
		rank = rkJensen(u)
	} else {
		rank = newRkSolver(u).solve()
	}
	for i, g := range uniq {
		out[i] = rank[g]
	}
	return out
}

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
	for c := k - 1; c >= 0; c-- { // LSD: stable sorts from the last key
		for j, i := range order {
			keys[j] = uint64(cr[c][i])
		}
		sortByKeyBuf(keys, order, tk, ti)
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

// rkJensen ranks distinct 2D points given in lexicographic order: every
// earlier point has x <= the current x, so it dominates the current point iff
// its y is <= the current y. minY[r] is the smallest y seen in front r and is
// non-decreasing in r, so the rank is the number of fronts with minY <= y.
func rkJensen(u [][]int32) []int32 {
	ys := u[1]
	rank := make([]int32, len(ys))
	var minY []int32
	for i, y := range ys {
		r := sort.Search(len(minY), func(j int) bool { return minY[j] > y })
		if r == len(minY) {
			minY = append(minY, y)
		} else {
			minY[r] = y
		}
		rank[i] = int32(r)
	}
	return rank
}
