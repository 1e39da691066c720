package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

// drawPool draws a pool with ties and infeasible members.
func drawPool(t *rapid.T) ([]individual, int) {
	k := rapid.IntRange(1, 3).Draw(t, "k")
	n := rapid.IntRange(1, 40).Draw(t, "n")
	pop := make([]individual, n)
	for i := range pop {
		pop[i].id = 1000 - 7*i // ids not in index order
		for range k {
			pop[i].obj = append(pop[i].obj, float64(rapid.IntRange(0, 5).Draw(t, "v")))
		}
		pop[i].violation = rapid.SampledFrom([]float64{0, 0, 0, 0.5, 1, 2}).Draw(t, "violation")
	}
	return pop, k
}

// constrainedDominates is Deb's constrained domination, written out.
func constrainedDominates(a, b individual) bool {
	switch {
	case a.violation == 0 && b.violation > 0:
		return true
	case a.violation > 0 && b.violation > 0:
		return a.violation < b.violation
	case a.violation > 0:
		return false
	}
	better := false
	for m := range a.obj {
		if a.obj[m] > b.obj[m] {
			return false
		}
		if a.obj[m] < b.obj[m] {
			better = true
		}
	}
	return better
}

// peel returns the ranks by repeatedly removing the non-dominated set.
func peel(pop []individual) []int32 {
	rank := make([]int32, len(pop))
	left := map[int]bool{}
	for i := range pop {
		left[i] = true
	}
	for r := int32(0); len(left) > 0; r++ {
		var front []int
		for i := range left {
			dominated := false
			for j := range left {
				if constrainedDominates(pop[j], pop[i]) {
					dominated = true
					break
				}
			}
			if !dominated {
				front = append(front, i)
			}
		}
		for _, i := range front {
			rank[i] = r
			delete(left, i)
		}
	}
	return rank
}

// directCrowding computes crowding distances from their definition:
// for each objective, a member's neighbours in the order (value, id).
func directCrowding(pop []individual, front []int) []float64 {
	d := make([]float64, len(front))
	for m := range pop[front[0]].obj {
		less := func(a, b int) bool {
			x, y := pop[a], pop[b]
			return x.obj[m] < y.obj[m] || x.obj[m] == y.obj[m] && x.id < y.id
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, i := range front {
			lo, hi = math.Min(lo, pop[i].obj[m]), math.Max(hi, pop[i].obj[m])
		}
		for a, i := range front {
			prev, next := -1, -1
			for _, j := range front {
				if j == i {
					continue
				}
				if less(j, i) && (prev < 0 || less(prev, j)) {
					prev = j
				}
				if less(i, j) && (next < 0 || less(j, next)) {
					next = j
				}
			}
			switch {
			case prev < 0 || next < 0:
				d[a] = math.Inf(1)
			case hi > lo:
				d[a] += (pop[next].obj[m] - pop[prev].obj[m]) / (hi - lo)
			}
		}
	}
	return d
}

func TestConstrainedRanks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pop, k := drawPool(t)
		if got, want := constrainedRanks(pop, k), peel(pop); !slices.Equal(got, want) {
			t.Fatalf("ranks %v; peeling by constrained domination gives %v", got, want)
		}
	})
}

func TestCrowding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pop, k := drawPool(t)
		front := make([]int, len(pop))
		for i := range front {
			front[i] = i
		}
		got, want := crowding(pop, front, k), directCrowding(pop, front)
		for i := range got {
			if got[i] != want[i] && math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("crowding %v; directly %v", got, want)
			}
		}
	})
}

// TestSelectSurvivors compares NSGA-II's survivor selection with a
// direct computation: peel the fronts, take whole fronts while they fit,
// then the last front's members by decreasing crowding distance over
// that front, ties by id.
func TestSelectSurvivors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pop, k := drawPool(t)
		n := rapid.IntRange(1, len(pop)).Draw(t, "survivors")
		rank := peel(pop)
		var want []int
		for r := int32(0); len(want) < n; r++ {
			var front []int
			for i := range pop {
				if rank[i] == r {
					front = append(front, i)
				}
			}
			if len(want)+len(front) <= n {
				want = append(want, front...)
				continue
			}
			d := directCrowding(pop, front)
			order := make([]int, len(front))
			for i := range order {
				order[i] = i
			}
			sort.Slice(order, func(a, b int) bool {
				if d[order[a]] != d[order[b]] {
					return d[order[a]] > d[order[b]]
				}
				return pop[front[order[a]]].id < pop[front[order[b]]].id
			})
			for _, i := range order[:n-len(want)] {
				want = append(want, front[i])
			}
		}
		slices.Sort(want)
		if got := selectSurvivors(pop, k, n); !slices.Equal(got, want) {
			t.Fatalf("survivors %v; directly %v", got, want)
		}
	})
}

// TestTournament: a tournament's winner is never worse than the loser,
// and every member can win.
func TestTournament(t *testing.T) {
	pop := []individual{{id: 0, obj: []float64{0, 3}}, {id: 1, obj: []float64{1, 1}}, {id: 2, obj: []float64{3, 0}}, {id: 3, obj: []float64{2, 2}}, {id: 4, obj: []float64{0, 0}, violation: 1}}
	r := rankPool(pop, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	wins := make([]int, len(pop))
	for range 10000 {
		wins[r.tournament(rng, len(pop))]++
	}
	// The worst member (infeasible) never wins; rank 0 members win most.
	if wins[4] != 0 || wins[3] >= wins[1] || wins[0] == 0 || wins[2] == 0 {
		t.Errorf("wins %v: want none for the infeasible member and fewer for the dominated one", wins)
	}
}

func TestVariationBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.Float64Range(-100, 100).Draw(t, "lo")
		hi := lo + rapid.Float64Range(1e-6, 100).Draw(t, "width")
		x1 := lo + (hi-lo)*rapid.Float64Range(0, 1).Draw(t, "u1")
		x2 := lo + (hi-lo)*rapid.Float64Range(0, 1).Draw(t, "u2")
		eta := rapid.Float64Range(1, 50).Draw(t, "eta")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		c1, c2 := sbx(rng, x1, x2, lo, hi, eta)
		m := polyMutate(rng, x1, lo, hi, eta)
		for _, v := range []float64{c1, c2, m} {
			if !(v >= lo && v <= hi) {
				t.Fatalf("child %g outside [%g, %g]", v, lo, hi)
			}
		}
		if c1, c2 := sbx(rng, x1, x1, lo, hi, eta); c1 != x1 || c2 != x1 {
			t.Fatalf("SBX of two equal parents %g gave %g, %g", x1, c1, c2)
		}
	})
}
