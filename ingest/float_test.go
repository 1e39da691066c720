package ingest

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseNumber compares parseNumber with strconv.ParseFloat on random
// JSON numbers of 1 to 22 digits with fractions and exponents.
func TestParseNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"0", "-0", "0.0", "-0.0", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072011e-308",
		"9007199254740993", "0.1", "0.39693579999999995", "1022443.0554692096", "1.7976931348623157e308",
		"123456789012345678901234567890", "0.000000000000000000000000000001", "1E5", "1e+5", "12345678901234567890e-5", "1e", "1e+", "-", "", ".5", "1.5x"}
	for range 300000 {
		b := make([]byte, 0, 40)
		if rng.IntN(4) == 0 {
			b = append(b, '-')
		}
		n := 1 + rng.IntN(22)
		for i := range n {
			c := byte('0' + rng.IntN(10))
			if i == 0 && n > 1 && c == '0' {
				c = '1'
			}
			b = append(b, c)
		}
		if rng.IntN(2) == 0 {
			b = append(b, '.')
			for range 1 + rng.IntN(20) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(3) == 0 {
			b = append(b, 'e')
			b = strconv.AppendInt(b, int64(rng.IntN(90)-45), 10)
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, err := strconv.ParseFloat(c, 64)
		got, ok := parseNumber([]byte(c)) // also on input the scanner rejects: must not panic
		if c == "" || c == "-" || c == ".5" || c == "1.5x" || c[len(c)-1] == 'e' || c[len(c)-1] == '+' {
			continue
		}
		if ok != (err == nil) || ok && got != want || ok && (got == 0) && (1/got != 1/want) {
			t.Fatalf("parseNumber(%s) = %v, %v; strconv %v, %v", c, got, ok, want, err)
		}
	}
}

// TestScannerFloat checks that scanner.float reads what number and
// parseNumber read, and stops at the same place, on random numbers
// followed by a delimiter or garbage.
func TestScannerFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300000 {
		var b []byte
		if rng.IntN(4) == 0 {
			b = append(b, '-')
		}
		for i := range rng.IntN(24) {
			if i == 0 && rng.IntN(3) == 0 {
				b = append(b, '0')
				continue
			}
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 {
			b = append(b, '.')
			for range rng.IntN(22) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(4) == 0 {
			b = append(b, "eE"[rng.IntN(2)])
			if rng.IntN(2) == 0 {
				b = append(b, "+-"[rng.IntN(2)])
			}
			b = strconv.AppendInt(b, int64(rng.IntN(400)), 10)
		}
		b = append(b, ",}x."[rng.IntN(4)])
		if rng.IntN(2) == 0 { // digits after the delimiter, inside EightDigits' window
			b = append(b, "12345678"[:rng.IntN(9)]...)
		}
		a, c := &scanner{data: b}, &scanner{data: b}
		got, gotOK := a.float()
		raw, wantOK := c.rawNumber()
		var want float64
		if wantOK {
			want, wantOK = parseNumber(raw)
		}
		if gotOK != wantOK || gotOK && (math.Float64bits(got) != math.Float64bits(want) || a.pos != c.pos) {
			t.Fatalf("float(%q) = %v, %v at %d; number+parseNumber: %v, %v at %d", b, got, gotOK, a.pos, want, wantOK, c.pos)
		}
	}
}
