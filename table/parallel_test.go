package table

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// bigCSV renders rows enough for many blocks.
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

// TestBlocksMatchSequential reads inputs of many blocks line by line and
// in blocks on three goroutines: a bad cell, then a quoted field holding a
// newline (from where the rest is read line by line), or a line longer
// than a block.
func TestBlocksMatchSequential(t *testing.T) {
	spec := Spec{Numeric: []string{"tps", "ttft"}, Text: []string{"engine"}, OptionalText: []string{"id", "host"},
		MaxRecordSize: 4 * blockSize}
	long := "long-" + strings.Repeat("x", 3*blockSize/2) + ",1,2,vllm\n"
	for _, tt := range []struct {
		name string
		odd  int    // the row replaced
		with string // by this text
		rows int    // rows read
	}{
		{"bad cell", 250_001, "x,abc,1,vllm\n", 300_000},
		{"quoted newline", 270_000, "\"quoted\nid\",1,2,\"vllm\"\n", 300_000},
		{"long line", 200_000, long, 300_000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := bigCSV(300_000, func(i int) string {
				switch i {
				case 250_001:
					return "x,abc,1,vllm\n"
				case tt.odd:
					return tt.with
				}
				return ""
			})
			check(t, data, spec, tt.rows)
		})
	}
}

func check(t *testing.T, data []byte, spec Spec, rows int) {
	t.Helper()
	checkFrom(t, data, spec, rows, func(r io.Reader) io.Reader { return r })
}

// checkFrom is check with the parallel read from wrap's reader of data.
func checkFrom(t *testing.T, data []byte, spec Spec, rows int, wrap func(io.Reader) io.Reader) {
	t.Helper()
	if len(data) < 4*blockSize {
		t.Fatalf("test input %d bytes is too small for four blocks", len(data))
	}
	seq, err := readWith(bytes.NewReader(data), "big.csv", spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	par, err := readWith(wrap(bytes.NewReader(data)), "big.csv", spec, 3)
	if err != nil {
		t.Fatal(err)
	}
	if seq.Len() != rows {
		t.Fatalf("read %d rows, want %d", seq.Len(), rows)
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
	if len(par.CellErrors) != 1 || par.CellErrors[0].Line != 250_003 || par.CellErrors[0].Row != 250_001 {
		t.Fatalf("cell errors %+v, want one on line 250003", par.CellErrors)
	}
}

// TestBlocksInPlace reads inputs whose blocks parse into the table's
// columns in place: blank lines leave reserved rows unused (the next
// blocks' rows move down over them), short rows after long ones outgrow
// the columns sized from the first block, and an input of unknown size
// grows them from twice the first block's rows.
func TestBlocksInPlace(t *testing.T) {
	spec := Spec{Numeric: []string{"tps", "ttft"}, Text: []string{"engine"}, OptionalText: []string{"id"}}
	bad := func(i int) string {
		if i == 250_001 {
			return "x,abc,1,vllm\n"
		}
		return ""
	}
	long := strings.Repeat("y", 200)
	for _, tt := range []struct {
		name string
		odd  func(i int) string
		wrap func(io.Reader) io.Reader
	}{
		{"blank lines", func(i int) string {
			if i%1000 == 7 && i > 250_001 {
				return fmt.Sprintf("\n  \ntrial-%d,%d.125,%d.5,vllm\n\n", i, i%1000, i%777)
			}
			return bad(i)
		}, nil},
		{"long rows first", func(i int) string {
			if i < 5000 {
				return fmt.Sprintf("%s-%d,%d.125,%d.5,vllm\n", long, i, i, i)
			}
			return bad(i)
		}, nil},
		{"unknown size", bad, func(r io.Reader) io.Reader { return struct{ io.Reader }{r} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wrap := tt.wrap
			if wrap == nil {
				wrap = func(r io.Reader) io.Reader { return r }
			}
			checkFrom(t, bigCSV(300_000, tt.odd), spec, 300_000, wrap)
		})
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
