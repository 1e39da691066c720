package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeBenchReportTable writes n rows of id,case,ttft_p99_ms,output_tps:
// four cases in turn, a latency uniform in [20, 1000) ms and a throughput
// that grows with it, with noise (the shape of a load sweep).
func writeBenchReportTable(b *testing.B, n int) string {
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
		buf = append(strconv.AppendInt(append(buf[:0], 't'), int64(i), 10), ",case"...)
		buf = strconv.AppendInt(buf, int64(i%4), 10)
		ttft := 20 + 980*rng.Float64()
		tps := ttft * (2 + 3*rng.Float64())
		buf = strconv.AppendFloat(append(buf, ','), ttft, 'f', 3, 64)
		buf = strconv.AppendFloat(append(buf, ','), tps, 'f', 2, 64)
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
// file for comparison (issue 28: report within 3× front's CPU).
func BenchmarkReportFiles(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		path := writeBenchReportTable(b, n)
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
