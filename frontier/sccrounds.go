package frontier

import (
	"math"
	"slices"
)

// sourceComponentsByRounds finds the source strongly connected components
// of the beats graph on rows, a set closed under predecessors (every point
// that beats a member is a member), without visiting every point. Each
// round takes the remaining point with the best range-normalised sum (a
// strict-frontier point, usually in a top cycle), collects the points that
// reach it (scans against the worst of them: usually just its top cycle),
// finds the source components among those exactly, and then
// drops every point they reach with a few orthant scans against the
// strict frontier of what was reached. What remains is again closed under
// predecessors, so the next round is exact too. Members of source
// components get by = -1; the non-trivial components are returned.
func sourceComponentsByRounds(data, m []float64, objs []Objective, q *corners, rows []int32, by []int32) [][]int32 {
	k := len(objs)
	rel := newRelation(objs)
	remaining := slices.Clone(rows)
	var tied [][]int32
	for len(remaining) > 0 {
		root := bestNormalised(m, k, remaining)
		anc, rest, ok := ancestors(data, m, k, rel, root, remaining)
		if !ok {
			// The ancestors' worst points got too many to scan against:
			// finish with the implicit Kosaraju search on what remains.
			tied = append(tied, sourceComponentsImplicit(data, m, objs, q, remaining, by)...)
			break
		}
		if len(anc) > explicitLimit {
			tied = append(tied, sourceComponentsImplicit(data, m, objs, q, anc, by)...)
		} else {
			tied = append(tied, sourceComponents(data, objs, anc, by)...)
		}
		remaining, _ = dropReached(m, k, q, anc, rest)
	}
	slices.SortFunc(tied, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return tied
}

// maxWorst bounds the set of worst ancestors scanned per candidate.
var maxWorst = 512

// ancestors returns the points of rows that reach root (root included) and
// the other rows. A point beats some ancestor exactly when it beats one of
// the ancestors' worst points (those no other ancestor is worse than on
// every objective), because beating a point implies beating every point
// worse than it; so each pass scans the candidates against that small set,
// until a pass adds nothing. ok is false when the worst set outgrows
// maxWorst.
func ancestors(data, m []float64, k int, rel *relation, root int32, rows []int32) (anc, rest []int32, ok bool) {
	anc = []int32{root}
	worst := []int32{root}
	for _, r := range rows {
		if r != root {
			rest = append(rest, r)
		}
	}
	for {
		var keep, added []int32
		for _, c := range rest {
			if beatsAny(data, k, rel, c, worst) {
				added = append(added, c)
			} else {
				keep = append(keep, c)
			}
		}
		rest = keep
		if len(added) == 0 {
			return anc, rest, true
		}
		anc = append(anc, added...)
		worst = worstOf(m, k, append(worst, added...))
		if len(worst) > maxWorst {
			return nil, nil, false
		}
	}
}

func beatsAny(data []float64, k int, rel *relation, c int32, set []int32) bool {
	a := data[int(c)*k : int(c)*k+k]
	for _, b := range set {
		if rel.beats(a, data[int(b)*k:int(b)*k+k]) {
			return true
		}
	}
	return false
}

// worstOf returns the rows that no other row is worse than on every
// objective (the strict frontier of the negated min-oriented values).
func worstOf(m []float64, k int, rows []int32) []int32 {
	neg := make([]float64, 0, len(rows)*k)
	for _, r := range rows {
		for _, v := range m[int(r)*k : int(r)*k+k] {
			neg = append(neg, -v)
		}
	}
	var out []int32
	for i, d := range StrictFront(neg, k) {
		if d < 0 {
			out = append(out, rows[i])
		}
	}
	return out
}

// dropReached splits candidates into those not reachable from seed and
// those reachable (through any chain of beats). A point is beaten by some
// point of a set exactly when it is beaten by a point of the set's strict
// frontier, so each pass is one orthant query per candidate against that
// frontier; passes repeat while they reach new points.
func dropReached(m []float64, k int, q *corners, seed, candidates []int32) (left, reached []int32) {
	front := frontOf(m, k, seed)
	left = candidates
	for len(left) > 0 {
		ix := newOrthantIndex(m, k, front)
		var keep, added []int32
		for _, c := range left {
			le, lt := q.at(int(c))
			if ix.find(le, lt) >= 0 {
				added = append(added, c)
			} else {
				keep = append(keep, c)
			}
		}
		left = keep
		if len(added) == 0 {
			break
		}
		reached = append(reached, added...)
		front = frontOf(m, k, append(front, added...))
	}
	return left, reached
}

// bestNormalised returns the row minimising the sum of its min-oriented
// coordinates scaled to [0, 1] over rows: a strict-frontier point.
func bestNormalised(m []float64, k int, rows []int32) int32 {
	lo, hi := make([]float64, k), make([]float64, k)
	for c := range k {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	for _, r := range rows {
		for c, v := range m[int(r)*k : int(r)*k+k] {
			lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
		}
	}
	best, bestScore := rows[0], math.Inf(1)
	for _, r := range rows {
		s := 0.0
		for c, v := range m[int(r)*k : int(r)*k+k] {
			if w := hi[c] - lo[c]; w > 0 {
				s += (v - lo[c]) / w
			}
		}
		if s < bestScore {
			best, bestScore = r, s
		}
	}
	return best
}
