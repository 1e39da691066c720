package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// TestIngestTableBatches ingests generic tables longer than a batch
// (ingest.TableBatch) into a SQLite and a PostgreSQL store: a table is
// stored whole, in one transaction, and one with a bad row deep in the
// file (after batches were stored) is stored not at all, its error naming
// the file, line and column, while the next file is stored; the study is
// then as if the bad file had not been read, and ingesting the good file
// again adds nothing.
func TestIngestTableBatches(t *testing.T) {
	const rows = 3*ingest.TableBatch + 100
	bad := rows - 50 // a row in the last batch
	var good, broken, settings strings.Builder
	for _, b := range []*strings.Builder{&good, &broken} {
		b.WriteString("id,ttft_ms,tps,note\n")
	}
	settings.WriteString("id,concurrency\n")
	for i := range rows {
		fmt.Fprintf(&good, "g%d,%d.5,%d,x\n", i, i%97, i%89)
		fmt.Fprintf(&settings, "s%d,%d\n", i, 1+i%8)
		if i == bad {
			fmt.Fprintf(&broken, "b%d,%d.5\n", i, i) // two fields short
			continue
		}
		fmt.Fprintf(&broken, "b%d,%d.5,%d,x\n", i, i%97, i%89)
	}
	dir := writeFiles(t, map[string]string{"good.csv": good.String(), "broken.csv": broken.String(), "runs.csv": settings.String()})
	goodPath, brokenPath, runsPath := filepath.Join(dir, "good.csv"), filepath.Join(dir, "broken.csv"), filepath.Join(dir, "runs.csv")
	want := fmt.Sprintf("%s:%d:1: row has 2 fields, header has 4", brokenPath, bad+2)
	for _, backend := range []struct{ name, location string }{
		{"sqlite", filepath.Join(dir, "runs.db")},
		{"postgres", ""},
	} {
		t.Run("store="+backend.name, func(t *testing.T) {
			loc := backend.location
			if loc == "" {
				loc = testenv.PostgresDatabase(t)
			}
			study := fmt.Sprintf("batches-%d-%d", os.Getpid(), time.Now().UnixNano())
			code, out, errs := run(t, "ingest", brokenPath, runsPath, goodPath, "--study", study, "--store", loc)
			wantOut := fmt.Sprintf("study %s in %s: %d added, 0 already present, from 1 sources", study, trial.RedactLocation(loc), rows)
			if code != exitFailure || !strings.Contains(out+errs, want) || !strings.Contains(out, wantOut) ||
				!strings.Contains(out, fmt.Sprintf("%d trials, 2 skipped (1 unreadable)", rows)) || !strings.Contains(out, "not_a_result") {
				t.Errorf("ingest: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1, %q, %q, the settings table not a result", code, out, errs, want, wantOut)
			}
			code, out, errs = run(t, "trials", "--store", loc, "--study", study, "--format", "csv")
			if n := strings.Count(out, "\n"); code != exitOK || n != rows+1 || strings.Contains(out, "broken.csv") || strings.Contains(out, "runs.csv") {
				t.Errorf("stored trials: exit %d, %d lines%s; want the %d rows of good.csv alone", code, n, errs, rows)
			}
			code, out, errs = run(t, "ingest", goodPath, "--study", study, "--store", loc)
			if want := fmt.Sprintf("0 added, %d already present, from 1 sources", rows); code != exitOK || !strings.Contains(out, want) {
				t.Errorf("ingest again: exit %d\n%s%s\nwant %q", code, out, errs, want)
			}
		})
	}
}
