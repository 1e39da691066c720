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

// TestHypervolume4DExclMatchesSweep compares the exclusive 4D volume of the
// 4D sweep (hv4Work.excl, the base case of k >= 5) with the generic
// exclSweep on limited sets: random points raised to p, with ties.
func TestHypervolume4DExclMatchesSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := range 400 {
		n := rng.IntN(60)
		p := make([]float64, 4)
		for c := range p {
			p[c] = float64(rng.IntN(4)) / 8
		}
		lim := make([]float64, 4*n)
		for i := range lim {
			v := rng.Float64()
			if trial%2 == 0 {
				v = float64(rng.IntN(8)) / 8
			}
			lim[i] = max(v, p[i%4])
		}
		ref := hvtOnes(4, 1.1)
		var e, g hvEngine
		got, want := e.w4.excl(p, lim, n, ref), g.exclSweep(p, lim, n, 4, ref)
		if !hvtClose(got, want) {
			t.Fatalf("trial %d: hv4 excl = %v; exclSweep = %v (p=%v lim=%v)", trial, got, want, p, lim)
		}
	}
}
