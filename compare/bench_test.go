package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// benchSide is n configurations of k objectives with 3 repeats each, in a
// band of relative depth band below a concave frontier (band 0: all on
// it).
func benchSide(name string, n, k int, band, scale float64, rng *rand.Rand) *Side {
	s := &Side{Name: name}
	for range n {
		p := Point{ID: name, Runs: make([][]float64, k)}
		base := make([]float64, k)
		sum := 0.0
		for o := range k {
			base[o] = rng.ExpFloat64()
			sum += base[o] * base[o]
		}
		r := (1 - band*rng.Float64()) / math.Sqrt(sum)
		for o := range k {
			for range 3 {
				p.Runs[o] = append(p.Runs[o], scale*(1+100*base[o]*r)*math.Exp(0.02*rng.NormFloat64()))
			}
			p.Values = append(p.Values, repeat.Summarize(p.Runs[o], repeat.Median).Value)
		}
		s.Points = append(s.Points, p)
	}
	return s
}

// BenchmarkRun is a whole comparison of two sides of n configurations:
// 1 000 resamples of each side's hypervolume, and for two objectives the
// uplift curve and three buckets, and the verdict's noise-aware relation
// on the union of both sides in every resample.
func BenchmarkRun(b *testing.B) {
	for _, tc := range []struct {
		k, n  int
		shape string
		band  float64
		// bands is the noise band and minimum improvement of every
		// objective: 2% is the noise of the runs (leads are confirmed
		// beyond the band it suggests too), 5% above it.
		bands float64
	}{{2, 1_000, "band", 0.2, 0.02}, {2, 10_000, "band", 0.2, 0.02}, {2, 10_000, "front", 0, 0.02}, {3, 1_000, "band", 0.2, 0.02},
		{2, 10_000, "band", 0.2, 0.05}, {2, 10_000, "front", 0, 0.05}} {
		{
			k, n := tc.k, tc.n
			rng := rand.New(rand.NewPCG(1, 2))
			a, c := benchSide("a", n, k, tc.band, 1, rng), benchSide("b", n, k, tc.band, 1.01, rng)
			objs := make([]frontier.Objective, k)
			for o := range objs {
				objs[o] = frontier.Objective{Name: fmt.Sprint("o", o), Direction: frontier.Maximize, Noise: tc.bands, MinImprove: tc.bands}
			}
			opt := Options{Objectives: objs, Resamples: 1000, Seed: 1, At: []float64{20, 50, 80}}
			// The reference measured in the same run: one exact hypervolume
			// of a side's point estimates (what each resample of a side
			// costs at least, 2 000 of them per comparison).
			data := make([]float64, 0, n*k)
			for _, p := range a.Points {
				for _, v := range p.Values {
					data = append(data, -v)
				}
			}
			ref := make([]float64, k)
			b.Run(fmt.Sprintf("k=%d/points=%d/shape=%s/reference=hypervolume", k, n, tc.shape), func(b *testing.B) {
				for b.Loop() {
					frontier.Hypervolume(data, k, ref)
				}
			})
			name := fmt.Sprintf("k=%d/points=%d/shape=%s", k, n, tc.shape)
			if tc.bands != 0.02 {
				name += fmt.Sprintf("/bands=%g%%", 100*tc.bands)
			}
			b.Run(name+"/resamples=1000", func(b *testing.B) {
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
