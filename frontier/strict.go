package frontier

import (
	"math"
	"slices"
	"sync"
)

// StrictFront finds the strict Pareto frontier of n = len(data)/k points
// given row-major with k minimised objectives. It returns, for every point,
// the index of a point that strictly dominates it, or -1 when none does (the
// point is on the frontier). Exact duplicates do not dominate each other.
// The reported dominator is itself on the frontier.
//
// Values must be finite. Large inputs are first thinned by a few frontier
// "pivots" (minimisers of positively weighted sums) in one linear pass;
// the survivors are then resolved exactly: a sort-and-sweep for k = 2, a
// sweep with a Fenwick tree of minima for k = 3 (both O(n log n)) and a
// k-d tree of subtree minima for k >= 4.
//
// StrictFront panics if k < 1 or len(data) is not a multiple of k.
func StrictFront(data []float64, k int) []int32 {
	if k < 1 || len(data)%k != 0 {
		panic("frontier: StrictFront: data length is not a multiple of k")
	}
	n := len(data) / k
	dom := make([]int32, n)
	for i := range dom {
		dom[i] = -1
	}
	if n <= 1 {
		return dom
	}
	resolveStrict(data, k, pivotFilter(data, k, dom), dom)
	liftDominators(dom)
	return dom
}

// resolveStrict marks in dom a dominator of every dominated row of rows
// (not yet lifted to the frontier).
func resolveStrict(data []float64, k int, rows []int32, dom []int32) {
	switch {
	case k == 1:
		front1(data, rows, dom)
	case k == 2:
		front2(data, rows, dom)
	case k == 3:
		front3(data, rows, dom)
	default:
		frontKD(data, k, rows, dom)
	}
}

// liftDominators replaces every dominated dominator by its own dominator,
// so that each reported dominator is on the frontier. Strict dominance is
// acyclic and transitive, so the chains end on the frontier.
func liftDominators(dom []int32) {
	for r, d := range dom {
		for d >= 0 && dom[d] >= 0 {
			d = dom[d]
		}
		dom[r] = d
	}
}

// dominates reports whether row a strictly dominates row b.
func dominates(data []float64, k int, a, b int32) bool {
	pa, pb := data[int(a)*k:int(a)*k+k], data[int(b)*k:int(b)*k+k]
	strict := false
	for c := range pa {
		if pa[c] > pb[c] {
			return false
		}
		if pa[c] < pb[c] {
			strict = true
		}
	}
	return strict
}

// pivotFilterMin is the input size from which pivot thinning pays off.
const pivotFilterMin = 512

