package frontier

// dynIndex is a k-d tree over a fixed set of points in which points can be
// switched off and on. Every node keeps the minimum and maximum corner of
// its subtree (in min-oriented space) and how many of its points are on,
// so that searches skip empty subtrees and subtrees whose corner already
// rules the relation out. It serves the strongly connected component
// search of the cyclic noise-aware relation, where every edge query must
// find a not yet visited neighbour.
type dynIndex struct {
	k      int
	objs   []Objective
	ids    []int32   // caller's row of each position
	pts    []float64 // min-oriented coordinates by position
	orig   []float64 // natural coordinates by position
	nodes  []dynNode
	corner []float64 // per node: min corner then max corner (2k values)
	worst  []float64 // per node: the max corner in natural orientation
	rel    *relation
	leafOf []int32 // position -> leaf node
	on     []bool
	buf    []float64
}

type dynNode struct {
	lo, hi, left, right, parent, count int32
}

func newDynIndex(data, m []float64, objs []Objective, rows []int32) *dynIndex {
	k := len(objs)
	ix := &dynIndex{k: k, objs: objs, ids: append([]int32(nil), rows...), buf: make([]float64, k)}
	ix.split(m, 0, len(rows), 0, -1)
	n := len(ix.ids)
	ix.pts, ix.orig = make([]float64, 0, n*k), make([]float64, 0, n*k)
	for _, r := range ix.ids {
		ix.pts = append(ix.pts, m[int(r)*k:int(r)*k+k]...)
		ix.orig = append(ix.orig, data[int(r)*k:int(r)*k+k]...)
	}
	ix.on = make([]bool, n)
	ix.leafOf = make([]int32, n)
	ix.corners()
	ix.worst = make([]float64, len(ix.nodes)*k)
	for nd := range ix.nodes {
		copy(ix.worst[nd*k:nd*k+k], ix.natural(ix.corner[nd*2*k+k:nd*2*k+2*k]))
	}
	ix.rel = newRelation(objs)
	return ix
}

func (ix *dynIndex) split(m []float64, lo, hi, depth int, parent int32) int32 {
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, dynNode{lo: int32(lo), hi: int32(hi), left: -1, right: -1, parent: parent})
	if hi-lo <= kdLeaf {
		return id
	}
	mid := (lo + hi) / 2
	selectNth(m, ix.k, depth%ix.k, ix.ids[lo:hi], mid-lo)
	l := ix.split(m, lo, mid, depth+1, id)
	r := ix.split(m, mid, hi, depth+1, id)
	ix.nodes[id].left, ix.nodes[id].right = l, r
	return id
}

// corners computes every node's min and max corner, bottom up.
func (ix *dynIndex) corners() {
	k := ix.k
	ix.corner = make([]float64, len(ix.nodes)*2*k)
	for n := len(ix.nodes) - 1; n >= 0; n-- {
		nd := &ix.nodes[n]
		lo, hi := ix.corner[n*2*k:n*2*k+k], ix.corner[n*2*k+k:n*2*k+2*k]
		if nd.left < 0 {
			copy(lo, ix.pts[int(nd.lo)*k:int(nd.lo)*k+k])
			copy(hi, lo)
			for p := nd.lo; p < nd.hi; p++ {
				ix.leafOf[p] = int32(n)
				for c, v := range ix.pts[int(p)*k : int(p)*k+k] {
					lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
				}
			}
			continue
		}
		a, b := int(nd.left)*2*k, int(nd.right)*2*k
		for c := range k {
			lo[c] = min(ix.corner[a+c], ix.corner[b+c])
			hi[c] = max(ix.corner[a+k+c], ix.corner[b+k+c])
		}
	}
}

// set switches position p on or off.
func (ix *dynIndex) set(p int32, on bool) {
	if ix.on[p] == on {
		return
	}
	ix.on[p] = on
	d := int32(1)
	if !on {
		d = -1
	}
	for n := ix.leafOf[p]; n >= 0; n = ix.nodes[n].parent {
		ix.nodes[n].count += d
	}
}

