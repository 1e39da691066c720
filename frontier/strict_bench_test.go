package frontier

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchData returns seeded points: "uniform" in the unit cube or
// "nondominated" on the simplex (every point on the frontier).
func benchData(kind string, n, k int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	if kind == "nondominated" {
		return simplexPoints(rng, n, k)
	}
	return randomPoints(rng, n, k, 0)
}

func BenchmarkStrictFront(b *testing.B) {
	for _, kind := range []string{"uniform", "nondominated"} {
		for k := 2; k <= 5; k++ {
			for _, n := range []int{10_000, 100_000, 1_000_000} {
				if kind == "nondominated" && k >= 4 && n > 100_000 {
					continue // k-d tree worst case; see docs/PERFORMANCE.md
				}
				data := benchData(kind, n, k)
				b.Run(fmt.Sprintf("data=%s/k=%d/n=%d", kind, k, n), func(b *testing.B) {
					for b.Loop() {
						StrictFront(data, k)
					}
					b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
				})
			}
		}
	}
}
