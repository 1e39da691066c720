package table

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// bigCSV renders enough rows to take the parallel path.
func bigCSV(rows int, bad func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString("id,ttft,tps,engine\n")
	for i := range rows {
		if s := bad(i); s != "" {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "trial-%d,%d.125,%d.5,vllm\n", i, i%1000, i%777)
	}
	return b.Bytes()
}

func TestReadBytesMatchesRead(t *testing.T) {
	spec := Spec{Numeric: []string{"tps", "ttft"}, Text: []string{"engine"}, OptionalText: []string{"id", "host"}}
	data := bigCSV(300_000, func(i int) string {
		if i == 250_001 {
			return "x,abc,1,vllm\n"
		}
		return ""
	})
	if len(data) < parallelMin {
		t.Fatalf("test input %d bytes is too small for the parallel path", len(data))
	}
	seq, err := Read(bytes.NewReader(data), "big.csv", spec)
	if err != nil {
		t.Fatal(err)
	}
	par, err := ReadBytes(data, "big.csv", spec)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seq.Lines, par.Lines) || !reflect.DeepEqual(seq.Text, par.Text) ||
		!reflect.DeepEqual(seq.CellErrors, par.CellErrors) || len(seq.Num[0]) != len(par.Num[0]) {
		t.Fatalf("parallel read differs from sequential read")
	}
	for c := range seq.Num {
		for r := range seq.Num[c] {
			a, b := seq.Num[c][r], par.Num[c][r]
			if a != b && !(isMissing(a) && isMissing(b)) {
				t.Fatalf("column %d row %d: %v vs %v", c, r, a, b)
			}
		}
	}
	if len(par.CellErrors) != 1 || par.CellErrors[0].Line != 250_003 {
		t.Fatalf("cell errors %+v, want one on line 250003", par.CellErrors)
	}
}

func TestReadBytesErrorLine(t *testing.T) {
	data := bigCSV(300_000, func(i int) string {
		if i == 280_000 {
			return "x,1\n"
		}
		return ""
	})
	_, err := ReadBytes(data, "big.csv", Spec{Numeric: []string{"ttft"}})
	if err == nil || !strings.HasPrefix(err.Error(), "big.csv:280002:1: row has 2 fields, header has 4") {
		t.Fatalf("err = %v, want the ragged row on line 280002", err)
	}
}
