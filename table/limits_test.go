package table

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestReadEnds checks how inputs end: a CSV whose last line has no line
// end may be cut in the middle of a value, so it is an error at that line;
// a JSONL object without its newline is whole or invalid JSON.
func TestReadEnds(t *testing.T) {
	spec := Spec{Numeric: []string{"ttft"}}
	for _, tt := range []struct {
		name, in, err string
		rows          int
	}{
		{"newline", "ttft,b\n1,2\n3,4\n", "", 2},
		{"CR only", "ttft,b\r\n1,2\r\n3,4\r", "", 2},
		{"trailing blank", "ttft,b\n1,2\n   ", "", 1},
		{"cut value", "ttft,b\n1,2\n3,4", "in.csv:3:4: the last line ends without a line end: the file may be truncated", 0},
		{"cut header", "ttft,b", "in.csv:1:7: the last line ends without a line end", 0},
		{"cut quoted", "ttft,b\n1,\"2\"", "in.csv:2:6: the last line ends without a line end", 0},
		{"jsonl whole", "{\"ttft\":1}\n{\"ttft\":2}", "", 2},
		{"jsonl cut", "{\"ttft\":1}\n{\"ttft\":2", "in.csv:2:", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, how := range []string{"Read", "ReadBytes"} {
				var tab *Table
				var err error
				if how == "Read" {
					tab, err = Read(strings.NewReader(tt.in), "in.csv", spec)
				} else {
					tab, err = ReadBytes([]byte(tt.in), "in.csv", spec)
				}
				switch {
				case tt.err == "" && err != nil:
					t.Errorf("%s: %v", how, err)
				case tt.err == "" && tab.Len() != tt.rows:
					t.Errorf("%s: %d rows; want %d", how, tab.Len(), tt.rows)
				case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
					t.Errorf("%s: error %v; want prefix %q", how, err, tt.err)
				}
			}
		})
	}
}

// TestReadRecordLimit checks Spec.MaxRecordSize on every path: streamed
// CSV and JSONL lines, CSV parsed in parallel, JSON array elements.
func TestReadRecordLimit(t *testing.T) {
	long := strings.Repeat("x", 5000)
	big := bigCSV(300_000, func(i int) string {
		if i == 200_000 {
			return "id-" + long + ",1,2,vllm\n"
		}
		return ""
	})
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"csv", []byte("ttft,b\n1,2\n3," + long + "\n4,5\n"), "in.csv:3:1: a line of more than 4 KiB, over the record size limit of 4 KiB"},
		{"jsonl", []byte("{\"ttft\":1}\n{\"ttft\":2,\"b\":\"" + long + "\"}\n"), "in.csv:2:1: a line of more than 4 KiB"},
		{"parallel csv", big, "in.csv:200002:1: a line of more than 4 KiB"},
		{"json array", []byte("[{\"ttft\":1},{\"ttft\":2,\"b\":\"" + long + "\"}]"), "in.csv:1: array element at byte 11: 4.9 KiB, over the record size limit of 4 KiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := Spec{Numeric: []string{"ttft"}, MaxRecordSize: 4096}
			if tt.name == "parallel csv" {
				spec.Numeric = []string{"tps"}
			}
			_, err := ReadBytes(tt.in, "in.csv", spec)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v; want prefix %q", err, tt.want)
			}
			if _, err := ReadBytes(tt.in, "in.csv", Spec{Numeric: spec.Numeric}); err != nil {
				t.Errorf("within the default limit: %v", err)
			}
		})
	}
}

