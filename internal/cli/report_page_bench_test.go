package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeReportCSV writes n rows of id,case,ttft_p99_ms,output_tps: four
// cases on the latency/throughput trade-off of report's synthetic trials
// (latency uniform in 10..1000 ms, throughput on a saturating curve times
// a uniform factor in 0.5..1).
func writeReportCSV(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "trials.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("id,case,ttft_p99_ms,output_tps\n")
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	for i := range n {
		lat := 10 + rng.Float64()*990
		tput := 5000 * (1 - math.Exp(-lat/300)) * (0.5 + 0.5*rng.Float64())
		buf = fmt.Appendf(buf[:0], "t%06d,case%d,", i, i%4)
		buf = strconv.AppendFloat(buf, lat, 'g', -1, 64)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, tput, 'g', -1, 64)
		w.Write(append(buf, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path
}

// BenchmarkReportFile runs pareto report in process on a CSV of n rows,
// from reading to the written page (issue 27: against a Python writer,
// frontier plus json.dumps into an HTML file).
func BenchmarkReportFile(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		path := writeReportCSV(b, n)
		out := filepath.Join(b.TempDir(), "pareto.html")
		args := []string{"report", path, "-x", "ttft_p99_ms:min", "-y", "output_tps:max", "--out", out}
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			for b.Loop() {
				var stderr strings.Builder
				if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
