package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkIngestTable runs pareto ingest in process on a generic CSV of
// id plus three objectives (writeBenchTable), into a new SQLite store each
// time (issue 27: against sqlite3 .import of the same file).
func BenchmarkIngestTable(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		path := writeBenchTable(b, n, 3)
		dir := b.TempDir()
		b.Run(fmt.Sprintf("rows=%d/store=sqlite", n), func(b *testing.B) {
			for b.Loop() {
				db := filepath.Join(dir, "x.db")
				for _, f := range []string{db, db + "-wal", db + "-shm"} {
					os.Remove(f)
				}
				var stderr strings.Builder
				args := []string{"ingest", path, "--store", db, "--study", "s"}
				if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
