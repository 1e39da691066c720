package frontier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// rkNaive ranks by repeated peeling: the points not strictly dominated by
// any remaining point form the next front.
func rkNaive(data []float64, k int) []int32 {
	n := len(data) / k
	rank := make([]int32, n)
	left := make([]int, n)
	for i := range left {
		left[i] = i
		rank[i] = -1
	}
	less := func(a, b float64) bool { // NaN is worse than everything
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a < b
	}
	dom := func(a, b int) bool {
		strict := false
		for c := range k {
			x, y := data[a*k+c], data[b*k+c]
			if less(y, x) {
				return false
			}
			strict = strict || less(x, y)
		}
		return strict
	}
	for r := int32(0); len(left) > 0; r++ {
		var front, rest []int
		for _, i := range left {
			dominated := false
			for _, j := range left {
				if dom(j, i) {
					dominated = true
					break
				}
			}
			if dominated {
				rest = append(rest, i)
			} else {
				front = append(front, i)
			}
		}
		for _, i := range front {
			rank[i] = r
		}
		left = rest
	}
	return rank
}

func TestRanksTable(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tt := range []struct {
		name string
		k    int
		data []float64
		want []int32
	}{
		{"empty", 2, nil, []int32{}},
		{"k=1 dense", 1, []float64{3, 1, 3, 2, 1}, []int32{2, 0, 2, 1, 0}},
		{"one point", 3, []float64{1, 2, 3}, []int32{0}},
		{"duplicates share", 2, []float64{1, 1, 1, 1, 2, 2, 2, 2}, []int32{0, 0, 1, 1}},
		{"equal x", 2, []float64{1, 3, 1, 2, 1, 1}, []int32{2, 1, 0}},
		{"chain", 3, []float64{3, 3, 3, 2, 2, 2, 1, 1, 1}, []int32{2, 1, 0}},
		{"3 fronts", 2, []float64{1, 4, 4, 1, 2, 5, 5, 2, 3, 6, 6, 3}, []int32{0, 0, 1, 1, 2, 2}},
		{"NaN worst", 2, []float64{nan, 0, inf, 0, 1, 1, nan, 2}, []int32{1, 0, 0, 2}},
		{"k=4 one dim differs", 4, []float64{1, 1, 1, 1, 1, 1, 1, 2, 0, 2, 2, 2}, []int32{0, 1, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Ranks(tt.data, tt.k); !slices.Equal(got, tt.want) {
				t.Errorf("Ranks(%v, %d) = %v; want %v", tt.data, tt.k, got, tt.want)
			}
		})
	}
}

// TestRanksMatchesPeeling compares Ranks with naive peeling on random
// integer points with many ties, for k = 1..6 and sizes that exercise the
// pairwise base cases and the divide-and-conquer levels.
func TestRanksMatchesPeeling(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for k := 1; k <= 6; k++ {
		for _, n := range []int{2, 10, 50, 300, 1200} {
			for _, levels := range []int{2, 5, 1000} {
				data := make([]float64, n*k)
				for i := range data {
					data[i] = float64(rng.IntN(levels))
				}
				t.Run(fmt.Sprintf("k=%d/n=%d/levels=%d", k, n, levels), func(t *testing.T) {
					got, want := Ranks(data, k), rkNaive(data, k)
					if !slices.Equal(got, want) {
						t.Fatalf("Ranks differs from peeling: got %v\nwant %v", got, want)
					}
				})
			}
		}
	}
}

// TestRanksProperty checks Ranks against peeling on rapid-generated inputs
// and that permuting the input permutes the ranks.
func TestRanksProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 5).Draw(t, "k")
		n := rapid.IntRange(0, 80).Draw(t, "n")
		vals := rapid.SliceOfN(rapid.IntRange(-3, 3), n*k, n*k).Draw(t, "vals")
		data := make([]float64, n*k)
		for i, v := range vals {
			data[i] = float64(v)
		}
		got := Ranks(data, k)
		if want := rkNaive(data, k); !slices.Equal(got, want) {
			t.Fatalf("Ranks = %v; want %v", got, want)
		}
		perm := rapid.Permutation(seq(n)).Draw(t, "perm")
		pd := make([]float64, 0, n*k)
		for _, i := range perm {
			pd = append(pd, data[i*k:(i+1)*k]...)
		}
		pr := Ranks(pd, k)
		for j, i := range perm {
			if pr[j] != got[i] {
				t.Fatalf("permuted rank of point %d = %d; want %d", i, pr[j], got[i])
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestRanksLayers checks the defining properties on a larger random input:
// rank 0 points are not dominated, and every point of rank r > 0 has a
// dominator of rank r-1 and none of rank >= r.
func TestRanksLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{2, 3, 4} {
		n := 3000
		data := make([]float64, n*k)
		for i := range data {
			data[i] = float64(rng.IntN(40))
		}
		rank := Ranks(data, k)
		for i := range n {
			hasPrev := false
			for j := range n {
				if !rkDominates(data, k, j, i) {
					continue
				}
				if rank[j] >= rank[i] {
					t.Fatalf("k=%d: point %d (rank %d) dominated by %d (rank %d)", k, i, rank[i], j, rank[j])
				}
				hasPrev = hasPrev || rank[j] == rank[i]-1
			}
			if rank[i] > 0 && !hasPrev {
				t.Fatalf("k=%d: point %d of rank %d has no dominator of rank %d", k, i, rank[i], rank[i]-1)
			}
		}
	}
}

func rkDominates(data []float64, k, a, b int) bool {
	strict := false
	for c := range k {
		x, y := data[a*k+c], data[b*k+c]
		if x > y {
			return false
		}
		strict = strict || x < y
	}
	return strict
}

// TestRanksTreeMatchesSolver runs both k >= 3 algorithms, the rank tree
// (rkTree) and the divide and conquer (rkSolver), on the same unique
// points, for k = 3..6 (Ranks uses only one of them per k), against
// peeling: integer points with many ties, and uniform points.
func TestRanksTreeMatchesSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 13))
	for k := 3; k <= 6; k++ {
		for _, n := range []int{1, 2, 17, 200, 2500} {
			for _, levels := range []int{2, 6, 0} {
				data := make([]float64, n*k)
				for i := range data {
					if levels == 0 {
						data[i] = rng.Float64()
					} else {
						data[i] = float64(rng.IntN(levels))
					}
				}
				t.Run(fmt.Sprintf("k=%d/n=%d/levels=%d", k, n, levels), func(t *testing.T) {
					uniq, u := rkUnique(rkCoordRanks(data, k, n), n)
					tree, solver := newRkTree(u).solve(), newRkSolver(u).solve()
					if !slices.Equal(tree, solver) {
						t.Fatalf("rkTree %v\nrkSolver %v", tree, solver)
					}
					if n > 300 {
						return // peeling is quadratic per front
					}
					want := rkNaive(data, k)
					for i, g := range uniq {
						if tree[g] != want[i] {
							t.Fatalf("point %d: rank %d; want %d", i, tree[g], want[i])
						}
					}
				})
			}
		}
	}
}
