package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/report"
)

// TestReportTableColumns checks that a page of generic tables recorded
// column by column (tableRecords, then ingest's trials of the listed rows
// alone) is the page recorded from every row's trial, but for the IDs of
// binned trials, which the column read does not know (the page names them
// by their id column instead), and that the tables it must not record so
// are recorded from their trials.
func TestReportTableColumns(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, rows int, row func(r *rand.Rand, i int) string, head string) string {
		rng := rand.New(rand.NewPCG(uint64(rows), 7))
		var b strings.Builder
		b.WriteString(head + "\n")
		for i := range rows {
			b.WriteString(row(rng, i) + "\n")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sweep := func(r *rand.Rand, i int) string {
		x := 20 + 980*r.Float64()
		return fmt.Sprintf("t%d,case%d,%.3f,%.2f", i, i%3, x, x*(2+3*r.Float64()))
	}
	small := write("small.csv", 40, sweep, "id,case,ttft_p99_ms,output_tps")
	big := write("big.csv", 3000, sweep, "id,case,ttft_p99_ms,output_tps")
	noID := write("noid.csv", 30, func(r *rand.Rand, i int) string {
		return fmt.Sprintf("%d,%.3f,%.2f", i%4, 20+980*r.Float64(), 100+900*r.Float64())
	}, "batch,ttft_p99_ms,output_tps")
	jsonl := write("t.jsonl", 50, func(r *rand.Rand, i int) string {
		return fmt.Sprintf(`{"id":"j%d","ttft_p99_ms":%.3f,"output_tps":%.2f}`, i, 20+980*r.Float64(), 100+900*r.Float64())
	}, `{"id":"j","ttft_p99_ms":1,"output_tps":1}`)
	missing := write("missing.csv", 30, func(r *rand.Rand, i int) string {
		if i == 7 {
			return "m7,,5"
		}
		return fmt.Sprintf("m%d,%.3f,%.2f", i, 20+980*r.Float64(), 100+900*r.Float64())
	}, "id,ttft_p99_ms,output_tps")
	negative := write("negative.csv", 30, func(r *rand.Rand, i int) string {
		return fmt.Sprintf("n%d,%.3f,%.2f", i, 900-60*float64(i), 100+900*r.Float64())
	}, "id,ttft_p99_ms,output_tps")
	server := write("server.csv", 30, func(r *rand.Rand, i int) string {
		return fmt.Sprintf("s%d,%d,%.3f,%.2f", i, 1<<(i%3), 20+980*r.Float64(), 100+900*r.Float64())
	}, "id,tensor_parallel_size,ttft_p99_ms,output_tps")
	ids := regexp.MustCompile(`"ids":\[[^\]]*\],`)
	for _, tc := range []struct {
		name    string
		paths   []string
		bound   int
		columns bool // recorded column by column
	}{
		{"small", []string{small}, 0, true},
		{"density", []string{big}, 200, true},
		{"two-files", []string{small, big}, 300, true},
		{"no-id", []string{noID}, 0, true},
		{"jsonl", []string{jsonl}, 0, true},
		{"negative", []string{negative}, 0, true},
		{"missing-value", []string{missing}, 0, false},
		{"server-setting", []string{server}, 0, false},
		{"same-file-twice", []string{small, small}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &reportOptions{x: "ttft_p99_ms:min", y: "output_tps:max"}
			cfg, err := reportConfig(&env{stderr: &bytes.Buffer{}}, o)
			if err != nil {
				t.Fatal(err)
			}
			opts := report.Options{Aggregate: repeat.Median, DensityBound: tc.bound}
			lo, err := loadOptions("", scenarioFlags{}, 0, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if recs, _ := tableRecords(&env{stderr: &bytes.Buffer{}}, cfg, opts, lo, tc.paths); (recs != nil) != tc.columns {
				t.Fatalf("recorded column by column: %v, want %v", recs != nil, tc.columns)
			}
			page := func(columns bool) string {
				out := filepath.Join(t.TempDir(), "pareto.html")
				var stderr bytes.Buffer
				if _, err := filesPage(&env{stdout: &stderr, stderr: &stderr}, o, cfg, opts, lo, out, tc.paths, columns); err != nil {
					t.Fatalf("columns=%v: %v\n%s", columns, err, stderr.String())
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			cols, whole := page(true), page(false)
			binned := strings.Count(whole, `"ids":[`)
			if tc.bound > 0 && binned == 0 {
				t.Fatal("no density layer on the page")
			}
			if tc.columns {
				whole = ids.ReplaceAllString(whole, "")
			}
			if cols != whole {
				i := 0
				for i < min(len(cols), len(whole)) && cols[i] == whole[i] {
					i++
				}
				t.Errorf("the pages differ at byte %d:\ncolumns: %.200s\ntrials:  %.200s", i, cols[max(0, i-100):], whole[max(0, i-100):])
			}
		})
	}
}
