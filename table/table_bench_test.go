package table

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchCSV renders n rows of id plus three numeric columns.
func benchCSV(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	b.WriteString("id,ttft,tpot,tps,engine\n")
	for i := range n {
		fmt.Fprintf(&b, "t%d,%s,%s,%s,vllm\n", i, strconv.FormatFloat(rng.Float64()*1000, 'g', -1, 64),
			strconv.FormatFloat(rng.Float64()*50, 'g', -1, 64), strconv.FormatFloat(rng.Float64()*5000, 'g', -1, 64))
	}
	return b.Bytes()
}

func BenchmarkRead(b *testing.B) {
	spec := Spec{Numeric: []string{"ttft", "tpot", "tps"}, OptionalText: []string{"id"}}
	for _, n := range []int{10_000, 1_000_000} {
		in := benchCSV(n)
		b.Run(fmt.Sprintf("format=csv/rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(in), "bench.csv", spec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	var jl bytes.Buffer
	for i := range 100_000 {
		fmt.Fprintf(&jl, "{\"id\":\"t%d\",\"ttft\":%d.5,\"tpot\":%d.25,\"tps\":%d}\n", i, i%977, i%37, i%4999)
	}
	b.Run("format=jsonl/rows=100000", func(b *testing.B) {
		b.SetBytes(int64(jl.Len()))
		for b.Loop() {
			if _, err := Read(bytes.NewReader(jl.Bytes()), "bench.jsonl", spec); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(100_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
