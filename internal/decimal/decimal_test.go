package decimal

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// check compares Float with strconv.ParseFloat of the same decimal.
func check(t testing.TB, mant uint64, exp int, neg bool) {
	t.Helper()
	got, ok := Float(mant, exp, neg)
	s := fmt.Sprintf("%de%d", mant, exp)
	if neg {
		s = "-" + s
	}
	want, err := strconv.ParseFloat(s, 64)
	inRange := mant == 0 || exp >= -19 && exp <= 19 || mant <= 1<<53 && exp >= -22 && exp <= 22
	switch {
	case err != nil && ok:
		t.Fatalf("Float(%d, %d) = %v, but ParseFloat(%s): %v", mant, exp, got, s, err)
	case ok != inRange:
		t.Fatalf("Float(%d, %d) ok = %v; want %v", mant, exp, ok, inRange)
	case ok && math.Float64bits(got) != math.Float64bits(want):
		t.Fatalf("Float(%d, %d, %v) = %v (%#x); ParseFloat(%s) = %v (%#x)", mant, exp, neg, got, math.Float64bits(got), s, want, math.Float64bits(want))
	}
}

// TestFloatRandom compares with strconv over significands of every bit
// length and every exponent handled, plus some outside.
func TestFloatRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2_000_000 {
		bitsLen := 1 + r.IntN(64)
		mant := r.Uint64() >> (64 - bitsLen)
		check(t, mant, r.IntN(51)-25, r.IntN(2) == 0)
	}
}

// TestFloatHalfway checks decimals that are exactly half-way between two
// float64s, and their neighbours, where rounding to even and the remainder
// decide: integers just above 2^53 (and 2^54, ...), and the same numbers
// written with trailing zeros after a decimal point, or scaled by powers of
// ten that keep them exact.
func TestFloatHalfway(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		shift := r.IntN(11) // integer of 54..64 bits
		x := (uint64(1)<<53 | r.Uint64()>>11) << shift
		half := uint64(1) << shift >> 1
		for _, m := range []uint64{x + half, x + half - 1, x + half + 1, x + 2*half + half} {
			check(t, m, 0, false)
			for k := 1; k <= 19; k++ { // m·10^k / 10^k, while it fits
				if m > math.MaxUint64/pow10u[k] {
					break
				}
				check(t, m*pow10u[k], -k, false)
			}
		}
		// Products just around half-way: small significands times 10^k.
		check(t, x>>shift|1, r.IntN(20), false)
	}
}

// TestFloatEdges covers the boundaries of each method.
func TestFloatEdges(t *testing.T) {
	for _, mant := range []uint64{0, 1, 9, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<53 + 2, 1<<53 + 3, 1 << 63, math.MaxUint64, math.MaxUint64 - 1, 9999999999999999999, 12345678901234567890} {
		for exp := -26; exp <= 26; exp++ {
			check(t, mant, exp, false)
			check(t, mant, exp, true)
		}
	}
}

func FuzzFloat(f *testing.F) {
	f.Add(uint64(12345678901234567), -15, false)
	f.Add(uint64(1<<53+1), 0, true)
	f.Fuzz(func(t *testing.T, mant uint64, exp int, neg bool) {
		if exp < -400 || exp > 400 {
			return
		}
		check(t, mant, exp, neg)
	})
}

// BenchmarkFloat converts 17-digit significands (what Python's repr and
// Go's shortest formatting write) with the exponents of typical latencies.
func BenchmarkFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	ms := make([]uint64, 1024)
	for i := range ms {
		ms[i] = 1e16 + r.Uint64N(9e16)
	}
	for _, exp := range []int{-14, 2} {
		b.Run(fmt.Sprintf("digits=17/exp=%d/method=decimal", exp), func(b *testing.B) {
			i := 0
			for b.Loop() {
				Float(ms[i&1023], exp, false)
				i++
			}
		})
		strs := make([]string, len(ms))
		for i, m := range ms {
			strs[i] = fmt.Sprintf("%de%d", m, exp)
		}
		b.Run(fmt.Sprintf("digits=17/exp=%d/method=strconv", exp), func(b *testing.B) {
			i := 0
			for b.Loop() {
				strconv.ParseFloat(strs[i&1023], 64)
				i++
			}
		})
	}
}

// TestEightDigits checks EightDigits against strconv on every window of
// random bytes, digits most of them.
func TestEightDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 200000 {
		var w [8]byte
		for k := range w {
			w[k] = byte('0' + rng.IntN(10))
			if rng.IntN(12) == 0 {
				w[k] = byte(rng.IntN(256))
			}
		}
		got, ok := EightDigits(binary.LittleEndian.Uint64(w[:]))
		want, err := strconv.ParseUint(string(w[:]), 10, 64)
		digits := err == nil && !strings.ContainsAny(string(w[:]), "+-_")
		if ok != digits || ok && got != want {
			t.Fatalf("EightDigits(%q) = %d, %v; want %d, %v", w, got, ok, want, digits)
		}
	}
}

// TestDigits checks Digits against a digit-at-a-time loop on random runs
// of digits (leading zeros, runs shorter and longer than eight, other
// bytes after them), from every start and mantissa a number may carry in.
func TestDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for range 200000 {
		var s []byte
		for range rng.IntN(4) {
			s = append(s, '0')
		}
		for range rng.IntN(30) {
			s = append(s, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 {
			s = append(s, ".e,x9"[rng.IntN(5)])
			for range rng.IntN(10) {
				s = append(s, byte('0'+rng.IntN(10)))
			}
		}
		at := rng.IntN(len(s) + 1)
		mant, digits := uint64(0), 0
		if rng.IntN(2) == 0 {
			mant, digits = uint64(rng.IntN(1000)+1), 3
		}
		wi, wm, wd := at, mant, digits
		for ; wi < len(s) && s[wi] >= '0' && s[wi] <= '9'; wi++ {
			if wm != 0 || s[wi] != '0' {
				wd++
			}
			wm = wm*10 + uint64(s[wi]-'0')
		}
		i, m, d := Digits(s, at, mant, digits)
		if i != wi || d != wd || (wd <= 19 && m != wm) {
			t.Fatalf("Digits(%q, %d, %d, %d) = %d, %d, %d; want %d, %d, %d", s, at, mant, digits, i, m, d, wi, wm, wd)
		}
	}
}
