package frontier

// HypervolumeContributions returns the exclusive hypervolume contribution of
// each of the n = len(data)/k points (row-major, minimised) with respect to
// ref: the hypervolume of the set minus the hypervolume of the set without
// that point. Points that do not strictly dominate ref, dominated points and
// every copy of a duplicated point contribute 0.
//
// With ignoreDominated, dominated points are removed before the
// contributions of the others are computed, so they cannot shrink them; this
// is moocore's default since version 0.17 (hv --contributions,
// hv_contributions(ignore_dominated=TRUE)). Without it, the set includes the
// dominated points, as in the textbook definition.
//
// With ignoreDominated and k = 2 it uses one sort and the staircase
// neighbours (O(n log n)); otherwise each contribution is computed from the
// points limited to its box, as the sweeps of Hypervolume do (O(n² log n)
// for k <= 3).
//
// It panics under the same conditions as Hypervolume.
func HypervolumeContributions(data []float64, k int, ref []float64, ignoreDominated bool) []float64 {
	hvCheckShape("HypervolumeContributions", data, k)
	if len(ref) != k {
		panic("frontier.HypervolumeContributions: len(ref) != k")
	}
	n := len(data) / k
	out := make([]float64, n)
	keep := make([]int32, 0, n)
	kept := make([]float64, 0, len(data))
	for i := range n {
		p := data[i*k : (i+1)*k]
		ok := true
		for c, v := range p {
			ok = ok && v < ref[c]
		}
		if ok {
			keep = append(keep, int32(i))
			kept = append(kept, p...)
		}
	}
	if ignoreDominated {
		keep, kept = hvNonDominated(keep, kept, k)
	}
	var e hvEngine
	if k == 2 && ignoreDominated {
		e.hvc2(kept, ref, keep, out)
		return out
	}
	var lim []float64
	for j, i := range keep {
		p := kept[j*k : (j+1)*k]
		lim = lim[:0]
		dominated := false
		for t := range keep {
			if t == j {
				continue
			}
			s := kept[t*k : (t+1)*k]
			le := true
			for c, v := range s {
				le = le && v <= p[c]
				lim = append(lim, max(v, p[c]))
			}
			if le {
				dominated = true
				break
			}
		}
		if !dominated {
			out[i] = e.excl(p, lim, len(lim)/k, k, ref)
		}
	}
	return out
}

// hvc2 writes the 2D contributions of the kept points (stride 2) to
// out[keep[j]]: a point on the staircase owns the rectangle between its
// neighbours; points with an equal neighbour own nothing.
func (e *hvEngine) hvc2(kept, ref []float64, keep []int32, out []float64) {
	n := len(keep)
	if n == 0 {
		return
	}
	// sort by x, then y: sort by y first, then stably by x.
	order := make([]int32, n)
	copy(order, e.sortBy(kept, n, 2, 1))
	keys := make([]uint64, n)
	for j, i := range order {
		keys[j] = floatKey(kept[2*i])
	}
	sortByKeyBuf(keys, order, make([]uint64, n), make([]int32, n))
	var stair []int32 // staircase in x order, y strictly decreasing
	var dup []bool    // the staircase point has a copy
	for j, i := range order {
		y := kept[2*i+1]
		if len(stair) > 0 && kept[2*stair[len(stair)-1]+1] <= y {
			continue // weakly dominated, or a later copy
		}
		stair = append(stair, i)
		dup = append(dup, j+1 < n && kept[2*order[j+1]] == kept[2*i] && kept[2*order[j+1]+1] == y)
	}
	for s, i := range stair {
		top, right := ref[1], ref[0]
		if s > 0 {
			top = kept[2*stair[s-1]+1]
		}
		if s+1 < len(stair) {
			right = kept[2*stair[s+1]]
		}
		if !dup[s] {
			out[keep[i]] = (right - kept[2*i]) * (top - kept[2*i+1])
		}
	}
}

// hvNonDominated keeps the points of kept (stride k) that no other point
// strictly dominates.
func hvNonDominated(keep []int32, kept []float64, k int) ([]int32, []float64) {
	rank := Ranks(kept, k)
	j := 0
	for t, r := range rank {
		if r == 0 {
			keep[j] = keep[t]
			copy(kept[j*k:(j+1)*k], kept[t*k:(t+1)*k])
			j++
		}
	}
	return keep[:j], kept[:j*k]
}
