package table

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
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
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(bytes.NewReader(in), "bench.csv", spec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	// An input that does not tell its size (a pipe): the columns grow from
	// the first block's rows, twice at a time.
	in := benchCSV(1_000_000)
	b.Run("format=csv/rows=1000000/size=unknown", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Read(struct{ io.Reader }{bytes.NewReader(in)}, "bench.csv", spec); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(1_000_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
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

// BenchmarkCSVSplit decides between encoding/csv and the hand-written
// scanner (issue 25 item 6): one goroutine splits every record of the
// input and parses its three numbers, lib=encoding_csv with ReuseRecord
// and strconv.ParseFloat on its strings, lib=scanner with csvReader and
// parseNumber on its byte slices.
func BenchmarkCSVSplit(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		in := benchCSV(n)
		b.Run(fmt.Sprintf("lib=encoding_csv/rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r := csv.NewReader(bytes.NewReader(in))
				r.ReuseRecord = true
				sum := 0.0
				for {
					rec, err := r.Read()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					for _, f := range rec[1:4] {
						v, _ := strconv.ParseFloat(f, 64)
						sum += v
					}
				}
				benchSum = sum
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(fmt.Sprintf("lib=scanner/rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				c := &csvReader{name: "bench.csv", src: in, max: DefaultMaxRecordSize, cols1: DefaultMaxColumns + 1}
				sum := 0.0
				for {
					rec, _, err := c.next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					for _, f := range rec[1:4] {
						v, _ := parseNumber(f)
						sum += v
					}
				}
				benchSum = sum
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

var benchSum float64
