package frontier

import "math"

// rkTree ranks distinct points (k >= 3) given as coordinate ranks in
// lexicographic order (u[c][i] is coordinate c of point i), so that every
// dominator of point i has an index < i.
//
// The points are visited in that order; rank(i) = 1 + the largest rank of
// an already ranked point that is <= point i on coordinates 1..k-1 (the
// order guarantees coordinate 0, and points are distinct, so such a point
// strictly dominates i). That orthant maximum is answered by a static k-d
// tree over coordinates 1..k-1 of all points. Each node keeps its min
// corner, the largest rank ranked so far in its subtree (-1 when none) and
// the min corners of its ranked points of that rank and of the rank below:
// a node whose min corner is not <= the query holds no candidate, and one
// whose best-rank corner is not <= the query offers at most that rank - 1
// (- 2 when the second corner is not either). A depth-first search skips
// the nodes that cannot beat the best rank found, visiting the child with
// the larger rank first. Ranking a point updates the records on its leaf's
// path to the root, up to the first it does not change.
//
// Worst case O(n²); on uniform data it is far below the divide and conquer
// of rkSolver for k >= 4, whose O(n log^(k-1) n) has large factors.
type rkTree struct {
	d      int      // dimensions in the tree: k-1
	pts    []int32  // coordinates 1..k-1 by tree position (stride d)
	pos    []int32  // point -> tree position
	point  []int32  // tree position -> point
	nodes  []rkNode // DFS order, root 0 (building and updates)
	rec    []int32  // per node, stride 4+3d: best rank, lo, hi, right, min corner, min corners of the points of rank best and best-1
	rank   []int32  // by tree position, -1 until ranked
	leafOf []int32  // tree position -> leaf node
	q      []int32  // query scratch
	stack  []rkItem
}

// The fields of a node record in rkTree.rec; best is the largest rank in
// the subtree, -1 if none, and right is -1 for a leaf.
const (
	rkBest = iota
	rkLo
	rkHi
	rkRight
	rkCorner
)

type rkNode struct {
	lo, hi, right, parent int32 // the left child is the next node
}

const rkLeaf = 32

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
	selectNth(u[depth%t.d+1], 1, 0, t.point[lo:hi], mid-lo)
	t.build(u, lo, mid, depth+1, id)
	t.nodes[id].right = int32(len(t.nodes))
	t.build(u, mid, hi, depth+1, id)
}

// corners fills every node's record, children before parents (reverse
// DFS order): the min corner of its points, no rank yet.
func (t *rkTree) corners() {
	d := t.d
	st := rkCorner + 3*d
	t.rec = make([]int32, len(t.nodes)*st)
	for n := len(t.nodes) - 1; n >= 0; n-- {
		nd := t.nodes[n]
		r := t.rec[n*st : n*st+st]
		r[rkBest], r[rkLo], r[rkHi], r[rkRight] = -1, nd.lo, nd.hi, nd.right
		lo := r[rkCorner : rkCorner+d]
		for c := range 2 * d {
			r[rkCorner+d+c] = math.MaxInt32 // no points of rank best or best-1 yet
		}
		if nd.right < 0 {
			copy(lo, t.pts[int(nd.lo)*d:int(nd.lo)*d+d])
			for p := nd.lo; p < nd.hi; p++ {
				t.leafOf[p] = int32(n)
				for c, v := range t.pts[int(p)*d : int(p)*d+d] {
					lo[c] = min(lo[c], v)
				}
			}
			continue
		}
		a, b := t.rec[(n+1)*st:(n+2)*st], t.rec[int(nd.right)*st:int(nd.right+1)*st]
		for c := range d {
			lo[c] = min(a[rkCorner+c], b[rkCorner+c])
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
		r := t.search() + 1
		out[i] = r
		t.rank[p] = r
		t.raise(p, r)
	}
	return out
}

// raise records rank r of the point at tree position p in the records of
// its leaf and their ancestors: the best rank and the min corner of the
// points having it. It stops at the first record it does not change (the
// ones above have a larger rank or a corner already below p).
func (t *rkTree) raise(p, r int32) {
	d := t.d
	st := rkCorner + 3*d
	pt := t.pts[int(p)*d : int(p)*d+d]
	for nd := t.leafOf[p]; nd >= 0; nd = t.nodes[nd].parent {
		rec := t.rec[int(nd)*st : int(nd)*st+st]
		top, top2 := rec[rkCorner+d:rkCorner+2*d], rec[rkCorner+2*d:rkCorner+3*d]
		switch b := rec[rkBest]; {
		case r > b:
			rec[rkBest] = r
			if r == b+1 {
				copy(top2, top)
			} else {
				for c := range top2 {
					top2[c] = math.MaxInt32
				}
			}
			copy(top, pt)
		case r == b:
			if !rkLower(top, pt) {
				return
			}
		case r == b-1:
			if !rkLower(top2, pt) {
				return
			}
		default:
			return
		}
	}
}

// rkLower lowers corner to its minimum with pt and reports whether it
// changed.
func rkLower(corner, pt []int32) bool {
	changed := false
	for c, v := range pt {
		if v < corner[c] {
			corner[c], changed = v, true
		}
	}
	return changed
}

// bound returns the largest rank that node n can offer to the query t.q:
// -2 when its min corner is not <= t.q, else its best rank, less one when
// the corner of its best-rank points is not <= t.q, less two when that of
// the rank below is not either.
func (t *rkTree) bound(n int) int32 {
	d, q := t.d, t.q
	st := rkCorner + 3*d
	r := t.rec[n*st : n*st+st]
	lo := r[rkCorner : rkCorner+d]
	top, top2 := r[rkCorner+d:rkCorner+2*d], r[rkCorner+2*d:rkCorner+3*d]
	out, below, below2 := false, true, true
	for j, v := range q {
		out = out || lo[j] > v
		below = below && top[j] <= v
		below2 = below2 && top2[j] <= v
	}
	switch {
	case out:
		return -2
	case below:
		return r[rkBest]
	case below2:
		return r[rkBest] - 1
	}
	return r[rkBest] - 2
}

type rkItem struct{ node, bound int32 }

// search returns the largest rank of a ranked point <= t.q, or -1: a
// depth-first branch and bound from the root, the child with the larger
// bound first, skipping nodes whose bound does not beat the best rank
// found.
func (t *rkTree) search() int32 {
	d, q, rec := t.d, t.q, t.rec
	st := rkCorner + 3*d
	best, maxRank := int32(-1), rec[rkBest]
	stack := append(t.stack[:0], rkItem{0, t.bound(0)})
	for len(stack) > 0 && best < maxRank {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.bound <= best {
			continue
		}
		n := int(it.node)
		r := rec[n*st : n*st+st]
		right := int(r[rkRight])
		if right < 0 {
			for p := r[rkLo]; p < r[rkHi]; p++ {
				rk := t.rank[p]
				if rk <= best {
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
					best = rk
				}
			}
			continue
		}
		left := n + 1
		bl, br := t.bound(left), t.bound(right)
		if br > bl {
			left, right, bl, br = right, left, br, bl
		}
		if br > best {
			stack = append(stack, rkItem{int32(right), br})
		}
		if bl > best {
			stack = append(stack, rkItem{int32(left), bl})
		}
	}
	t.stack = stack
	return best
}
