package frontier

import (
	"fmt"
	"testing"
)

// noiseObjectives returns k objectives with σ = 5% and δ = 10% (acyclic
// for k <= 3: Σ s/(s+d) <= 1) or δ = 1% (cyclic).
func noiseObjectives(k int, cyclic bool) []Objective {
	objs := make([]Objective, k)
	for i := range objs {
		objs[i] = Objective{Name: fmt.Sprint("o", i), Noise: 0.05, MinImprove: 0.10}
		if cyclic {
			objs[i].MinImprove = 0.01
		}
		if i%2 == 1 {
			objs[i].Direction = Maximize
		}
	}
	return objs
}

// positive shifts benchmark data away from zero so relative bands apply.
func positive(data []float64) []float64 {
	out := make([]float64, len(data))
	for i, v := range data {
		out[i] = 0.1 + v
	}
	return out
}

func BenchmarkNoiseFront(b *testing.B) {
	for _, kind := range []string{"uniform", "nondominated"} {
		for _, params := range []string{"acyclic", "cyclic"} {
			for k := 2; k <= 3; k++ {
				for _, n := range []int{10_000, 100_000, 1_000_000} {
					if kind == "nondominated" && n > 100_000 {
						continue
					}
					data := positive(benchData(kind, n, k))
					objs := noiseObjectives(k, params == "cyclic")
					b.Run(fmt.Sprintf("data=%s/params=%s/k=%d/n=%d", kind, params, k, n), func(b *testing.B) {
						for b.Loop() {
							NoiseFront(data, objs)
						}
						b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
					})
				}
			}
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		data := positive(benchData("uniform", n, 3))
		p := &Problem{Objectives: noiseObjectives(3, false), Values: make([][]float64, 3)}
		for o := range 3 {
			p.Values[o] = make([]float64, n)
			for r := range n {
				p.Values[o][r] = data[r*3+o]
			}
		}
		p.SLOs = []SLO{{Name: "o0", Op: LE, Bound: 1}}
		p.SLOValues = [][]float64{p.Values[0]}
		b.Run(fmt.Sprintf("k=3/n=%d/slo=1", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
