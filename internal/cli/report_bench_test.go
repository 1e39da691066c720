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

// BenchmarkReportFiles runs pareto report in process on a generic CSV
// table, from reading to the page written, and pareto front on the same
// file for comparison (issue 28: report within 3× front's CPU; issue 27:
// report at 10⁵ rows against a Python writer of the same page data).
func BenchmarkReportFiles(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		path := writeReportCSV(b, n)
		out := filepath.Join(b.TempDir(), "pareto.html")
		for _, cmd := range []string{"front", "report"} {
			args := []string{"front", path, "-o", "ttft_p99_ms:min", "-o", "output_tps:max"}
			if cmd == "report" {
				args = []string{"report", path, "-x", "ttft_p99_ms:min", "-y", "output_tps:max", "--out", out}
			}
			b.Run(fmt.Sprintf("rows=%d/cmd=%s", n, cmd), func(b *testing.B) {
				for b.Loop() {
					var stderr strings.Builder
					if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
						b.Fatalf("exit %d: %s", code, stderr.String())
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
