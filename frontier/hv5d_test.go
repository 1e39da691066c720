package frontier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// hvt15 reports whether got equals want to 15 significant digits.
func hvt15(got, want float64) bool {
	return math.Abs(got-want) <= 5e-15*math.Abs(want)
}

// TestHypervolume5DProperty checks Hypervolume for k = 5, 6, 7 (the 5D
// sweep, hv5Work, and the recursion above it) against the cell
// decomposition on rapid-generated small-integer points: ties in every
// coordinate, duplicates, dominated points, points on the reference
// boundary and beyond it.
func TestHypervolume5DProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(5, 7).Draw(t, "k")
		n := rapid.IntRange(0, []int{5: 12, 6: 9, 7: 7}[k]).Draw(t, "n") // the grid is exponential in k
		levels := rapid.IntRange(1, 4).Draw(t, "levels")
		vals := rapid.SliceOfN(rapid.IntRange(0, levels+1), k*n, k*n).Draw(t, "vals")
		data := make([]float64, k*n)
		for i, v := range vals {
			data[i] = float64(v) / float64(levels) // levels+1 lies beyond ref
		}
		ref := hvtOnes(k, 1)
		if got, want := Hypervolume(data, k, ref), hvtGrid(data, k, ref); !hvt15(got, want) {
			t.Fatalf("k=%d: Hypervolume = %v; want %v (grid)", k, got, want)
		}
	})
}

// hvtSphere returns n random points on the positive part of the unit
// sphere (mutually non-dominated with probability one).
func hvtSphere(n, k int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 5))
	data := make([]float64, n*k)
	for i := range n {
		row := data[i*k : (i+1)*k]
		sum := 0.0
		for c := range row {
			row[c] = math.Abs(rng.NormFloat64())
			sum += row[c] * row[c]
		}
		for c := range row {
			row[c] /= math.Sqrt(sum)
		}
	}
	return data
}

// TestHypervolume5DMatchesSweep compares the 5D sweep with the generic
// dimension sweep (hvSweep over WFG-limited 4D contributions, the k >= 6
// path) to 15 significant digits on larger inputs: non-dominated simplex
// and sphere points, uniform points, and points with many ties, some of
// them beyond the reference point.
func TestHypervolume5DMatchesSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{2, 10, 100, 700} {
		for _, kind := range []string{"simplex", "sphere", "uniform", "ties"} {
			t.Run(fmt.Sprintf("n=%d/data=%s", n, kind), func(t *testing.T) {
				var data []float64
				switch kind {
				case "simplex":
					data = hvtSimplex(n, 5, rng.Uint64())
				case "sphere":
					data = hvtSphere(n, 5, rng.Uint64())
				case "uniform":
					data = hvtUniform(n, 5, rng.Uint64())
				default:
					data = make([]float64, 5*n)
					for i := range data {
						data[i] = float64(rng.IntN(10)) / 8
					}
				}
				ref := hvtOnes(5, 1.1)
				kept, _ := hvKeep(data, 5, ref)
				m := len(kept) / 5
				var e, g hvEngine
				want := g.hvSweep(kept, m, 5, ref)
				if got := e.w5.volume(kept, m, ref); !hvt15(got, want) {
					t.Fatalf("hv5 = %v; hvSweep = %v", got, want)
				}
				// Again through Hypervolume (thinning, engine reuse).
				if got := Hypervolume(data, 5, ref); !hvt15(got, want) {
					t.Fatalf("Hypervolume = %v; hvSweep = %v", got, want)
				}
			})
		}
	}
}

// TestHypervolume5DReuse checks that one engine gives the same volumes
// when reused on sets of different sizes (the sorted orders of F are
// buffers kept between calls).
func TestHypervolume5DReuse(t *testing.T) {
	var e hvEngine
	ref := hvtOnes(5, 1.1)
	for _, n := range []int{300, 20, 300, 1} {
		data := hvtSphere(n, 5, uint64(n))
		var fresh hvEngine
		want := fresh.hvVolume(data, n, 5, ref)
		if got := e.hvVolume(data, n, 5, ref); got != want {
			t.Fatalf("n=%d: reused engine = %v; fresh = %v", n, got, want)
		}
	}
}
