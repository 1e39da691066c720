package table

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func read(t *testing.T, in string, spec Spec) *Table {
	t.Helper()
	tab, err := Read(strings.NewReader(in), "in.csv", spec)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return tab
}

func TestReadCSV(t *testing.T) {
	in := "\xef\xbb\xbfid,ttft,tps,engine\r\na,10,100,vllm\r\n\r\n\"b,1\",\"2e1\",,\"sg\"\"lang\"\r\nc, 7 ,inf,\"multi\nline\"\n"
	tab := read(t, in, Spec{Numeric: []string{"tps", "ttft"}, Text: []string{"engine"}, OptionalText: []string{"id", "host"}})
	if tab.Format != "csv" || tab.Len() != 3 {
		t.Fatalf("format %s, %d rows; want csv, 3", tab.Format, tab.Len())
	}
	if got := tab.Num[1]; got[0] != 10 || got[1] != 20 || got[2] != 7 {
		t.Errorf("ttft = %v, want [10 20 7]", got)
	}
	if got := tab.Num[0]; got[0] != 100 || !isMissing(got[1]) || !math.IsInf(got[2], 1) {
		t.Errorf("tps = %v, want [100 missing +Inf]", got)
	}
	if got := strings.Join(tab.Text[0], "|"); got != `vllm|sg"lang|multi`+"\n"+`line` {
		t.Errorf("engine = %q", got)
	}
	if got := strings.Join(tab.Text[1], "|"); got != "a|b,1|c" {
		t.Errorf("id = %q", got)
	}
	if tab.Text[2] != nil {
		t.Errorf("absent optional column host = %v, want nil", tab.Text[2])
	}
	if got := tab.Lines; got[0] != 2 || got[1] != 4 || got[2] != 5 {
		t.Errorf("lines = %v, want [2 4 5]", got)
	}
}

func isMissing(v float64) bool { return math.Float64bits(v) == math.Float64bits(Missing) }

func TestReadCSVCellErrors(t *testing.T) {
	tab := read(t, "x,y\n1,abc\n2,3\n", Spec{Numeric: []string{"y"}})
	if len(tab.CellErrors) != 1 {
		t.Fatalf("CellErrors = %v, want one", tab.CellErrors)
	}
	if got, want := tab.CellErrors[0].Error(), `line 2, column "y": "abc" is not a number`; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	if tab.CellErrors[0].Col != 3 {
		t.Errorf("col = %d, want 3", tab.CellErrors[0].Col)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"empty", "", "in.csv: empty input"},
		{"blank", "  \n\n", "in.csv: empty input"},
		{"missing column", "a,b\n1,2\n", `in.csv:1: no column "ttft" (have: a, b)`},
		{"ragged", "ttft,b\n1,2\n3\n", "in.csv:3:1: row has 1 fields, header has 2"},
		{"duplicate", "ttft,ttft\n1,2\n", `in.csv:1:6: duplicate column "ttft"`},
		{"open quote", "ttft\n\"1\n", "in.csv:2:1: quoted field is not closed"},
		{"bare quote", "ttft\n1\"2\n", `in.csv:2:2: bare " in an unquoted field`},
		{"jsonl syntax", "{\"ttft\":1}\n{\"ttft\":2,}\n", "in.csv:2:11: invalid JSON"},
		{"jsonl not object", "{\"ttft\":1}\n[1]\n", "in.csv:2:"},
		{"jsonl missing column", "{\"x\":1}\n", `in.csv:1: no column "ttft" (have: x)`},
		{"json array", "[{\"ttft\":1},{\"ttft\":]", "in.csv:1: array element"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "in.csv", Spec{Numeric: []string{"ttft"}})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %v, want prefix %q", err, tt.want)
			}
		})
	}
	_, err := Read(strings.NewReader(""), "x", Spec{})
	if !errors.Is(err, ErrEmpty) {
		t.Errorf("empty input error %v does not wrap ErrEmpty", err)
	}
}

func TestReadJSONL(t *testing.T) {
	in := "{\"id\":\"a\",\"ttft\":10,\"tps\":\"inf\",\"n\":{\"x\":1}}\n\n{\"id\":7,\"ttft\":null}\n{\"ttft\":true,\"tps\":2}\n"
	tab := read(t, in, Spec{Numeric: []string{"ttft", "tps"}, OptionalText: []string{"id", "host"}})
	if tab.Format != "jsonl" || tab.Len() != 3 {
		t.Fatalf("format %s, %d rows", tab.Format, tab.Len())
	}
	if v := tab.Num[0]; v[0] != 10 || !isMissing(v[1]) || !isMissing(v[2]) {
		t.Errorf("ttft = %v", v)
	}
	if v := tab.Num[1]; !math.IsInf(v[0], 1) || !isMissing(v[1]) || v[2] != 2 {
		t.Errorf("tps = %v", v)
	}
	if got := strings.Join(tab.Text[0], "|"); got != "a|7|" {
		t.Errorf("id = %q", got)
	}
	if tab.Text[1] != nil {
		t.Errorf("host = %v, want nil", tab.Text[1])
	}
	if len(tab.CellErrors) != 1 || tab.CellErrors[0].Line != 4 || tab.CellErrors[0].Text != "true" {
		t.Errorf("CellErrors = %+v", tab.CellErrors)
	}
}

func TestReadJSONArray(t *testing.T) {
	tab := read(t, " [ {\"ttft\": 1}, {\"ttft\": 2.5} ]", Spec{Numeric: []string{"ttft"}})
	if tab.Format != "json" || tab.Len() != 2 || tab.Num[0][1] != 2.5 {
		t.Fatalf("got %s %v", tab.Format, tab.Num)
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"id,ttft,tps\na,1,2\n", "{\"ttft\":1}\n", "[{\"ttft\":1}]", "ttft\n\"1\"\"\n", "\xef\xbb\xbf"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		tab, err := Read(strings.NewReader(string(in)), "fuzz", Spec{Numeric: []string{"ttft"}, OptionalText: []string{"id"}})
		if err != nil {
			if tab != nil {
				t.Fatalf("table and error both returned")
			}
			return
		}
		if len(tab.Num[0]) != tab.Len() {
			t.Fatalf("%d values for %d rows", len(tab.Num[0]), tab.Len())
		}
		if tab.Text[0] != nil && len(tab.Text[0]) != tab.Len() {
			t.Fatalf("%d ids for %d rows", len(tab.Text[0]), tab.Len())
		}
	})
}
