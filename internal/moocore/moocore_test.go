package moocore

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

const sample = `# leading comment

 1 2 3
4	5 6   

7 8 9
# a comment ends a set
10 11 12


13 14 15
`

func checkSample(t *testing.T, sets []Set) {
	t.Helper()
	want := [][]float64{{1, 2, 3, 4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}}
	if len(sets) != len(want) {
		t.Fatalf("got %d sets; want %d", len(sets), len(want))
	}
	for i, s := range sets {
		if s.K != 3 || !slices.Equal(s.Data, want[i]) {
			t.Errorf("set %d = %+v; want K=3 Data=%v", i, s, want[i])
		}
	}
	if u := Union(sets); u.Len() != 5 || u.K != 3 {
		t.Errorf("Union: Len=%d K=%d; want 5, 3", u.Len(), u.K)
	}
}

func TestRead(t *testing.T) {
	sets, err := Read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	checkSample(t, sets)
}

func TestReadSetsXZ(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(sample)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"a.inp.xz": buf.Bytes(), "a.inp": []byte(sample)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		sets, err := ReadSets(path)
		if err != nil {
			t.Fatalf("ReadSets(%s): %v", name, err)
		}
		checkSample(t, sets)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		empty    bool
	}{
		{"empty", "", true},
		{"blank", "\n  \n\t\n", true},
		{"comments", "# x\n#y\n", true},
		{"ragged", "1 2\n3\n", false},
		{"notanumber", "1 x\n", false},
	} {
		_, err := Read(strings.NewReader(tt.in))
		if err == nil {
			t.Errorf("%s: Read succeeded; want an error", tt.name)
			continue
		}
		if got := errors.Is(err, ErrNoData); got != tt.empty {
			t.Errorf("%s: errors.Is(%v, ErrNoData) = %v; want %v", tt.name, err, got, tt.empty)
		}
	}
}

func TestMatchEllipsis(t *testing.T) {
	for _, tt := range []struct {
		exp, got string
		want     bool
	}{
		{"25", "25", true},
		{"25", "250", false},
		{"9999.9274076096...", "9999.92740760962", true},
		{"9999.9274076096...", "9999.9274076097", false},
		{"...: warning: x: some", "hv: warning: x: some", true},
		{"... warning: ...ran.5d: some", "hv: warning: data/ran.5d: some", true},
		{"... warning: ...ran.5d: some", "hv: error: data/ran.5d: some", false},
		{"a...b...b", "ab", false},
		{"a...b...b", "abb", true},
	} {
		if got := MatchEllipsis(tt.exp, tt.got); got != tt.want {
			t.Errorf("MatchEllipsis(%q, %q) = %v; want %v", tt.exp, tt.got, got, tt.want)
		}
	}
}

func TestParseIndexAndExpected(t *testing.T) {
	dir := t.TempDir()
	index := "suite\ttest\tcmd_no\tinput(s)\tref_point_or_ref_set\tflags\texpected_file\n" +
		"hv\tx\t2\thv/a.inp;hv/b.inp\t1  2 3\t--contributions -u\thv/x.exp\n"
	if err := os.WriteFile(filepath.Join(dir, "INDEX.tsv"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ParseIndex(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("got %d rows; want 1", len(rows))
	}
	r := rows[0]
	ref, err := r.RefPoint()
	if err != nil || !slices.Equal(ref, []float64{1, 2, 3}) || r.Cmd != 2 ||
		!slices.Equal(r.Inputs, []string{"hv/a.inp", "hv/b.inp"}) || !r.HasFlag("-u") || r.HasFlag("--rank") {
		t.Errorf("row = %+v, ref %v, err %v", r, ref, err)
	}
	exp := "25\n=== empty ===\n...: warning: x\n...: error: none\n\n1.5...\n"
	if err := os.WriteFile(filepath.Join(dir, "x.exp"), []byte(exp), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadExpected(filepath.Join(dir, "x.exp"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []LineKind{Value, Section, Warning, Error, Value}
	if len(lines) != len(kinds) {
		t.Fatalf("got %d lines; want %d", len(lines), len(kinds))
	}
	for i, l := range lines {
		if l.Kind != kinds[i] {
			t.Errorf("line %d %q: kind %d; want %d", i, l.Text, l.Kind, kinds[i])
		}
	}
}
