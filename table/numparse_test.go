package table

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseFloatMatchesStrconv compares parseFloat with strconv.ParseFloat
// bit for bit on edge cases, on random decimals of 1 to 26 digits and on
// long fractions (read eight digits at a time).
func TestParseFloatMatchesStrconv(t *testing.T) {
	cases := []string{"0", "-0", "+0", "0.0", "-0.0", "1", "-1", ".5", "5.", "1e5", "1E+5", "1e-5", "1e22", "1e23",
		"9007199254740992", "9007199254740993", "0.1", "0.39693579999999995", "1.7976931348623157e308", "1e400",
		"4.9e-324", "123456789012345678901234567890", "0.000000000000000000000000000001", "inf", "-Inf", "NaN",
		"1_000", "0x1p3", "1e", "1e+", "-", "", ".", "1.5x", "00012.50", "1e0001", "1e-00022"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		b := []byte{}
		if rng.IntN(4) == 0 {
			b = append(b, '-')
		}
		for range rng.IntN(12) {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 {
			b = append(b, '.')
			for range rng.IntN(14) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(3) == 0 {
			b = append(b, 'e')
			b = strconv.AppendInt(b, int64(rng.IntN(60)-30), 10)
		}
		cases = append(cases, string(b))
		long := []byte("0.") // fractions read eight digits at a time: leading zeros, 8 to 24 digits, a tail
		for range rng.IntN(4) {
			long = append(long, '0')
		}
		for range 8 + rng.IntN(17) {
			long = append(long, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(4) == 0 {
			long = append(long, "e-3x"[:1+rng.IntN(4)]...)
		}
		cases = append(cases, string(long))
		cases = append(cases, strconv.FormatFloat(rng.Float64()*math.Pow(10, float64(rng.IntN(20)-10)), 'g', -1, 64))
	}
	for _, c := range cases {
		want, werr := strconv.ParseFloat(c, 64)
		got, gerr := parseFloat([]byte(c))
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("parseFloat(%q) error %v, strconv %v", c, gerr, werr)
		}
		if werr == nil && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("parseFloat(%q) = %v, strconv %v", c, got, want)
		}
	}
}

// BenchmarkParseFloat parses 4,096 numbers in shortest form a loop: uniform
// in (0, 1) as the frontier benchmarks' tables hold them (17 significant
// digits, most of them read eight at a time), scaled to (0, 1000) as
// latencies, and integers as token counts.
func BenchmarkParseFloat(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		gen  func() float64
	}{
		{"unit", rng.Float64},
		{"ms", func() float64 { return rng.Float64() * 1000 }},
		{"count", func() float64 { return float64(rng.IntN(100_000)) }},
	} {
		vals := make([][]byte, 4096)
		size := 0
		for i := range vals {
			vals[i] = strconv.AppendFloat(nil, c.gen(), 'g', -1, 64)
			size += len(vals[i])
		}
		b.Run("values="+c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, v := range vals {
					if _, err := parseFloat(v); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(vals))*float64(b.N)/b.Elapsed().Seconds(), "numbers/s")
		})
	}
}
