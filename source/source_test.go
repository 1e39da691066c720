package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
)

var examples = filepath.Join("..", "examples")

// frontierOf runs q over spec and returns the frontier's values.
func frontierOf(t *testing.T, spec Spec, q *query.Query) [][]float64 {
	t.Helper()
	rows := query.NewRows(q)
	bad, err := Rows(context.Background(), spec, q, rows)
	if err != nil || len(bad) > 0 {
		t.Fatalf("Rows: %v, unreadable %v", err, bad)
	}
	res, err := query.Run(q, rows)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for _, p := range res.Groups()[0].Frontier {
		out = append(out, p.Values)
	}
	return out
}

// TestTableColumnsEqualTrials checks that a generic table read column by
// column (the fast path, when the query needs no trial) gives the same
// points as the same table read as trials, row by row.
func TestTableColumnsEqualTrials(t *testing.T) {
	objs := []frontier.Objective{{Name: "ttft_p99_ms", Direction: frontier.Minimize}, {Name: "output_tps_per_gpu", Direction: frontier.Maximize}}
	slo, err := frontier.ParseSLO("ttft_p99_ms<=400")
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Paths: []string{filepath.Join(examples, "trials.csv")}}
	columns := &query.Query{Objectives: objs, SLOs: []frontier.SLO{slo}, Aggregate: repeat.Median}
	if columns.NeedsTrials() {
		t.Fatal("a query without configuration keys or baseline needs trials")
	}
	// Every row is its own configuration when the key is the id column.
	trials := &query.Query{Objectives: objs, SLOs: []frontier.SLO{slo}, Aggregate: repeat.Median, ConfigKeys: []string{"id"}}
	a, b := frontierOf(t, spec, columns), frontierOf(t, spec, trials)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("columns give %d frontier points, trials %d", len(a), len(b))
	}
	for i := range a {
		if a[i][0] != b[i][0] || a[i][1] != b[i][1] {
			t.Errorf("point %d: columns %v, trials %v", i, a[i], b[i])
		}
	}
}

// TestNothingRead checks that inputs yielding no trial are an *Error that
// names each input and why, and that an unreadable one is named.
func TestNothingRead(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	if err := os.WriteFile(empty, []byte("ttft_p99_ms,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Trials(context.Background(), Spec{Paths: []string{empty}})
	var se *Error
	if !errors.As(err, &se) || len(se.Skips) != 1 || !strings.Contains(err.Error(), "empty.csv:2:1: the table has a header but no rows") {
		t.Fatalf("Trials(empty table) = %v; want an *Error naming the file, line and why", err)
	}
	q := &query.Query{Objectives: []frontier.Objective{{Name: "ttft_p99_ms", Direction: frontier.Minimize}}}
	bad, err := Rows(context.Background(), Spec{Paths: []string{empty, filepath.Join(examples, "trials.csv")}}, q, query.NewRows(q))
	if err != nil || len(bad) != 1 || bad[0].Path != empty {
		t.Fatalf("Rows = %v, %v; want the empty table alone reported unreadable", bad, err)
	}
	if msg := Unreadable(bad).Error(); !strings.HasPrefix(msg, "1 input could not be read:\n  "+empty) {
		t.Errorf("Unreadable = %q", msg)
	}
}

// TestStdin reads a table from standard input.
func TestStdin(t *testing.T) {
	set, err := Trials(context.Background(), Spec{Paths: []string{"-"}, Stdin: strings.NewReader("id,x\nr1,1\nr2,2\n")})
	if err != nil || len(set.Trials) != 2 || set.Trials[1].Labels["id"] != "r2" {
		t.Fatalf("Trials(-) = %+v, %v", set, err)
	}
}
