package frontier

import "slices"

// schwartz turns the plain front in by (unbeaten points have -1) into the
// Schwartz set for cyclic parameters. It marks every point of a source
// strongly connected component with -1 and returns the components with
// more than one member.
func schwartz(data, m []float64, objs []Objective, q *corners, by []int32) [][]int32 {
	n := len(by)
	k := len(objs)
	reached := make([]bool, n)
	var reach []int32
	for i, d := range by {
		if d < 0 {
			reached[i] = true
			reach = append(reach, int32(i))
		}
	}
	for len(reach) > 0 {
		ix := newOrthantIndex(m, k, frontOf(m, k, reach))
		var added []int32
		for i := range n {
			if reached[i] {
				continue
			}
			le, lt := q.at(i)
			if d := ix.find(le, lt); d >= 0 {
				reached[i] = true
				by[i] = d
				added = append(added, int32(i))
			}
		}
		if len(added) == 0 {
			break
		}
		reach = append(reach, added...)
	}
	var rest []int32
	for i, r := range reached {
		if !r {
			rest = append(rest, int32(i))
		}
	}
	if len(rest) > explicitLimit {
		return sourceComponentsByRounds(data, m, objs, q, rest, by)
	}
	return sourceComponents(data, objs, rest, by)
}

// frontOf returns the rows of the strict frontier of the given rows.
func frontOf(m []float64, k int, rows []int32) []int32 {
	sub := make([]float64, 0, len(rows)*k)
	for _, r := range rows {
		sub = append(sub, m[int(r)*k:int(r)*k+k]...)
	}
	var front []int32
	for i, d := range StrictFront(sub, k) {
		if d < 0 {
			front = append(front, rows[i])
		}
	}
	return front
}

// sourceComponents builds the beats graph on rows explicitly, finds its
// strongly connected components and marks the members of components that
// no other row beats with by = -1. It returns the non-trivial ones.
func sourceComponents(data []float64, objs []Objective, rows []int32, by []int32) [][]int32 {
	k := len(objs)
	adj := make([][]int32, len(rows))
	for a, ra := range rows {
		pa := data[int(ra)*k : int(ra)*k+k]
		for b, rb := range rows {
			if a != b && Beats(pa, data[int(rb)*k:int(rb)*k+k], objs) {
				adj[a] = append(adj[a], int32(b))
			}
		}
	}
	comp, count := tarjan(adj)
	entered := make([]bool, count)
	for a, out := range adj {
		for _, b := range out {
			if comp[a] != comp[b] {
				entered[comp[b]] = true
			}
		}
	}
	members := make([][]int32, count)
	for a, c := range comp {
		if !entered[c] {
			by[rows[a]] = -1
			members[c] = append(members[c], rows[a])
		}
	}
	var tied [][]int32
	for _, g := range members {
		if len(g) > 1 {
			slices.Sort(g)
			tied = append(tied, g)
		}
	}
	slices.SortFunc(tied, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return tied
}

// tarjan returns the strongly connected component of every node of the
// graph adj and the number of components, iteratively (no recursion).
func tarjan(adj [][]int32) ([]int32, int) {
	n := len(adj)
	index := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int32
	type frame struct{ v, edge int32 }
	var calls []frame
	next, count := int32(0), 0
	for s := range n {
		if index[s] >= 0 {
			continue
		}
		calls = append(calls, frame{int32(s), 0})
		index[s], low[s] = next, next
		next++
		stack = append(stack, int32(s))
		onStack[s] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if int(f.edge) < len(adj[v]) {
				w := adj[v][f.edge]
				f.edge++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(count)
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	return comp, count
}
