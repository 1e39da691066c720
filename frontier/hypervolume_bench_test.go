package frontier

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pareto-llm/pareto/internal/moocore"
)

// hvtUniform returns n uniform random points in [0,1)^k.
func hvtUniform(n, k int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	data := make([]float64, n*k)
	for i := range data {
		data[i] = rng.Float64()
	}
	return data
}

// hvtSimplex returns n random points on the simplex sum = 1 (mutually
// non-dominated with probability one).
func hvtSimplex(n, k int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	data := make([]float64, n*k)
	for i := range n {
		row := data[i*k : (i+1)*k]
		sum := 0.0
		for c := range row {
			row[c] = rng.ExpFloat64()
			sum += row[c]
		}
		for c := range row {
			row[c] /= sum
		}
	}
	return data
}

func hvtOnes(k int, v float64) []float64 {
	ref := make([]float64, k)
	for c := range ref {
		ref[c] = v
	}
	return ref
}

func BenchmarkHypervolume(b *testing.B) {
	type bench struct {
		k, n int
		data string
	}
	var cases []bench
	for _, k := range []int{2, 3} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			cases = append(cases, bench{k, n, "uniform"})
		}
	}
	cases = append(cases, bench{3, 100_000, "simplex"}, bench{3, 1_000_000, "simplex"},
		bench{4, 10_000, "uniform"}, bench{4, 10_000, "simplex"},
		bench{5, 1_000, "simplex"}, bench{5, 1_000, "sphere"}, bench{5, 10_000, "simplex"},
		bench{5, 1_000, "dtlz"}, bench{5, 10_000, "uniform"}, bench{6, 1_000, "simplex"})
	for _, c := range cases {
		var data []float64
		switch c.data {
		case "uniform":
			data = hvtUniform(c.n, c.k, 1)
		case "sphere":
			data = hvtSphere(c.n, c.k, 1)
		case "dtlz": // moocore's DTLZ sphere front, its first set of 10³
			sets, err := moocore.ReadSets(filepath.Join(moocoreDir, "data", "DTLZSphereShape.5d.front.1000pts.10"))
			if err != nil {
				b.Fatal(err)
			}
			data = sets[0].Data
		default:
			data = hvtSimplex(c.n, c.k, 1)
		}
		ref := hvtOnes(c.k, 1.1)
		b.Run(fmt.Sprintf("k=%d/n=%d/data=%s", c.k, c.n, c.data), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Hypervolume(data, c.k, ref)
			}
			b.ReportMetric(float64(c.n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}

// BenchmarkHypervolumeBootstrap is the job of `pareto compare`'s interval:
// 1 000 bootstrap resamples (with replacement, seeded) of 10⁴ points, one
// Hypervolume per resample; one op is all 1 000.
func BenchmarkHypervolumeBootstrap(b *testing.B) {
	const n, resamples = 10_000, 1000
	for _, c := range []struct {
		k    int
		data string
	}{{2, "uniform"}, {2, "simplex"}, {3, "uniform"}, {3, "simplex"}, {4, "uniform"}} {
		var data []float64
		if c.data == "uniform" {
			data = hvtUniform(n, c.k, 1)
		} else {
			data = hvtSimplex(n, c.k, 1)
		}
		ref := hvtOnes(c.k, 1.1)
		b.Run(fmt.Sprintf("k=%d/n=%d/data=%s/resamples=%d", c.k, n, c.data, resamples), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			sample := make([]float64, len(data))
			for b.Loop() {
				for range resamples {
					for i := range n {
						j := rng.IntN(n)
						copy(sample[i*c.k:(i+1)*c.k], data[j*c.k:(j+1)*c.k])
					}
					Hypervolume(sample, c.k, ref)
				}
			}
		})
	}
}
