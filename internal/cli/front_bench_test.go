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

// writeBenchCSV writes n rows of id plus three uniform objectives in
// (0, 1), printed in shortest form (about 17 significant digits).
func writeBenchCSV(b *testing.B, n int) string { return writeBenchTable(b, n, 3) }

// writeBenchTable writes n rows of id plus k uniform objectives a, b, …
// in (0, 1), printed in shortest form.
func writeBenchTable(b *testing.B, n, k int) string {
	path := filepath.Join(b.TempDir(), "trials.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("id")
	for c := range k {
		w.WriteString("," + string(rune('a'+c)))
	}
	w.WriteString("\n")
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	for i := range n {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		for range k {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, rng.Float64(), 'g', -1, 64)
		}
		w.Write(append(buf, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path
}

// BenchmarkFrontEndToEnd runs pareto front in process on a CSV file, from
// reading to the printed result (to io.Discard).
func BenchmarkFrontEndToEnd(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		path := writeBenchCSV(b, n)
		for _, out := range []string{"frontier-only", "table", "json"} {
			args := []string{"front", path, "-o", "a:min", "-o", "b:min", "-o", "c:min"}
			switch out {
			case "frontier-only":
				args = append(args, "--frontier-only")
			case "json":
				args = append(args, "--format", "json")
			}
			b.Run(fmt.Sprintf("rows=%d/k=3/output=%s", n, out), func(b *testing.B) {
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

// BenchmarkFrontRanks runs pareto front --ranks on 10⁶ rows of two
// objectives (issue 27: end to end against ndsort -r): output=none is the
// read and the ranks with only the frontier printed, output=csv prints
// every row with its rank and explanation.
func BenchmarkFrontRanks(b *testing.B) {
	const n = 1_000_000
	path := writeBenchTable(b, n, 2)
	for _, out := range []string{"none", "csv"} {
		args := []string{"front", path, "-o", "a:min", "-o", "b:min", "--ranks", "--format", "csv"}
		if out == "none" {
			args = append(args, "--frontier-only")
		}
		b.Run(fmt.Sprintf("rows=%d/k=2/output=%s", n, out), func(b *testing.B) {
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

// BenchmarkFrontHypervolume runs pareto front --ref on sets of n mutually
// non-dominated 5D points (|N(0,1)| vectors on the unit sphere), one group
// per set (issue 27: end to end against moocore's hv on the same sets).
func BenchmarkFrontHypervolume(b *testing.B) {
	for _, c := range []struct{ n, sets int }{{1000, 50}, {10_000, 1}} {
		path := filepath.Join(b.TempDir(), "sphere.csv")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriter(f)
		w.WriteString("id,set,a,b,c,d,e\n")
		rng := rand.New(rand.NewPCG(1, 2))
		v := make([]float64, 5)
		for s := range c.sets {
			for i := range c.n {
				norm := 0.0
				for j := range v {
					v[j] = math.Abs(rng.NormFloat64())
					norm += v[j] * v[j]
				}
				fmt.Fprintf(w, "%d,s%d", s*c.n+i, s)
				for j := range v {
					fmt.Fprintf(w, ",%s", strconv.FormatFloat(v[j]/math.Sqrt(norm), 'g', -1, 64))
				}
				w.WriteString("\n")
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		args := []string{"front", path, "-o", "a:min", "-o", "b:min", "-o", "c:min", "-o", "d:min", "-o", "e:min",
			"--ref", "1.1,1.1,1.1,1.1,1.1", "--group-by", "set", "--frontier-only", "--format", "json"}
		b.Run(fmt.Sprintf("k=5/n=%d/sets=%d/data=sphere", c.n, c.sets), func(b *testing.B) {
			for b.Loop() {
				var stderr strings.Builder
				if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}

// BenchmarkFrontRecords runs pareto front --frontier-only in process on
// 30 000 SGLang bench_serving lines (the real datacrunch file's seven,
// repeated: most rows tie), from reading to the printed result: issue
// 27's JSONL front, whose rows keep their objective values and not their
// trials (query.TrialStream).
func BenchmarkFrontRecords(b *testing.B) {
	const n = 30_000
	data, err := os.ReadFile("../../ingest/testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var sb strings.Builder
	for i := range n {
		sb.WriteString(strings.TrimSpace(lines[i%len(lines)]) + "\n")
	}
	path := filepath.Join(b.TempDir(), "sglang.jsonl")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"front", path, "-o", "ttft.p50", "-o", "output_token_throughput", "--frontier-only"}
	b.Run(fmt.Sprintf("format=sglang/records=%d/output=frontier-only", n), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var stderr strings.Builder
			if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
				b.Fatalf("exit %d: %s", code, stderr.String())
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	})
}
