package report

import (
	"fmt"
	"io"
	"testing"
)

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		page := syntheticPage(b, n)
		b.Run(fmt.Sprintf("points=%d/stage=render", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Render(io.Discard, page); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
		b.Run(fmt.Sprintf("points=%d/stage=build", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				syntheticPage(b, n)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
