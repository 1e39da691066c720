package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestNULBothStores ingests a table whose value holds a NUL (a JSON
// escape) beside a clean one into a SQLite and a PostgreSQL store: both
// give the same positioned error for that file, store the clean one, and
// exit 1. (SQLite alone would keep the NUL; PostgreSQL refuses the text.)
func TestNULBothStores(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"nul.jsonl":  "{\"id\": \"a\", \"engine\": \"vllm\", \"ttft\": 1}\n{\"id\": \"b\", \"engine\": \"sg\\u0000lang\", \"ttft\": 2}\n",
		"good.jsonl": "{\"id\": \"c\", \"engine\": \"vllm\", \"ttft\": 3}\n",
	})
	nul, good := filepath.Join(dir, "nul.jsonl"), filepath.Join(dir, "good.jsonl")
	want := nul + `:2:24: parameter "engine" value "sg\x00lang" holds a NUL byte, which no store keeps`
	for _, backend := range []struct{ name, location string }{
		{"sqlite", filepath.Join(dir, "runs.db")},
		{"postgres", ""},
	} {
		t.Run(backend.name, func(t *testing.T) {
			loc := backend.location
			if loc == "" {
				loc = testenv.PostgresDatabase(t)
			}
			study := fmt.Sprintf("nul-%d-%d", os.Getpid(), time.Now().UnixNano())
			code, out, errs := run(t, "ingest", nul, good, "--study", study, "--store", loc)
			if code != exitFailure || !strings.Contains(errs, want) || !strings.Contains(out, "1 added") {
				t.Errorf("ingest: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1, %q and 1 added", code, out, errs, want)
			}
			code, out, errs = run(t, "trials", "--store", loc, "--study", study, "--format", "csv")
			if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(out, good) || strings.Contains(out, nul) {
				t.Errorf("stored trials: exit %d\n%s%s\nwant the clean file's one trial", code, out, errs)
			}
		})
	}
}

// TestCheckEscapes checks that pareto check prints a study name read from
// the command line with its control characters escaped.
func TestCheckEscapes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"t.csv": "id,ttft\na,1\n"})
	db := filepath.Join(dir, "runs.db")
	if code, out, errs := run(t, "ingest", filepath.Join(dir, "t.csv"), "--study", "s\x1b]0;owned\x07", "--store", db); code != exitOK {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := run(t, "check", "--store", db)
	if code != exitOK || !strings.Contains(out, `study s\x1b]0;owned\x07: 1 trials`) || strings.ContainsAny(out+errs, "\x1b\x07") {
		t.Errorf("check: exit %d\nstdout: %q\nstderr: %q", code, out, errs)
	}
}

// TestSummaryEscapes checks that the summaries ingest prints (study and
// store location come from the command line) escape control characters.
func TestSummaryEscapes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"t.csv": "id,ttft\na,1\n"})
	db := filepath.Join(dir, "runs\x1b[2J.db")
	code, out, errs := run(t, "ingest", filepath.Join(dir, "t.csv"), "--study", "s\x1b[31m", "--store", db)
	if code != exitOK || !strings.Contains(out, `study s\x1b[31m in `) || !strings.Contains(out, `runs\x1b[2J.db`) || strings.ContainsRune(out+errs, 0x1b) {
		t.Errorf("ingest: exit %d\nstdout: %q\nstderr: %q", code, out, errs)
	}
}
