package ingest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// TestTableBatches reads tables of several batches through Load with
// EachTable: every row is one trial, at its own line and index, whatever
// the batch it falls in — CSV records whose quoted cells span lines
// across a batch's end, JSONL with bare Infinity — handed on in batches of
// at most TableBatch rows, each table bracketed by one EachTable call;
// without EachTable a table is one batch.
func TestTableBatches(t *testing.T) {
	const rows = 2*TableBatch + 10
	var csv, jsonl strings.Builder
	csv.WriteString("id,note,ttft_ms\n")
	csvLines := make([]int, rows)
	line := 2
	for i := range rows {
		csvLines[i] = line
		note := fmt.Sprintf("n%d", i)
		if i%1000 >= 995 || i == TableBatch-1 { // around the batch ends too
			note = fmt.Sprintf("\"two\nlines, %d\"", i)
			line++
		}
		fmt.Fprintf(&csv, "r%d,%s,%d.25\n", i, note, i)
		line++
		if i%500 == 0 {
			csv.WriteString("\n") // blank lines are no rows
			line++
		}
	}
	for i := range rows {
		rate := fmt.Sprint(i)
		if i%3 == 0 {
			rate = "Infinity"
		}
		fmt.Fprintf(&jsonl, `{"id":"j%d","request_rate":%s,"ttft_ms":%d}`+"\n", i, rate, i)
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"t.csv": csv.String(), "t.jsonl": jsonl.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"t.csv", "t.jsonl"} {
		path := filepath.Join(dir, name)
		t.Run("file="+name, func(t *testing.T) {
			var got []trial.Trial
			var tables, batches int
			_, err := Load([]string{path}, LoadOptions{
				Each: func(ts []trial.Trial, _ *cloudai.Run) error {
					if len(ts) > TableBatch {
						t.Errorf("a batch of %d rows; want at most %d", len(ts), TableBatch)
					}
					batches++
					got = append(got, ts...)
					return nil
				},
				EachTable: func(p string, read func() error) error {
					tables++
					if p != path {
						t.Errorf("EachTable(%q); want %q", p, path)
					}
					return read()
				},
			})
			if err != nil || len(got) != rows || tables != 1 || batches < 3 {
				t.Fatalf("Load: %d trials in %d batches of %d tables, %v; want %d trials in 3 or more batches of one table", len(got), batches, tables, err, rows)
			}
			for i, tr := range got {
				wantLine, id := i+1, fmt.Sprintf("j%d", i)
				if name == "t.csv" {
					wantLine, id = csvLines[i], fmt.Sprintf("r%d", i)
				}
				if tr.Source.Line != wantLine || tr.Source.Index != i || tr.Labels[LabelID] != id {
					t.Fatalf("trial %d: line %d, index %d, id %q; want %d, %d, %q", i, tr.Source.Line, tr.Source.Index, tr.Labels[LabelID], wantLine, i, id)
				}
				if m := tr.Measurements[len(tr.Measurements)-1]; m.Metric != "ttft_ms" || math.Floor(m.Value) != float64(i) {
					t.Fatalf("trial %d: last measurement %+v; want ttft_ms %d", i, m, i)
				}
				if name == "t.jsonl" && i%3 == 0 && !math.IsInf(tr.Workload.RequestRate, 1) {
					t.Fatalf("trial %d: request_rate %v; want +Inf", i, tr.Workload.RequestRate)
				}
			}
			whole := 0
			if _, err := Load([]string{path}, LoadOptions{Each: func(ts []trial.Trial, _ *cloudai.Run) error {
				if len(ts) != rows {
					t.Errorf("without EachTable: a batch of %d; want the table's %d rows", len(ts), rows)
				}
				whole++
				return nil
			}}); err != nil || whole != 1 {
				t.Errorf("without EachTable: %d batches, %v; want one", whole, err)
			}
		})
	}
}

// TestTableBatchErrors: a bad row in a later batch is the table's error at
// its line, returned by read (after the batches before it were handed
// on) and listed as the file's skip; so is a table whose rows are all load
// settings, known only at its end (a not_a_result skip).
func TestTableBatchErrors(t *testing.T) {
	const rows = 2*TableBatch + 10
	var bad, settings strings.Builder
	bad.WriteString("id,ttft_ms\n")
	settings.WriteString("id,concurrency\n")
	for i := range rows {
		cell := fmt.Sprint(i)
		if i == rows-5 {
			cell = "" // no numeric cell: no trial
		}
		fmt.Fprintf(&bad, "r%d,%s\n", i, cell)
		fmt.Fprintf(&settings, "r%d,%d\n", i, i%4)
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, data, code, reason string }{
		{"bad.csv", bad.String(), SkipError, fmt.Sprintf("bad.csv:%d:1: a row without a numeric cell", rows-5+2)},
		{"runs.csv", settings.String(), trial.SkipNotResult, "a list of runs' load settings (concurrency)"},
	} {
		t.Run("file="+c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			handed := 0
			var readErr error
			d, err := Load([]string{path}, LoadOptions{
				Each: func(ts []trial.Trial, _ *cloudai.Run) error { handed += len(ts); return nil },
				EachTable: func(_ string, read func() error) error {
					readErr = read()
					return readErr
				},
			})
			if err != nil || readErr == nil || !strings.Contains(readErr.Error(), c.reason) {
				t.Fatalf("Load: %v; read = %v; want read to fail with %q", err, readErr, c.reason)
			}
			if handed < TableBatch {
				t.Errorf("%d trials handed on before the error; want the batches before it", handed)
			}
			if len(d.Skipped) != 1 || d.Skipped[0].Code != c.code || !strings.Contains(d.Skipped[0].Reason, c.reason) {
				t.Errorf("skipped %+v; want one %s skip saying %q", d.Skipped, c.code, c.reason)
			}
		})
	}
}

// TestTableBatchBytes: wide rows make batches of fewer lines, holding
// about TableBatchBytes of text each.
func TestTableBatchBytes(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,note,ttft_ms\n")
	wide := strings.Repeat("w", 1000)
	const rows = 3000 // 3 MB
	for i := range rows {
		fmt.Fprintf(&b, "r%d,%s,%d\n", i, wide, i)
	}
	path := filepath.Join(t.TempDir(), "wide.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	_, err := Load([]string{path}, LoadOptions{
		Each:      func(ts []trial.Trial, _ *cloudai.Run) error { sizes = append(sizes, len(ts)); return nil },
		EachTable: func(_ string, read func() error) error { return read() },
	})
	total := 0
	for _, n := range sizes {
		total += n
		if n > TableBatchBytes/1000+1 {
			t.Errorf("a batch of %d rows of 1 KB; want at most %d", n, TableBatchBytes/1000+1)
		}
	}
	if err != nil || total != rows || len(sizes) < 3 {
		t.Errorf("Load: %d rows in batches %v, %v; want %d in 3 or more", total, sizes, err, rows)
	}
}
