package frontier

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/moocore"
)

// TestMoocoreNondominated runs every `nondominated` row of the moocore
// regression suite. moocore prints only the first copy of duplicated
// non-dominated points while this package keeps every copy (as ties), so
// filtered outputs are compared as sets of distinct objective vectors.
func TestMoocoreNondominated(t *testing.T) {
	dir := filepath.Join("testdata", "moocore")
	rows, err := moocore.ParseIndex(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, row := range rows {
		if row.Suite != "nondominated" {
			continue
		}
		ran++
		t.Run(row.Test+"/"+strconv.Itoa(row.Cmd), func(t *testing.T) {
			sets, err := moocore.ReadSets(filepath.Join(dir, row.Inputs[0]))
			if err != nil {
				t.Fatal(err)
			}
			if row.HasFlag("--union") || row.HasFlag("-u") {
				sets = []moocore.Set{moocore.Union(sets)}
			}
			obj := objectiveSigns(row, sets[0].K)
			if row.HasFlag("--filter") {
				checkFiltered(t, sets, obj, filepath.Join(dir, row.Expected))
			} else {
				checkCounts(t, sets, obj, filepath.Join(dir, row.Expected), row.Cmd)
			}
		})
	}
	if ran != 29 {
		t.Fatalf("ran %d nondominated rows, want 29 (26 tests)", ran)
	}
}

// objectiveSigns returns per column '-' (minimise), '+' (maximise) or '0'
// (ignore) from --obj=, -o or --maximise.
func objectiveSigns(row moocore.IndexRow, k int) string {
	for i, f := range row.Flags {
		if v, ok := strings.CutPrefix(f, "--obj="); ok {
			return v
		}
		if f == "-o" && i+1 < len(row.Flags) {
			return row.Flags[i+1]
		}
	}
	if row.HasFlag("--maximise") {
		return strings.Repeat("+", k)
	}
	return strings.Repeat("-", k)
}

// oriented projects a set onto its compared columns, negating maximised
// ones (exact for strict dominance).
func oriented(s moocore.Set, obj string) ([]float64, int) {
	var cols []int
	for c := range s.K {
		if obj[c] != '0' {
			cols = append(cols, c)
		}
	}
	out := make([]float64, 0, s.Len()*len(cols))
	for i := range s.Len() {
		for _, c := range cols {
			v := s.Data[i*s.K+c]
			if obj[c] == '+' {
				v = -v
			}
			out = append(out, v)
		}
	}
	return out, len(cols)
}

func distinctFront(s moocore.Set, obj string) map[string]bool {
	data, k := oriented(s, obj)
	out := map[string]bool{}
	for i, d := range StrictFront(data, k) {
		if d < 0 {
			out[vectorKey(data[i*k:i*k+k])] = true
		}
	}
	return out
}

// vectorKey renders a vector with 15 significant digits, the precision
// moocore prints.
func vectorKey(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 15, 64)
	}
	return strings.Join(parts, " ")
}

func checkFiltered(t *testing.T, sets []moocore.Set, obj, expected string) {
	t.Helper()
	want, err := moocore.ReadSets(expected)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(sets) {
		t.Fatalf("expected file has %d sets, input %d", len(want), len(sets))
	}
	for i, s := range sets {
		got := distinctFront(s, obj)
		w, k := oriented(want[i], obj)
		exp := map[string]bool{}
		for j := 0; j < len(w); j += k {
			exp[vectorKey(w[j:j+k])] = true
		}
		if len(got) != len(exp) {
			t.Errorf("set %d: %d distinct frontier vectors, want %d", i+1, len(got), len(exp))
		}
		for key := range exp {
			if !got[key] {
				t.Errorf("set %d: expected frontier vector %s missing", i+1, key)
				break
			}
		}
	}
}

// checkCounts compares the --verbose summary: non-dominated and dominated
// counts, and whether the whole set is non-dominated. Expected files hold
// one block per command, ending with a "# nondominated:" line.
func checkCounts(t *testing.T, sets []moocore.Set, obj, expected string, cmd int) {
	t.Helper()
	nondom, dom, all := verboseBlock(t, expected, cmd)
	// moocore counts the first copy of a duplicated frontier vector as
	// non-dominated and the other copies as dominated.
	gotN := len(distinctFront(sets[0], obj))
	if gotN != nondom || sets[0].Len()-gotN != dom {
		t.Errorf("nondom/dom = %d/%d, want %d/%d", gotN, sets[0].Len()-gotN, nondom, dom)
	}
	if (gotN == sets[0].Len()) != all {
		t.Errorf("all non-dominated = %v, want %v", gotN == sets[0].Len(), all)
	}
}

func verboseBlock(t *testing.T, path string, cmd int) (nondom, dom int, all bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := 0
	sc := bufio.NewScanner(f)
	var counts []string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# nondominated:") {
			block++
			if block == cmd {
				nondom, _ = strconv.Atoi(counts[len(counts)-2])
				dom, _ = strconv.Atoi(counts[len(counts)-1])
				return nondom, dom, strings.Contains(line, "TRUE")
			}
			continue
		}
		if fs := strings.Fields(line); len(fs) >= 5 && !strings.HasPrefix(line, "#") && isInt(fs[len(fs)-1]) && isInt(fs[len(fs)-2]) {
			counts = slices.Clone(fs)
		}
	}
	t.Fatalf("%s: no block %d", path, cmd)
	return 0, 0, false
}

func isInt(s string) bool { _, err := strconv.Atoi(s); return err == nil }
