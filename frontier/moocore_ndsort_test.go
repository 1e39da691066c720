package frontier

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/internal/moocore"
)

// checkRanksFile compares Ranks over the union of the sets in input with the
// one-rank-per-line expected file.
func checkRanksFile(t *testing.T, input, expected string, cols int) {
	t.Helper()
	sets, err := moocore.ReadSets(input)
	if err != nil {
		t.Fatal(err)
	}
	u := moocore.Union(sets)
	data := u.Data
	if cols < u.K {
		data = make([]float64, 0, u.Len()*cols)
		for i := 0; i < len(u.Data); i += u.K {
			data = append(data, u.Data[i:i+cols]...)
		}
	} else {
		cols = u.K
	}
	got := Ranks(data, cols)
	exp, err := moocore.ReadExpected(expected)
	if err != nil {
		t.Fatal(err)
	}
	if len(exp) != len(got) {
		t.Fatalf("got %d ranks; expected file has %d lines", len(got), len(exp))
	}
	for i, l := range exp {
		want, err := strconv.Atoi(l.Text)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if int(got[i]) != want {
			t.Errorf("point %d %v: rank %d; want %d", i, data[i*cols:(i+1)*cols], got[i], want)
		}
	}
}

// TestMoocoreNDSort runs every "ndsort" command (--rank) of the moocore
// regression testsuite: ranks over all points of the input file.
func TestMoocoreNDSort(t *testing.T) {
	for _, group := range moocoreRows(t, "ndsort") {
		for _, r := range group {
			t.Run(r.Test, func(t *testing.T) {
				if !r.HasFlag("--rank") || len(r.Inputs) != 1 {
					t.Fatalf("unexpected ndsort row %+v", r)
				}
				checkRanksFile(t, filepath.Join(moocoreDir, r.Inputs[0]),
					filepath.Join(moocoreDir, r.Expected), 1<<30)
			})
		}
	}
}

// TestMoocorePythonParetoRank checks the pareto_rank() docstring example of
// the moocore Python package (input1.dat, first two columns, 14 fronts).
func TestMoocorePythonParetoRank(t *testing.T) {
	dir := "testdata/moocore-python"
	checkRanksFile(t, filepath.Join(dir, "input1.dat"), filepath.Join(dir, "input1.pareto_rank.exp"), 2)
}
