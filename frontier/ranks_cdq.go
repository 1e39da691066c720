package frontier

// rkSolver computes ranks of distinct points (k >= 3) given as coordinate
// ranks in lexicographic order, so that every dominator of point i has an
// index < i.
//
// solve is a CDQ divide and conquer over that order: rank the first half,
// push the first half's ranks into the second half's best dominator rank
// (an offline orthant-maximum problem on coordinates 1..k-1, since the
// order already guarantees coordinate 0), then rank the second half.
// cross solves the orthant maximum by splitting on one coordinate at a time
// (sources of the lower half against queries of the upper half recurse on
// the next coordinate) until two coordinates remain, which a sweep with a
// Fenwick tree of prefix maxima solves.
type rkSolver struct {
	u    [][]int32 // coordinate ranks of the unique points
	k    int
	rank []int32 // final rank of each point
	best []int32 // largest rank of a known dominator, -1 if none
	fen  []int32 // prefix-max Fenwick tree over coordinate ranks, -1 = empty
	keys []uint64
	tk   []uint64
	ti   []int32
}

// Items of cross are point indices shifted left by one, low bit 1 for a
// query (a point receiving ranks) and 0 for a source (a ranked point).
const (
	rkBrute      = 24   // solve segments up to this size pairwise
	rkBrutePairs = 1024 // solve cross problems up to sources*queries pairwise
)

func newRkSolver(u [][]int32) *rkSolver {
	n := len(u[0])
	s := &rkSolver{u: u, k: len(u), rank: make([]int32, n), best: make([]int32, n),
		fen: make([]int32, n+1), keys: make([]uint64, n), tk: make([]uint64, n), ti: make([]int32, n)}
	for i := range s.best {
		s.best[i] = -1
	}
	for i := range s.fen {
		s.fen[i] = -1
	}
	return s
}

func (s *rkSolver) solve() []int32 {
	s.segment(0, len(s.rank))
	return s.rank
}

func (s *rkSolver) segment(lo, hi int) {
	if hi-lo <= rkBrute {
		for i := lo; i < hi; i++ {
			for j := lo; j < i; j++ {
				if s.rank[j] > s.best[i] && s.leq(int32(j), int32(i), 1) {
					s.best[i] = s.rank[j]
				}
			}
			s.rank[i] = s.best[i] + 1
		}
		return
	}
	mid := (lo + hi) / 2
	s.segment(lo, mid)
	items := make([]int32, 0, hi-lo)
	for i := lo; i < hi; i++ {
		q := int32(0)
		if i >= mid {
			q = 1
		}
		items = append(items, int32(i)<<1|q)
	}
	s.cross(items, 1)
	s.segment(mid, hi)
}

// leq reports whether point a is <= point b on coordinates d..k-1.
func (s *rkSolver) leq(a, b int32, d int) bool {
	for _, col := range s.u[d:] {
		if col[a] > col[b] {
			return false
		}
	}
	return true
}

// sortItems orders items by coordinate d, sources before queries on ties.
func (s *rkSolver) sortItems(items []int32, d int) {
	keys := s.keys[:len(items)]
	col := s.u[d]
	for j, it := range items {
		keys[j] = uint64(col[it>>1])<<1 | uint64(it&1)
	}
	sortByKeyBuf(keys, items, s.tk, s.ti)
}

// cross raises best[q] to rank[p] for every query q and source p in items
// with p <= q on coordinates d..k-1 (earlier coordinates are already known
// to be <=).
func (s *rkSolver) cross(items []int32, d int) {
	nq := 0
	for _, it := range items {
		nq += int(it & 1)
	}
	ns := len(items) - nq
	switch {
	case nq == 0 || ns == 0:
		return
	case ns*nq <= rkBrutePairs:
		s.crossBrute(items, d)
	case d == s.k-1:
		s.sweep1(items, d)
	case d == s.k-2:
		s.sweep2(items, d)
	default:
		s.sortItems(items, d)
		mid := len(items) / 2
		s.cross(items[:mid], d)
		s.cross(items[mid:], d)
		sub := make([]int32, 0, len(items))
		for _, it := range items[:mid] {
			if it&1 == 0 {
				sub = append(sub, it)
			}
		}
		for _, it := range items[mid:] {
			if it&1 == 1 {
				sub = append(sub, it)
			}
		}
		s.cross(sub, d+1)
	}
}

func (s *rkSolver) crossBrute(items []int32, d int) {
	for _, q := range items {
		if q&1 == 0 {
			continue
		}
		for _, p := range items {
			if p&1 == 0 && s.rank[p>>1] > s.best[q>>1] && s.leq(p>>1, q>>1, d) {
				s.best[q>>1] = s.rank[p>>1]
			}
		}
	}
}

// sweep1 solves cross when only coordinate d remains: a running maximum.
func (s *rkSolver) sweep1(items []int32, d int) {
	s.sortItems(items, d)
	run := int32(-1)
	for _, it := range items {
		if it&1 == 0 {
			run = max(run, s.rank[it>>1])
		} else if i := it >> 1; run > s.best[i] {
			s.best[i] = run
		}
	}
}

// sweep2 solves cross for coordinates d and d+1: sweep in d, prefix-max
// Fenwick tree over d+1.
func (s *rkSolver) sweep2(items []int32, d int) {
	s.sortItems(items, d)
	col := s.u[d+1]
	for _, it := range items {
		i := it >> 1
		if it&1 == 0 {
			for j := col[i] + 1; int(j) < len(s.fen); j += j & -j {
				s.fen[j] = max(s.fen[j], s.rank[i])
			}
			continue
		}
		m := int32(-1)
		for j := col[i] + 1; j > 0; j -= j & -j {
			m = max(m, s.fen[j])
		}
		s.best[i] = max(s.best[i], m)
	}
	for _, it := range items { // undo the updates
		if it&1 == 0 {
			for j := col[it>>1] + 1; int(j) < len(s.fen); j += j & -j {
				s.fen[j] = -1
			}
		}
	}
}
