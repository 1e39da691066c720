package search

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
)

// benchSpace is 10 float, 4 int and 2 categorical parameters.
func benchSpace(b *testing.B) *Space {
	var sb strings.Builder
	for i := range 10 {
		fmt.Fprintf(&sb, "[params.f%d]\nlow = 0.0\nhigh = 1.0\n", i)
	}
	for i := range 4 {
		fmt.Fprintf(&sb, "[params.i%d]\nlow = 1\nhigh = 512\nlog = true\n", i)
	}
	sb.WriteString("[params.c0]\nvalues = [1, 2, 4, 8]\n[params.c1]\nvalues = [true, false]\n")
	s, err := ParseSpace("bench.toml", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// dtlz2 is a three-objective stand-in for a benchmark.
func dtlz2(s *Space, c Config) []float64 {
	x := make([]float64, len(s.Params))
	for i, p := range s.Params {
		v, _ := c[p.Name].Float()
		lo, hi := p.bounds()
		x[i] = (p.toCoord(Num(v)) - lo) / (hi - lo)
		if p.Kind == Categorical {
			x[i] = p.toCoord(c[p.Name]) / float64(len(p.Values))
		}
	}
	g := 0.0
	for _, v := range x[2:] {
		g += (v - 0.5) * (v - 0.5)
	}
	a, b := x[0]*math.Pi/2, x[1]*math.Pi/2
	return []float64{(1 + g) * math.Cos(a) * math.Cos(b), (1 + g) * math.Cos(a) * math.Sin(b), (1 + g) * math.Sin(a)}
}

// BenchmarkNSGA2Generation measures one NSGA-II generation: Population
// asks (tournaments, crossover, mutation, duplicate and constraint
// checks) and tells, the last of which selects the survivors, on a
// 16-parameter space with three objectives. The objective's cost is
// included but small.
func BenchmarkNSGA2Generation(b *testing.B) {
	space := benchSpace(b)
	objs := []frontier.Objective{{Name: "f1"}, {Name: "f2"}, {Name: "f3"}}
	for _, pop := range []int{100, 1000} {
		b.Run(fmt.Sprintf("pop=%d", pop), func(b *testing.B) {
			st, err := NewStudy(space, Options{Objectives: objs, Population: pop, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			generation := func() {
				gen := st.Generation()
				for st.Generation() == gen {
					tr, err := st.Ask()
					if err != nil {
						b.Fatal(err)
					}
					if err := st.Tell(tr.ID, Result{Values: dtlz2(space, tr.Config)}); err != nil {
						b.Fatal(err)
					}
				}
			}
			generation() // the first generation (Sobol) is not bred
			generation()
			b.ReportAllocs()
			for b.Loop() {
				generation()
			}
			b.ReportMetric(float64(pop)*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
		})
	}
}

// BenchmarkSaveResume measures saving a study of 1000 trials and resuming
// it (what a store-backed tune does after each state change).
func BenchmarkSaveResume(b *testing.B) {
	space := benchSpace(b)
	objs := []frontier.Objective{{Name: "f1"}, {Name: "f2"}, {Name: "f3"}}
	st, _ := NewStudy(space, Options{Objectives: objs, Population: 100, Seed: 1})
	for range 1000 {
		tr, _ := st.Ask()
		st.Tell(tr.ID, Result{Values: dtlz2(space, tr.Config)})
	}
	b.Run("trials=1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, err := st.MarshalJSON()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ResumeStudy(space, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
