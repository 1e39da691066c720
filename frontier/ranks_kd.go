package frontier

// rkTree ranks distinct points (k >= 3) given as coordinate ranks in
// lexicographic order (u[c][i] is coordinate c of point i), so that every
// dominator of point i has an index < i.
//
// The points are visited in that order; rank(i) = 1 + the largest rank of
// an already ranked point that is <= point i on coordinates 1..k-1 (the
// order guarantees coordinate 0, and points are distinct, so such a point
// strictly dominates i). That orthant maximum is answered by a static k-d
// tree over coordinates 1..k-1 of all points whose nodes keep their min and
// max corners and the largest rank ranked so far in their subtree (-1 when
// none): a search skips subtrees that cannot beat the best rank found, or
// whose min corner is not <= the query, takes a subtree whose max corner is
// <= the query whole, and visits the child with the larger rank first.
// Ranking a point raises the maxima on its leaf's path to the root.
//
// Worst case O(n²); on uniform data it is far below the divide and conquer
// of rkSolver for k >= 4, whose O(n log^(k-1) n) has large factors.
type rkTree struct {
	d      int      // dimensions in the tree: k-1
	pts    []int32  // coordinates 1..k-1 by tree position (stride d)
	pos    []int32  // point -> tree position
	point  []int32  // tree position -> point
	nodes  []rkNode // DFS order, root 0
	corner []int32  // per node: min corner then max corner (2d values)
	best   []int32  // per node: largest rank in the subtree, -1 if none
	rank   []int32  // by tree position, -1 until ranked
	leafOf []int32  // tree position -> leaf node
	q      []int32  // query scratch
}

type rkNode struct {
	lo, hi, right, parent int32 // the left child is the next node
}

const rkLeaf = 8

func newRkTree(u [][]int32) *rkTree {
	n, d := len(u[0]), len(u)-1
	t := &rkTree{d: d, point: make([]int32, n), q: make([]int32, d)}
	for i := range t.point {
		t.point[i] = int32(i)
	}
	t.build(u, 0, n, 0, -1)
	t.pts = make([]int32, n*d)
	t.pos = make([]int32, n)
	for p, i := range t.point {
		t.pos[i] = int32(p)
		for c := range d {
			t.pts[p*d+c] = u[c+1][i]
		}
	}
	t.rank = make([]int32, n)
	for i := range t.rank {
		t.rank[i] = -1
	}
	t.best = make([]int32, len(t.nodes))
	for i := range t.best {
		t.best[i] = -1
	}
	t.leafOf = make([]int32, n)
	t.corners()
	return t
}

// build splits point[lo:hi] at the median of coordinate depth%d+1.
func (t *rkTree) build(u [][]int32, lo, hi, depth int, parent int32) {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, rkNode{lo: int32(lo), hi: int32(hi), right: -1, parent: parent})
	if hi-lo <= rkLeaf {
		return
	}
	mid := (lo + hi) / 2
	rkSelect(u[depth%t.d+1], t.point[lo:hi], mid-lo)
	t.build(u, lo, mid, depth+1, id)
	t.nodes[id].right = int32(len(t.nodes))
	t.build(u, mid, hi, depth+1, id)
}

// rkSelect reorders ids so that ids[nth] has the nth smallest key[id],
// smaller or equal keys before it and larger or equal after (Hoare's
// selection with a median-of-three pivot).
func rkSelect(key []int32, ids []int32, nth int) {
	lo, hi := 0, len(ids)-1
	for hi > lo {
		m := lo + (hi-lo)/2
		a, b, c := key[ids[lo]], key[ids[m]], key[ids[hi]]
		pv := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for key[ids[i]] < pv {
				i++
			}
			for key[ids[j]] > pv {
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

// corners computes every node's min and max corner, children before
// parents (reverse DFS order).
func (t *rkTree) corners() {
	d := t.d
	t.corner = make([]int32, len(t.nodes)*2*d)
	for n := len(t.nodes) - 1; n >= 0; n-- {
		nd := t.nodes[n]
		lo, hi := t.corner[n*2*d:n*2*d+d], t.corner[n*2*d+d:n*2*d+2*d]
		if nd.right < 0 {
			copy(lo, t.pts[int(nd.lo)*d:int(nd.lo)*d+d])
			copy(hi, lo)
			for p := nd.lo; p < nd.hi; p++ {
				t.leafOf[p] = int32(n)
				for c, v := range t.pts[int(p)*d : int(p)*d+d] {
					lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
				}
			}
			continue
		}
		l, r := n+1, int(nd.right)
		for c := range d {
			lo[c] = min(t.corner[l*2*d+c], t.corner[r*2*d+c])
			hi[c] = max(t.corner[l*2*d+d+c], t.corner[r*2*d+d+c])
		}
	}
}

// solve returns the rank of every point, by index.
func (t *rkTree) solve() []int32 {
	n := len(t.pos)
	out := make([]int32, n)
	d := t.d
	for i := range n {
		p := t.pos[i]
		copy(t.q, t.pts[int(p)*d:int(p)*d+d])
		r := t.search(0, -1) + 1
		out[i] = r
		t.rank[p] = r
		for nd := t.leafOf[p]; nd >= 0 && t.best[nd] < r; nd = t.nodes[nd].parent {
			t.best[nd] = r
		}
	}
	return out
}

// search returns the largest rank > best of a ranked point <= t.q in the
// subtree of node n, or best if there is none.
func (t *rkTree) search(n int32, best int32) int32 {
	if t.best[n] <= best {
		return best
	}
	d, q := t.d, t.q
	c := t.corner[int(n)*2*d : int(n)*2*d+2*d]
	inside := true
	for j, v := range q {
		if c[j] > v {
			return best
		}
		inside = inside && c[d+j] <= v
	}
	if inside {
		return t.best[n]
	}
	nd := t.nodes[n]
	if nd.right < 0 {
		for p := nd.lo; p < nd.hi; p++ {
			r := t.rank[p]
			if r <= best {
				continue
			}
			le := true
			for j, v := range t.pts[int(p)*d : int(p)*d+d] {
				if v > q[j] {
					le = false
					break
				}
			}
			if le {
				best = r
			}
		}
		return best
	}
	l, r := n+1, nd.right
	if t.best[r] > t.best[l] {
		l, r = r, l
	}
	best = t.search(l, best)
	return t.search(r, best)
}
