package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
)

// benchSide is n configurations of k objectives with 3 repeats each, in a
// band below a concave frontier (most of them near it).
func benchSide(name string, n, k int, scale float64, rng *rand.Rand) *Side {
	s := &Side{Name: name}
	for range n {
		p := Point{ID: name, Runs: make([][]float64, k)}
		base := make([]float64, k)
		sum := 0.0
		for o := range k {
			base[o] = rng.ExpFloat64()
			sum += base[o] * base[o]
		}
		r := (1 - 0.2*rng.Float64()) / math.Sqrt(sum)
		for o := range k {
			for range 3 {
				p.Runs[o] = append(p.Runs[o], scale*(1+100*base[o]*r)*math.Exp(0.02*rng.NormFloat64()))
			}
			p.Values = append(p.Values, decide.Summarize(p.Runs[o], decide.Median).Value)
		}
		s.Points = append(s.Points, p)
	}
	return s
}

// BenchmarkRun is a whole comparison of two sides of n configurations:
// 1 000 resamples of each side's hypervolume, and for two objectives the
// uplift curve and three buckets, or else the set dominance verdict.
func BenchmarkRun(b *testing.B) {
	for _, k := range []int{2, 3} {
		for _, n := range []int{1_000, 10_000} {
			if k > 2 && n > 1_000 {
				continue // the set verdict is quadratic in the frontiers' sizes
			}
			rng := rand.New(rand.NewPCG(1, 2))
			a, c := benchSide("a", n, k, 1, rng), benchSide("b", n, k, 1.01, rng)
			objs := make([]frontier.Objective, k)
			for o := range objs {
				objs[o] = frontier.Objective{Name: fmt.Sprint("o", o), Direction: frontier.Maximize, Noise: 0.02, MinImprove: 0.02}
			}
			opt := Options{Objectives: objs, Resamples: 1000, Seed: 1, At: []float64{20, 50, 80}}
			b.Run(fmt.Sprintf("k=%d/points=%d/resamples=1000", k, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Run([]*Side{a, c}, opt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/comparison")
			})
		}
	}
}
