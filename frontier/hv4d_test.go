package frontier

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// TestHypervolume4DProperty checks the 4D sweep (hv4Work) against the cell
// decomposition on rapid-generated small-integer points: many ties in every
// coordinate, duplicates, dominated points and points on the reference
// boundary.
func TestHypervolume4DProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 24).Draw(t, "n")
		levels := rapid.IntRange(1, 6).Draw(t, "levels")
		vals := rapid.SliceOfN(rapid.IntRange(0, levels), 4*n, 4*n).Draw(t, "vals")
		data := make([]float64, 4*n)
		for i, v := range vals {
			data[i] = float64(v)
		}
		ref := hvtOnes(4, float64(levels))
		if got, want := Hypervolume(data, 4, ref), hvtGrid(data, 4, ref); !hvtClose(got, want) {
			t.Fatalf("Hypervolume = %v; want %v (grid)", got, want)
		}
	})
}

// TestHypervolume4DMatchesSweep compares the 4D sweep with the generic
// dimension sweep (hvSweep over WFG-limited 3D contributions, the k >= 5
// path) on larger inputs: non-dominated simplex points, uniform points,
// and integer points with ties.
func TestHypervolume4DMatchesSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{2, 10, 100, 600} {
		for _, kind := range []string{"simplex", "uniform", "ties"} {
			t.Run(fmt.Sprintf("n=%d/data=%s", n, kind), func(t *testing.T) {
				var data []float64
				switch kind {
				case "simplex":
					data = hvtSimplex(n, 4, rng.Uint64())
				case "uniform":
					data = hvtUniform(n, 4, rng.Uint64())
				default:
					data = make([]float64, 4*n)
					for i := range data {
						data[i] = float64(rng.IntN(8)) / 8
					}
				}
				ref := hvtOnes(4, 1.1)
				kept, _ := hvKeep(data, 4, ref)
				m := len(kept) / 4
				var e, g hvEngine
				got, want := e.w4.volume(kept, m, ref), g.hvSweep(kept, m, 4, ref)
				if !hvtClose(got, want) {
					t.Fatalf("hv4 = %v; hvSweep = %v", got, want)
				}
			})
		}
	}
}
