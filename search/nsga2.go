package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/pareto-llm/pareto/frontier"
)

// NSGA-II (Deb, Pratap, Agarwal and Meyarivan, 2002) over the internal
// coordinates of a space's parameters (Param.bounds): survivors by
// constrained non-dominated rank and crowding distance, parents by binary
// tournament, children by simulated binary crossover and polynomial
// mutation on numeric parameters, uniform crossover and random reset on
// categorical ones.

// individual is one evaluated member of a pool.
type individual struct {
	id        int       // trial ID, the deterministic tie-break
	obj       []float64 // objectives, every one minimised
	violation float64   // 0 when feasible
}

// constrainedRanks returns each individual's rank under constrained
// domination (Deb 2002): a feasible individual dominates every
// infeasible one; two feasible ones compare by Pareto dominance (ranked
// by frontier.Ranks); two infeasible ones by violation, smaller first.
// So the feasible ranks come first, then one rank per distinct
// violation, smallest first.
func constrainedRanks(pop []individual, k int) []int32 {
	ranks := make([]int32, len(pop))
	var feas []int
	var data []float64
	for i := range pop {
		if pop[i].violation == 0 {
			feas = append(feas, i)
			data = append(data, pop[i].obj...)
		}
	}
	next := int32(0)
	if len(feas) > 0 {
		fr := frontier.Ranks(data, k)
		for j, i := range feas {
			ranks[i] = fr[j]
			next = max(next, fr[j]+1)
		}
	}
	var inf []int
	for i := range pop {
		if pop[i].violation != 0 {
			inf = append(inf, i)
		}
	}
	sort.SliceStable(inf, func(a, b int) bool { return pop[inf[a]].violation < pop[inf[b]].violation })
	for j, i := range inf {
		if j > 0 && pop[i].violation != pop[inf[j-1]].violation {
			next++
		}
		ranks[i] = next
	}
	return ranks
}

// crowding returns the crowding distance of each member of a front
// (indices into pop): per objective, the members sorted by value (ties by
// id) give the two extremes +Inf and every other member the gap between
// its neighbours over the objective's range; the distance is the sum.
func crowding(pop []individual, front []int, k int) []float64 {
	d := make([]float64, len(front))
	order := make([]int, len(front))
	for m := range k {
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool {
			x, y := pop[front[order[a]]], pop[front[order[b]]]
			if x.obj[m] != y.obj[m] {
				return x.obj[m] < y.obj[m]
			}
			return x.id < y.id
		})
		lo, hi := pop[front[order[0]]].obj[m], pop[front[order[len(order)-1]]].obj[m]
		d[order[0]], d[order[len(order)-1]] = math.Inf(1), math.Inf(1)
		if hi == lo {
			continue
		}
		for i := 1; i < len(order)-1; i++ {
			d[order[i]] += (pop[front[order[i+1]]].obj[m] - pop[front[order[i-1]]].obj[m]) / (hi - lo)
		}
	}
	return d
}

// ranked is the rank and crowding distance of every member of a pool.
type ranked struct {
	rank  []int32
	crowd []float64
}

// rankPool computes ranks and, front by front, crowding distances.
func rankPool(pop []individual, k int) ranked {
	r := ranked{rank: constrainedRanks(pop, k), crowd: make([]float64, len(pop))}
	for _, front := range fronts(r.rank) {
		for i, c := range crowding(pop, front, k) {
			r.crowd[front[i]] = c
		}
	}
	return r
}

// fronts groups indices by rank, best first, each in index order.
func fronts(rank []int32) [][]int {
	var out [][]int
	for i, r := range rank {
		for int(r) >= len(out) {
			out = append(out, nil)
		}
		out[r] = append(out[r], i)
	}
	return slices.DeleteFunc(out, func(f []int) bool { return len(f) == 0 })
}

// selectSurvivors returns the indices (sorted) of the n members of pop
// that NSGA-II keeps: whole fronts in rank order while they fit, then the
// members of the next front with the largest crowding distance (computed
// over that whole front), ties by smaller id.
func selectSurvivors(pop []individual, k, n int) []int {
	if n >= len(pop) {
		out := make([]int, len(pop))
		for i := range out {
			out[i] = i
		}
		return out
	}
	var out []int
	for _, front := range fronts(constrainedRanks(pop, k)) {
		if len(out)+len(front) <= n {
			out = append(out, front...)
			continue
		}
		d := crowding(pop, front, k)
		idx := make([]int, len(front))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool {
			if d[idx[a]] != d[idx[b]] {
				return d[idx[a]] > d[idx[b]]
			}
			return pop[front[idx[a]]].id < pop[front[idx[b]]].id
		})
		for _, i := range idx[:n-len(out)] {
			out = append(out, front[i])
		}
		break
	}
	slices.Sort(out)
	return out
}

// better reports whether a wins a tournament against b: lower rank, then
// larger crowding distance.
func (r *ranked) better(a, b int) bool {
	if r.rank[a] != r.rank[b] {
		return r.rank[a] < r.rank[b]
	}
	return r.crowd[a] > r.crowd[b]
}

// tournament picks a parent by binary tournament among n members: two
// distinct members drawn at random, the better wins (the first drawn on a
// tie).
func (r *ranked) tournament(rng *rand.Rand, n int) int {
	if n == 1 {
		return 0
	}
	a := rng.IntN(n)
	b := rng.IntN(n - 1)
	if b >= a {
		b++
	}
	if r.better(b, a) {
		return b
	}
	return a
}

// sbx is bounded simulated binary crossover of one variable (Deb and
// Agrawal 1995, in the form of Deb's NSGA-II code): it returns two
// children of x1, x2 within [lo, hi], with distribution index eta.
func sbx(rng *rand.Rand, x1, x2, lo, hi, eta float64) (float64, float64) {
	if math.Abs(x1-x2) < 1e-14 || hi <= lo {
		return x1, x2
	}
	if x1 > x2 {
		x1, x2 = x2, x1
	}
	u := rng.Float64()
	child := func(beta float64, sign float64) float64 {
		alpha := 2 - math.Pow(beta, -(eta+1))
		var bq float64
		if u <= 1/alpha {
			bq = math.Pow(u*alpha, 1/(eta+1))
		} else {
			bq = math.Pow(1/(2-u*alpha), 1/(eta+1))
		}
		return 0.5 * ((x1 + x2) + sign*bq*(x2-x1))
	}
	c1 := child(1+2*(x1-lo)/(x2-x1), -1)
	c2 := child(1+2*(hi-x2)/(x2-x1), 1)
	c1, c2 = math.Min(math.Max(c1, lo), hi), math.Min(math.Max(c2, lo), hi)
	if rng.IntN(2) == 1 {
		c1, c2 = c2, c1
	}
	return c1, c2
}

// polyMutate is bounded polynomial mutation (Deb and Goyal 1996, the
// form of Deb's NSGA-II code) of x in [lo, hi] with distribution index
// eta.
func polyMutate(rng *rand.Rand, x, lo, hi, eta float64) float64 {
	if hi <= lo {
		return x
	}
	d1, d2 := (x-lo)/(hi-lo), (hi-x)/(hi-lo)
	u := rng.Float64()
	p := 1 / (eta + 1)
	var dq float64
	if u < 0.5 {
		v := 2*u + (1-2*u)*math.Pow(1-d1, eta+1)
		dq = math.Pow(v, p) - 1
	} else {
		v := 2*(1-u) + 2*(u-0.5)*math.Pow(1-d2, eta+1)
		dq = 1 - math.Pow(v, p)
	}
	return math.Min(math.Max(x+dq*(hi-lo), lo), hi)
}
