package frontier

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/moocore"
)

const moocoreDir = "testdata/moocore"

// moocoreRows returns the INDEX.tsv rows of suite grouped by expected file,
// in file order.
func moocoreRows(t *testing.T, suite string) [][]moocore.IndexRow {
	t.Helper()
	rows, err := moocore.ParseIndex(filepath.Join(moocoreDir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var groups [][]moocore.IndexRow
	pos := map[string]int{}
	for _, r := range rows {
		if r.Suite != suite {
			continue
		}
		g, ok := pos[r.Expected]
		if !ok {
			g = len(groups)
			pos[r.Expected] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], r)
	}
	if len(groups) == 0 {
		t.Fatalf("no %s rows in INDEX.tsv", suite)
	}
	return groups
}

// moocoreSets reads the sets of the row's single input file; a missing file
// falls back to its ".xz" variant, then to the same name in the parent
// directory (hv/hvc rows reuse inputs of hv/).
func moocoreSets(t *testing.T, r moocore.IndexRow) ([]moocore.Set, error) {
	t.Helper()
	if len(r.Inputs) != 1 {
		t.Fatalf("%s#%d: %d inputs; want 1", r.Test, r.Cmd, len(r.Inputs))
	}
	path := filepath.Join(moocoreDir, r.Inputs[0])
	for _, alt := range []string{path + ".xz", filepath.Join(filepath.Dir(filepath.Dir(path)), filepath.Base(path))} {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			path = alt
		}
	}
	return moocore.ReadSets(path)
}

// hvOutcome is what one hv command prints: values, or an error, plus
// whether it warns about discarded points.
type hvOutcome struct {
	values []float64
	warn   bool
	err    bool
}

func runHVCommand(t *testing.T, r moocore.IndexRow) hvOutcome {
	t.Helper()
	sets, err := moocoreSets(t, r)
	if errors.Is(err, moocore.ErrNoData) {
		return hvOutcome{err: true}
	}
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.RefPoint()
	if err != nil {
		t.Fatal(err)
	}
	if r.HasFlag("-u") {
		sets = []moocore.Set{moocore.Union(sets)}
	}
	var out hvOutcome
	for _, s := range sets {
		hv, disc := HypervolumeDetail(s.Data, s.K, ref)
		out.warn = out.warn || disc > 0
		if disc == s.Len() {
			out.err = true
			return out
		}
		out.values = append(out.values, hv)
	}
	return out
}

// checkOutcome consumes the expected lines of one command and returns the
// rest.
func checkOutcome(t *testing.T, r moocore.IndexRow, got hvOutcome, exp []moocore.ExpLine) []moocore.ExpLine {
	t.Helper()
	for len(exp) > 0 && exp[0].Kind == moocore.Section {
		exp = exp[1:]
	}
	warned := false
	for len(exp) > 0 && exp[0].Kind == moocore.Warning {
		warned, exp = true, exp[1:]
	}
	if warned != got.warn {
		t.Errorf("%s#%d: discarded points: got warning %v; want %v", r.Test, r.Cmd, got.warn, warned)
	}
	if got.err {
		if len(exp) == 0 || exp[0].Kind != moocore.Error {
			t.Errorf("%s#%d: got an error (no valid point); want values", r.Test, r.Cmd)
			return exp
		}
		return exp[1:]
	}
	for i, v := range got.values {
		if len(exp) == 0 || exp[0].Kind != moocore.Value {
			t.Errorf("%s#%d: value %d = %v; expected output has no more values", r.Test, r.Cmd, i, v)
			return exp
		}
		if !moocoreValueMatch(exp[0].Text, v) {
			t.Errorf("%s#%d: value %d = %.17g; want %s", r.Test, r.Cmd, i, v, exp[0].Text)
		}
		exp = exp[1:]
	}
	return exp
}

// moocoreValueMatch compares v with an expected value printed by moocore
// with 15 significant digits. A trailing "..." means "starts with these
// digits" and is matched exactly. A full 15-digit value must match its string
// or lie within 5e-15 relative error: moocore's printed result carries its
// own floating-point error of that size (the last printed digit differs
// between its algorithms, which is why the suite uses "..." elsewhere).
func moocoreValueMatch(exp string, v float64) bool {
	if moocore.MatchEllipsis(exp, strconv.FormatFloat(v, 'g', 15, 64)) {
		return true
	}
	if strings.Contains(exp, "...") {
		return false
	}
	want, err := strconv.ParseFloat(exp, 64)
	return err == nil && math.Abs(v-want) <= 5e-15*math.Abs(want)
}

// TestMoocoreHypervolume runs every "hv" command of the moocore regression
// testsuite listed in INDEX.tsv and compares the output with the expected
// file: values to the printed 15 significant digits (a trailing "..." means
// a prefix), discarded-point warnings, and "no valid point" errors.
func TestMoocoreHypervolume(t *testing.T) {
	for _, group := range moocoreRows(t, "hv") {
		t.Run(group[0].Test, func(t *testing.T) {
			if testing.Short() && strings.Contains(group[0].Test, "5d.front") {
				t.Skip("slow in -short mode")
			}
			exp, err := moocore.ReadExpected(filepath.Join(moocoreDir, group[0].Expected))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range group {
				exp = checkOutcome(t, r, runHVCommand(t, r), exp)
			}
			for _, l := range exp {
				if l.Kind != moocore.Section {
					t.Errorf("unconsumed expected line %q", l.Text)
				}
			}
		})
	}
}

// TestMoocoreHVContributions runs the "hv/hvc" commands (--contributions):
// one exclusive contribution per input point, 0 for discarded points;
// dominated points are ignored (moocore >= 0.17).
func TestMoocoreHVContributions(t *testing.T) {
	for _, group := range moocoreRows(t, "hv/hvc") {
		r := group[0]
		t.Run(r.Test, func(t *testing.T) {
			sets, err := moocoreSets(t, r)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := r.RefPoint()
			if err != nil {
				t.Fatal(err)
			}
			if r.HasFlag("-u") {
				sets = []moocore.Set{moocore.Union(sets)}
			}
			got := hvOutcome{}
			for _, s := range sets {
				_, disc := HypervolumeDetail(s.Data, s.K, ref)
				got.warn = got.warn || disc > 0
				got.values = append(got.values, HypervolumeContributions(s.Data, s.K, ref, true)...)
			}
			exp, err := moocore.ReadExpected(filepath.Join(moocoreDir, r.Expected))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range checkOutcome(t, r, got, exp) {
				t.Errorf("unconsumed expected line %q", l.Text)
			}
		})
	}
}
