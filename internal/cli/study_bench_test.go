package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/benchstudy"
	"github.com/pareto-llm/pareto/store"
)

// benchStudyStore returns a SQLite store holding study "scale" of
// benchstudy (3 repeats per configuration) and its size:
// PARETO_BENCH_STORE names one written before (see benchstudy.TestWrite),
// else PARETO_BENCH_TRIALS trials (default 10⁶) are written to a
// temporary store, which is not timed.
func benchStudyStore(b *testing.B) (string, int) {
	if loc := os.Getenv("PARETO_BENCH_STORE"); loc != "" {
		s, err := store.OpenReadOnly(context.Background(), loc)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		studies, err := s.Studies(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range studies {
			if st.Name == "scale" {
				return loc, st.Trials
			}
		}
		b.Fatalf("%s has no study scale", loc)
	}
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("PARETO_BENCH_TRIALS")); err == nil && v > 0 {
		n = v
	}
	loc := filepath.Join(b.TempDir(), "scale.db")
	s, err := store.Open(context.Background(), loc)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := benchstudy.Write(context.Background(), s, "scale", n, 3); err != nil {
		b.Fatal(err)
	}
	return loc, n
}

// BenchmarkStudy runs the commands that read a whole stored study with
// repeats in process: front (repeats aggregated, the frontier printed),
// report (the page written) and the trials export.
func BenchmarkStudy(b *testing.B) {
	loc, n := benchStudyStore(b)
	out := filepath.Join(b.TempDir(), "pareto.html")
	cmds := []struct {
		name string
		args []string
	}{
		{"front/aggregate=median", []string{"front", "--store", loc, "--study", "scale", "-o", "ttft.p99", "-o", "output_token_throughput", "--frontier-only"}},
		{"report/aggregate=median", []string{"report", "--store", loc, "--study", "scale", "-x", "ttft.p99", "-y", "output_token_throughput", "--out", out}},
		{"trials/format=jsonl", []string{"trials", "--store", loc, "--study", "scale", "--format", "jsonl"}},
		{"trials/format=csv", []string{"trials", "--store", loc, "--study", "scale", "--format", "csv"}},
	}
	for _, c := range cmds {
		b.Run(fmt.Sprintf("trials=%d/command=%s", n, c.name), func(b *testing.B) {
			for b.Loop() {
				var stderr strings.Builder
				if code := Main(context.Background(), c.args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/command")
		})
	}
}
