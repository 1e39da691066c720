package enc

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/pareto-llm/pareto/frontier"
)

func TestSafe(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain ascii, with \\ and é ↓", "plain ascii, with \\ and é ↓"},
		{"\x1b[2J\x1b]0;title\x07", `\x1b[2J\x1b]0;title\x07`},
		{"a\nb\tc\rd\x7f", `a\nb\tc\rd\x7f`},
		{"c1 \u0085 \u009b31m", `c1 \u0085 \u009b31m`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200f", `bidi \u202eevil\u202c \u2066x\u2069 \u200f`},
		{"bad \xff\xfe utf-8 \xc2", `bad \xff\xfe utf-8 \xc2`},
		{"", ""},
	} {
		if got := Safe(tt.in); got != tt.want {
			t.Errorf("Safe(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if got := string(AppendSafe([]byte("x"), []byte(tt.in))); got != "x"+tt.want {
			t.Errorf("AppendSafe(%q) = %q; want %q", tt.in, got, "x"+tt.want)
		}
	}
	if got, want := SafeLines("line 1 \x1b[31m\nline 2\x07"), "line 1 \\x1b[31m\nline 2\\x07"; got != want {
		t.Errorf("SafeLines = %q; want %q", got, want)
	}
}

// TestSectionEscapes checks that a table escapes what its cells and
// headers hold, and aligns on the escaped text.
func TestSectionEscapes(t *testing.T) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	cells := [][]string{{"\x1b[2Jtrial", "1"}, {"b", "2"}}
	Section(w, []string{"id\x1b", "v"}, len(cells), func(b []byte, r, c int) []byte { return append(b, cells[r][c]...) })
	w.Flush()
	want := `id\x1b        v
\x1b[2Jtrial  1
b             2
`
	if buf.String() != want {
		t.Errorf("Section:\n%s\nwant:\n%s", buf.String(), want)
	}
	if strings.ContainsRune(buf.String(), 0x1b) {
		t.Errorf("an escape character reached the output")
	}
}

// TestAppendNum: tables print 4 significant digits, integers from 10⁴ up
// to 10⁹ in full, "-" when missing (frontier.Missing).
func TestAppendNum(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{26.267317079999998, "26.27"},
		{0, "0"},
		{75.5, "75.5"},
		{2545, "2545"},
		{9999.4, "9999"},
		{12412.394674113431, "12412"},
		{-12412.6, "-12413"},
		{0.012344, "0.01234"},
		{1.5e-06, "1.5e-06"},
		{123456789, "123456789"},
		{1.2345e9, "1.234e+09"},
		{math.Inf(1), "+Inf"},
		{math.NaN(), "NaN"},
		{frontier.Missing, "-"},
	} {
		if got := string(AppendNum(nil, tt.v)); got != tt.want {
			t.Errorf("AppendNum(%v) = %q; want %q", tt.v, got, tt.want)
		}
	}
}

// TestAppendPercent: relative differences print signed with one decimal,
// "n/a" when not finite; an interval joins two of them with " to ".
func TestAppendPercent(t *testing.T) {
	for _, tt := range []struct {
		low, high float64
		want      string
	}{
		{-0.02, 0.035, "-2.0% to +3.5%"},
		{0, 0, "+0.0% to +0.0%"},
		{0.12345, 1.5, "+12.3% to +150.0%"},
		{math.NaN(), math.Inf(1), "n/a to n/a"},
	} {
		if got := string(AppendInterval([]byte("CI "), tt.low, tt.high)); got != "CI "+tt.want {
			t.Errorf("AppendInterval(%v, %v) = %q; want %q", tt.low, tt.high, got, "CI "+tt.want)
		}
	}
}

// TestAppendNumClose: what a table prints reads back within the rounding
// of 4 significant digits.
func TestAppendNumClose(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Float64Range(-1e12, 1e12).Draw(t, "v")
		got, err := strconv.ParseFloat(string(AppendNum(nil, v)), 64)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(got - v); d > 5e-4*math.Abs(v) {
			t.Fatalf("AppendNum(%v) reads back as %v", v, got)
		}
	})
}