// TestReadEncodings reads UTF-16 text (with and without a byte-order mark,
// either byte order) as the UTF-8 it transcodes to, and refuses binary
// data at its first NUL.
func TestReadEncodings(t *testing.T) {
	in := "id,ttft,engine\nä,1,vllm\nb,2.5,\"sg\nlang\"\n"
	spec := Spec{Numeric: []string{"ttft"}, Text: []string{"id", "engine"}}
	want, err := ReadBytes([]byte(in), "in.csv", spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []struct {
		name string
		data []byte
	}{
		{"UTF-16LE with BOM", utf16Bytes(in, false, true)},
		{"UTF-16BE with BOM", utf16Bytes(in, true, true)},
		{"UTF-16LE", utf16Bytes(in, false, false)},
		{"UTF-16BE", utf16Bytes(in, true, false)},
	} {
		for _, how := range []string{"Read", "ReadBytes"} {
			var got *Table
			if how == "Read" {
				got, err = Read(bytes.NewReader(enc.data), "in.csv", spec)
			} else {
				got, err = ReadBytes(enc.data, "in.csv", spec)
			}
			if err != nil {
				t.Errorf("%s, %s: %v", enc.name, how, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: %+v; want %+v", enc.name, how, got, want)
			}
		}
	}
	for _, how := range []string{"Read", "ReadBytes"} {
		bin := []byte("ttft\n1\n2\x00\x01\x02\n")
		var err error
		if how == "Read" {
			_, err = Read(bytes.NewReader(bin), "in.csv", spec)
		} else {
			_, err = ReadBytes(bin, "in.csv", spec)
		}
		if want := "in.csv:3:2: binary data (a NUL byte), not a CSV or JSONL table"; err == nil || err.Error() != want {
			t.Errorf("%s of binary data: %v; want %q", how, err, want)
		}
	}
}

// utf16Bytes encodes s as UTF-16 in either byte order, with or without a
// byte-order mark.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestMessagesQuoteLittle checks that errors quote at most an excerpt of
// the input, however large its names and cells.
func TestMessagesQuoteLittle(t *testing.T) {
	huge := strings.Repeat("é", 1<<19) // 1 MiB
	tab, err := Read(strings.NewReader("ttft,b\n"+huge+",1\n"), "in.csv", Spec{Numeric: []string{"ttft"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.CellErrors) != 1 || len(tab.CellErrors[0].Error()) > 200 {
		t.Errorf("cell error of %d bytes: %.200s", len(tab.CellErrors[0].Error()), tab.CellErrors[0].Error())
	}
	for _, in := range []string{huge + ",b\n1,2\n", huge + "," + huge + "\n1,2\n"} {
		_, err := Read(strings.NewReader(in), "in.csv", Spec{Numeric: []string{"ttft"}})
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
		}
	}
}

// TestTruncationSweepTable cuts a CSV and a JSONL table at every byte: each
// cut is an error with a line, or gives the first rows of the whole
// table, unchanged.
func TestTruncationSweepTable(t *testing.T) {
	spec := Spec{Numeric: []string{"ttft"}, OptionalText: []string{"id", "ttft", "tps", "engine"}}
	for _, in := range []string{
		"id,ttft,tps,engine\r\na,10,100,vllm\r\n\"b,1\",\"2e1\",,\"sg\"\"lang\"\r\nc, 7 ,inf,\"multi\nline\"\n",
		"{\"id\":\"a\",\"ttft\":10,\"tps\":\"inf\"}\n\n{\"id\":7,\"ttft\":null}\n{\"ttft\":12.5,\"tps\":2}\n",
	} {
		full, err := ReadBytes([]byte(in), "in", spec)
		if err != nil {
			t.Fatal(err)
		}
		errs, prefixes := 0, 0
		for n := range len(in) {
			got, err := ReadBytes([]byte(in[:n]), "in", spec)
			var se *SyntaxError
			switch {
			case errors.As(err, &se) && se.Line >= 1, errors.Is(err, ErrEmpty):
				errs++
			case err != nil:
				t.Errorf("cut at %d: error without a line: %v", n, err)
			case !isPrefix(got, full):
				t.Errorf("cut at %d (…%q): rows %v %v are not the first rows of %v %v", n, in[max(0, n-10):n], got.Lines, got.Text, full.Lines, full.Text)
			default:
				prefixes++
			}
		}
		t.Logf("%d cuts: %d errors, %d the first rows whole", len(in), errs, prefixes)
	}
}

// isPrefix reports whether part holds the first rows of whole, unchanged.
func isPrefix(part, whole *Table) bool {
	n := part.Len()
	if n > whole.Len() || !slices.Equal(part.Lines, whole.Lines[:n]) {
		return false
	}
	for i := range whole.Num {
		for r := range n {
			if a, b := part.Num[i][r], whole.Num[i][r]; a != b && !(isMissing(a) && isMissing(b)) {
				return false
			}
		}
	}
	for i := range whole.Text {
		if part.Text[i] == nil {
			if whole.Text[i] != nil && anyText(whole.Text[i][:n]) {
				return false
			}
			continue
		}
		if !slices.Equal(part.Text[i], whole.Text[i][:n]) {
			return false
		}
	}
	return true
}

func anyText(s []string) bool {
	for _, v := range s {
		if v != "" {
			return true
		}
	}
	return false
}

// TestReadColumnLimit: a CSV header or a JSONL object wider than
// Spec.MaxColumns is an error at the first column or member over it; at
// the limit the table is read.
func TestReadColumnLimit(t *testing.T) {
	header := func(n int) string {
		cols := make([]string, n)
		for i := range cols {
			cols[i] = fmt.Sprintf("c%d", i)
		}
		cols[0] = "ttft"
		return strings.Join(cols, ",")
	}
	object := func(n int) string {
		var b strings.Builder
		b.WriteString(`  {"ttft": 1`)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, `, "c%d": %d`, i, i)
		}
		return b.String() + "}\n"
	}
	for _, tt := range []struct {
		name string
		in   string
		want string // error prefix, "" when read
	}{
		{"csv at the limit", header(8) + "\n" + strings.Repeat("1,", 7) + "1\n", ""},
		{"csv over", header(9) + "\n" + strings.Repeat("1,", 8) + "1\n", "in.csv:1:" + strconv.Itoa(len(header(8))+2) + ": more than 8 columns in one row, over the limit"},
		{"jsonl at the limit", object(8), ""},
		{"json array at the limit", "[" + object(8) + "]", ""},
		{"json array over", "[" + object(40) + "]", "in.csv:1: array element at byte 3: more than 8 members in one row, over the limit"},
		{"jsonl over", object(40), "in.csv:1:" + strconv.Itoa(strings.Index(object(40), `"c8"`)+1) + ": more than 8 members in one row, over the limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadBytes([]byte(tt.in), "in.csv", Spec{Numeric: []string{"ttft"}, MaxColumns: 8})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("at the limit: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || !errors.Is(err, ErrTooManyColumns)):
				t.Errorf("error %v; want prefix %q (ErrTooManyColumns)", err, tt.want)
			}
		})
	}
}