// pivotFilter marks in dom the points dominated by one of k+1 pivots and
// returns the rows that remain undecided. Each pivot minimises a positively
// weighted sum of range-normalised objectives, so it lies on the frontier.
func pivotFilter(data []float64, k int, dom []int32) []int32 {
	n := len(dom)
	if n < pivotFilterMin {
		return allRows(n)
	}
	pivots := findPivots(data, k, n)
	rows := make([]int32, 0, 1024)
	last := 0
	for i := range n {
		r := int32(i)
		if dominates(data, k, pivots[last], r) {
			dom[i] = pivots[last]
			continue
		}
		found := false
		for p, pv := range pivots {
			if p != last && dominates(data, k, pv, r) {
				dom[i], last, found = pv, p, true
				break
			}
		}
		if !found {
			rows = append(rows, r)
		}
	}
	return rows
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// findPivots returns the minimisers of k+1 weighted sums: equal weights on
// range-normalised objectives, and the same with one objective weighted 4×.
func findPivots(data []float64, k, n int) []int32 {
	lo := make([]float64, k)
	hi := make([]float64, k)
	copy(lo, data[:k])
	copy(hi, data[:k])
	for i := 1; i < n; i++ {
		for c, v := range data[i*k : i*k+k] {
			lo[c] = min(lo[c], v)
			hi[c] = max(hi[c], v)
		}
	}
	pv := newPivots(lo, hi)
	for i := range n {
		pv.add(int32(i), data[i*k:i*k+k])
	}
	return pv.arg
}

// pivots keeps the minimisers of findPivots' k+1 weighted sums over the
// rows added so far.
type pivots struct {
	lo, w []float64
	best  []float64 // the smallest sum of each weighting
	arg   []int32   // the row that has it
}

// newPivots starts the minimisers for rows within [lo, hi].
func newPivots(lo, hi []float64) *pivots {
	k := len(lo)
	pv := &pivots{lo: lo, w: pivotWeights(lo, hi), best: make([]float64, k+1), arg: make([]int32, k+1)}
	for j := range pv.best {
		pv.best[j] = math.Inf(1)
	}
	return pv
}

// add scores row i, whose values are x, by every weighted sum.
func (pv *pivots) add(i int32, x []float64) {
	lo, w := pv.lo, pv.w
	s := 0.0
	for c, v := range x {
		s += (v - lo[c]) * w[c]
	}
	if s < pv.best[0] {
		pv.best[0], pv.arg[0] = s, i
	}
	for c, v := range x {
		t := s + 3*(v-lo[c])*w[c]
		if t < pv.best[c+1] {
			pv.best[c+1], pv.arg[c+1] = t, i
		}
	}
}

// pivotWeights returns the weights of findPivots' sums: one over each
// objective's range (1 when the range is empty or infinite).
func pivotWeights(lo, hi []float64) []float64 {
	w := make([]float64, len(lo))
	for c := range w {
		w[c] = 1
		if r := hi[c] - lo[c]; r > 0 && !math.IsInf(r, 0) {
			w[c] = 1 / r
		}
	}
	return w
}

// front1 resolves one objective: the minimum and its copies survive.
func front1(data []float64, rows []int32, dom []int32) {
	best := rows[0]
	for _, r := range rows {
		if data[r] < data[best] {
			best = r
		}
	}
	for _, r := range rows {
		if data[r] > data[best] {
			dom[r] = best
		}
	}
}

// front2 sweeps rows in lexicographic order keeping the best second value.
func front2(data []float64, rows []int32, dom []int32) {
	sortRowsLex(data, 2, rows)
	best := rows[0]
	for _, r := range rows[1:] {
		x, y := data[2*r], data[2*r+1]
		bx, by := data[2*best], data[2*best+1]
		switch {
		case y < by:
			best = r
		case y == by && x == bx:
			// a copy of a frontier point: a tie, not dominated
		default:
			dom[r] = best
		}
	}
}

// front3 sweeps rows in lexicographic order; a Fenwick tree over the ranks
// of the second coordinate keeps the minimum third coordinate seen so far.
// Groups of identical points are queried before any of them is inserted,
// so a hit is always a different, earlier point.
func front3(data []float64, rows []int32, dom []int32) {
	// The lexicographic sort and the ranks of the second coordinate are
	// independent: compute them on both cores.
	rankOf := make([]int32, len(data)/3)
	var m int
	var wg sync.WaitGroup
	orig := slices.Clone(rows)
	wg.Go(func() {
		var rank []int32
		rank, m = ranksOf(data, 3, 1, orig)
		for i, r := range orig {
			rankOf[r] = rank[i]
		}
	})
	sortRowsLex(data, 3, rows)
	// Gather the sorted points once: every later pass is then sequential.
	pts := make([]float64, 3*len(rows))
	for i, r := range rows {
		copy(pts[3*i:3*i+3], data[3*r:3*r+3])
	}
	wg.Wait()
	fw := newMinFenwick(m)
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && pts[3*hi] == pts[3*lo] && pts[3*hi+1] == pts[3*lo+1] && pts[3*hi+2] == pts[3*lo+2] {
			hi++
		}
		z, rank := pts[3*lo+2], rankOf[rows[lo]]
		if best, arg := fw.prefixMin(rank); best <= z {
			for _, d := range rows[lo:hi] {
				dom[d] = rows[arg]
			}
		} else {
			fw.update(rank, z, int32(lo))
		}
		lo = hi
	}
}

// sameRow reports whether rows a and b hold identical vectors.
func sameRow(data []float64, k int, a, b int32) bool {
	for c := range k {
		if data[int(a)*k+c] != data[int(b)*k+c] {
			return false
		}
	}
	return true
}

// ranksOf returns, aligned with rows, the 1-based dense rank of each row's
// value in column col, and the number of distinct values.
func ranksOf(data []float64, k, col int, rows []int32) ([]int32, int) {
	keys := make([]uint64, len(rows))
	pos := make([]int32, len(rows))
	for i, r := range rows {
		keys[i] = floatKey(data[int(r)*k+col])
		pos[i] = int32(i)
	}
	sortByKey(keys, pos)
	rank := make([]int32, len(rows))
	m := int32(0)
	for i, p := range pos {
		if i == 0 || keys[i] != keys[i-1] {
			m++
		}
		rank[p] = m
	}
	return rank, int(m)
}

// minFenwick is a Fenwick tree of prefix minima with the argmin attached.
type minFenwick struct {
	val []float64
	arg []int32
}

func newMinFenwick(m int) *minFenwick {
	f := &minFenwick{val: make([]float64, m+1), arg: make([]int32, m+1)}
	for i := range f.val {
		f.val[i] = math.Inf(1)
		f.arg[i] = -1
	}
	return f
}

func (f *minFenwick) update(i int32, v float64, arg int32) {
	for ; int(i) < len(f.val); i += i & -i {
		if v < f.val[i] {
			f.val[i], f.arg[i] = v, arg
		}
	}
}

// prefixMin returns the minimum over ranks 1..i and the argument stored
// with it. Only the values are read while scanning (one array, fewer cache
// misses); the argument is looked up once at the end.
func (f *minFenwick) prefixMin(i int32) (float64, int32) {
	v, at := math.Inf(1), int32(0)
	for ; i > 0; i -= i & -i {
		if x := f.val[i]; x < v {
			v, at = x, i
		}
	}
	if at == 0 {
		return v, -1
	}
	return v, f.arg[at]
}

// frontKD resolves k >= 4 with a k-d tree over the undecided rows: a row
// is dominated iff some stored point is <= it everywhere and < somewhere.
func frontKD(data []float64, k int, rows []int32, dom []int32) {
	ix := newOrthantIndex(data, k, rows)
	for _, r := range rows {
		p := data[int(r)*k : int(r)*k+k]
		if d := ix.find(p, p); d >= 0 {
			dom[r] = d
		}
	}
}
