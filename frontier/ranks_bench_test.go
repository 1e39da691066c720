package frontier

import (
	"fmt"
	"testing"
)

func BenchmarkRanks(b *testing.B) {
	type bench struct{ k, n int }
	var cases []bench
	for _, k := range []int{2, 3, 4, 5} {
		for _, n := range []int{10_000, 100_000} {
			cases = append(cases, bench{k, n})
		}
	}
	cases = append(cases, bench{2, 1_000_000}, bench{3, 1_000_000})
	for _, c := range cases {
		data := hvtUniform(c.n, c.k, 5)
		b.Run(fmt.Sprintf("k=%d/n=%d/data=uniform", c.k, c.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Ranks(data, c.k)
			}
			b.ReportMetric(float64(c.n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
