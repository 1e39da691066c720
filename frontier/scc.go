package frontier

import "slices"

// explicitLimit is the remainder size up to which the beats graph is built
// explicitly (O(r²) comparisons); larger remainders use implicit edges.
const explicitLimit = 2048

// sourceComponentsImplicit finds the strongly connected components of the
// beats graph on rows without building it: Kosaraju's two depth-first
// passes, where each step asks a dynIndex for a not yet visited neighbour
// (every query either visits a new point or finishes one, so there are
// about 2r queries per pass). The second pass finds the components in
// topological order, so a component is a source exactly when no point of
// an earlier component beats one of its points. Members of source
// components get by = -1; the non-trivial ones are returned.
func sourceComponentsImplicit(data, m []float64, objs []Objective, q *corners, rows []int32, by []int32) [][]int32 {
	ix := newDynIndex(data, m, objs, rows)
	order := ix.finishOrder()
	comps := ix.components(q, order)
	ix.setAll(false)
	var tied [][]int32
	for _, c := range comps {
		source := true
		for _, p := range c {
			le, lt := q.at(int(ix.ids[p]))
			if ix.beater(le, lt) >= 0 {
				source = false
				break
			}
		}
		for _, p := range c {
			ix.set(p, true)
		}
		if !source {
			continue
		}
		g := make([]int32, len(c))
		for i, p := range c {
			g[i] = ix.ids[p]
			by[ix.ids[p]] = -1
		}
		if len(g) > 1 {
			slices.Sort(g)
			tied = append(tied, g)
		}
	}
	slices.SortFunc(tied, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return tied
}

// finishOrder runs the first pass: depth-first over "beats" edges, returning
// positions in order of completion.
func (ix *dynIndex) finishOrder() []int32 {
	ix.setAll(true)
	order := make([]int32, 0, len(ix.ids))
	var stack []int32
	for s := range int32(len(ix.ids)) {
		if !ix.on[s] {
			continue
		}
		ix.set(s, false)
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			if u := ix.beaten(ix.orig[int(v)*ix.k : int(v)*ix.k+ix.k]); u >= 0 {
				ix.set(u, false)
				stack = append(stack, u)
				continue
			}
			stack = stack[:len(stack)-1]
			order = append(order, v)
		}
	}
	return order
}

// components runs the second pass: over reversed edges, from the last
// finished position down, collecting one component per search.
func (ix *dynIndex) components(q *corners, order []int32) [][]int32 {
	ix.setAll(true)
	var comps [][]int32
	var stack []int32
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		if !ix.on[s] {
			continue
		}
		ix.set(s, false)
		comp := []int32{s}
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			le, lt := q.at(int(ix.ids[v]))
			if u := ix.beater(le, lt); u >= 0 {
				ix.set(u, false)
				comp = append(comp, u)
				stack = append(stack, u)
				continue
			}
			stack = stack[:len(stack)-1]
		}
		comps = append(comps, comp)
	}
	return comps
}
