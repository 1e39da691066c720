package frontier

import "cmp"

// orthantIndex answers "is there a stored point q with q_i <= le_i for every
// i and q_j < lt_j for some j?" over a static set of k-dimensional points.
// Small sets are scanned linearly; larger ones use a k-d tree whose nodes
// carry the componentwise minimum of their subtree, so that whole subtrees
// are pruned when their minimum corner already lies outside the orthant.
type orthantIndex struct {
	k     int
	pts   []float64 // stored points, row-major, in tree order
	ids   []int32   // caller's index of each stored point
	nodes []kdNode
	last  int // position of the last hit, tried first (move-to-front idea)
}

type kdNode struct {
	lo, hi      int32 // range of stored points
	left, right int32 // child nodes, -1 for a leaf
	min         int32 // offset of the subtree minimum corner in mins
}

const kdLeaf = 16

// linearLimit is the size up to which a linear scan answers queries.
const linearLimit = 64

// newOrthantIndex builds an index over the rows ids of data (k columns).
func newOrthantIndex(data []float64, k int, ids []int32) *orthantIndex {
	ix := &orthantIndex{k: k, ids: append([]int32(nil), ids...), last: -1}
	if len(ids) > linearLimit {
		ix.build(data)
	}
	ix.pts = make([]float64, 0, len(ix.ids)*k)
	for _, r := range ix.ids {
		ix.pts = append(ix.pts, data[int(r)*k:int(r)*k+k]...)
	}
	if len(ix.nodes) > 0 {
		ix.computeMins()
	}
	return ix
}

// mins holds the node minimum corners after the points.
func (ix *orthantIndex) build(data []float64) {
	ix.nodes = make([]kdNode, 0, 2*len(ix.ids)/kdLeaf+1)
	ix.split(data, 0, len(ix.ids), 0)
}

func (ix *orthantIndex) split(data []float64, lo, hi, depth int) int32 {
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, kdNode{lo: int32(lo), hi: int32(hi), left: -1, right: -1})
	if hi-lo <= kdLeaf {
		return id
	}
	axis := depth % ix.k
	mid := (lo + hi) / 2
	selectNth(data, ix.k, axis, ix.ids[lo:hi], mid-lo)
	l := ix.split(data, lo, mid, depth+1)
	r := ix.split(data, mid, hi, depth+1)
	ix.nodes[id].left, ix.nodes[id].right = l, r
	return id
}

// computeMins appends every node's minimum corner after the points.
func (ix *orthantIndex) computeMins() {
	k := ix.k
	mins := make([]float64, len(ix.nodes)*k)
	for n := len(ix.nodes) - 1; n >= 0; n-- {
		nd := &ix.nodes[n]
		nd.min = int32(n * k)
		m := mins[n*k : n*k+k]
		if nd.left < 0 {
			copy(m, ix.pts[int(nd.lo)*k:int(nd.lo)*k+k])
			for p := int(nd.lo) + 1; p < int(nd.hi); p++ {
				for c := range k {
					m[c] = min(m[c], ix.pts[p*k+c])
				}
			}
			continue
		}
		a, b := mins[int(nd.left)*k:], mins[int(nd.right)*k:]
		for c := range k {
			m[c] = min(a[c], b[c])
		}
	}
	ix.pts = append(ix.pts, mins...)
}

// find returns the caller's index of a stored point q with q <= le
// everywhere and q_j < lt_j somewhere, or -1.
func (ix *orthantIndex) find(le, lt []float64) int32 {
	if ix.last >= 0 && ix.hit(ix.last, le, lt) {
		return ix.ids[ix.last]
	}
	var p int
	if len(ix.nodes) == 0 {
		p = ix.scan(0, len(ix.ids), le, lt)
	} else {
		p = ix.search(0, le, lt)
	}
	if p < 0 {
		return -1
	}
	ix.last = p
	return ix.ids[p]
}

func (ix *orthantIndex) hit(p int, le, lt []float64) bool {
	return cornerHits(ix.pts[p*ix.k:p*ix.k+ix.k], le, lt)
}

func (ix *orthantIndex) scan(lo, hi int, le, lt []float64) int {
	for p := lo; p < hi; p++ {
		if ix.hit(p, le, lt) {
			return p
		}
	}
	return -1
}

func (ix *orthantIndex) search(n int32, le, lt []float64) int {
	nd := &ix.nodes[n]
	base := len(ix.ids) * ix.k
	m := ix.pts[base+int(nd.min) : base+int(nd.min)+ix.k]
	strict := false
	for c, v := range m {
		if v > le[c] {
			return -1
		}
		if v < lt[c] {
			strict = true
		}
	}
	if !strict {
		return -1
	}
	if nd.left < 0 {
		return ix.scan(int(nd.lo), int(nd.hi), le, lt)
	}
	if p := ix.search(nd.left, le, lt); p >= 0 {
		return p
	}
	return ix.search(nd.right, le, lt)
}

// selectNth partially orders ids so that ids[nth] holds the id with the
// nth smallest key[id*stride+off], smaller or equal keys before it and
// larger or equal after (Hoare's selection with a median-of-three pivot).
// The k-d trees split their rows with it: stride k and off the axis for
// row-major values, stride 1 for a column of ranks.
func selectNth[T cmp.Ordered](key []T, stride, off int, ids []int32, nth int) {
	val := func(i int) T { return key[int(ids[i])*stride+off] }
	lo, hi := 0, len(ids)-1
	for hi > lo {
		a, b, c := val(lo), val(lo+(hi-lo)/2), val(hi)
		pivot := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for val(i) < pivot {
				i++
			}
			for val(j) > pivot {
				j--
			}
			if i <= j {
				ids[i], ids[j] = ids[j], ids[i]
				i++
				j--
			}
		}
		switch {
		case nth <= j:
			hi = j
		case nth >= i:
			lo = i
		default:
			return
		}
	}
}