// setAll switches every position on or off.
func (ix *dynIndex) setAll(on bool) {
	for p := range ix.on {
		ix.on[p] = on
	}
	for n := range ix.nodes {
		ix.nodes[n].count = 0
		if on {
			ix.nodes[n].count = ix.nodes[n].hi - ix.nodes[n].lo
		}
	}
}

// beater returns a position that is on and beats the point whose
// min-oriented corners are le and lt (see corners.at), or -1.
func (ix *dynIndex) beater(le, lt []float64) int32 { return ix.findBeater(0, le, lt) }

func (ix *dynIndex) findBeater(n int32, le, lt []float64) int32 {
	nd := &ix.nodes[n]
	if nd.count == 0 || !cornerHits(ix.corner[int(n)*2*ix.k:int(n)*2*ix.k+ix.k], le, lt) {
		return -1
	}
	if nd.left >= 0 {
		if p := ix.findBeater(nd.left, le, lt); p >= 0 {
			return p
		}
		return ix.findBeater(nd.right, le, lt)
	}
	for p := nd.lo; p < nd.hi; p++ {
		if ix.on[p] && cornerHits(ix.pts[int(p)*ix.k:int(p)*ix.k+ix.k], le, lt) {
			return p
		}
	}
	return -1
}

// cornerHits reports q <= le everywhere and q < lt somewhere.
func cornerHits(q, le, lt []float64) bool {
	strict := false
	for c, v := range q {
		if v > le[c] {
			return false
		}
		if v < lt[c] {
			strict = true
		}
	}
	return strict
}

// beaten returns a position that is on and that the natural-space point a
// beats, or -1. Beats(a, ·) only gets easier as the other point gets worse,
// so a subtree is skipped when a does not beat its worst corner.
func (ix *dynIndex) beaten(a []float64) int32 { return ix.findBeaten(0, a) }

func (ix *dynIndex) findBeaten(n int32, a []float64) int32 {
	nd := &ix.nodes[n]
	if nd.count == 0 || !ix.rel.beats(a, ix.worst[int(n)*ix.k:int(n)*ix.k+ix.k]) {
		return -1
	}
	if nd.left >= 0 {
		if p := ix.findBeaten(nd.left, a); p >= 0 {
			return p
		}
		return ix.findBeaten(nd.right, a)
	}
	for p := nd.lo; p < nd.hi; p++ {
		if ix.on[p] && ix.rel.beats(a, ix.orig[int(p)*ix.k:int(p)*ix.k+ix.k]) {
			return p
		}
	}
	return -1
}

// natural maps a min-oriented corner back to natural values (exact: only
// signs change).
func (ix *dynIndex) natural(c []float64) []float64 {
	for i, o := range ix.objs {
		ix.buf[i] = c[i]
		if o.Direction == Maximize {
			ix.buf[i] = -c[i]
		}
	}
	return ix.buf
}

// relation is Beats with the band factors computed once.
type relation struct {
	max            []bool
	bandLo, bandHi []float64 // 1-σ and 1+σ
	winLo, winHi   []float64 // 1-δ and 1+δ
}

func newRelation(objs []Objective) *relation {
	r := &relation{}
	for _, o := range objs {
		r.max = append(r.max, o.Direction == Maximize)
		r.bandLo, r.bandHi = append(r.bandLo, 1-o.Noise), append(r.bandHi, 1+o.Noise)
		r.winLo, r.winHi = append(r.winLo, 1-o.MinImprove), append(r.winHi, 1+o.MinImprove)
	}
	return r
}

// beats is Beats(a, b, objs) with the same floating-point operations.
func (r *relation) beats(a, b []float64) bool {
	win := false
	for i, mx := range r.max {
		if mx {
			if a[i] < b[i]*r.bandLo[i] {
				return false
			}
			win = win || a[i] > b[i]*r.winHi[i]
			continue
		}
		if a[i] > b[i]*r.bandHi[i] {
			return false
		}
		win = win || a[i] < b[i]*r.winLo[i]
	}
	return win
}
