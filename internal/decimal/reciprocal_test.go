package decimal

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestReciprocal checks each table entry against math/big:
// R = ⌈2^(127+b)/10^k⌉ with b = bits.Len64(10^k), and 2^127 < R < 2^128.
func TestReciprocal(t *testing.T) {
	one := big.NewInt(1)
	for k := 1; k < len(recip); k++ {
		d := new(big.Int).SetUint64(pow10u[k])
		b := d.BitLen()
		num := new(big.Int).Lsh(one, uint(127+b))
		want, rem := new(big.Int).QuoRem(num, d, new(big.Int))
		if rem.Sign() != 0 {
			want.Add(want, one)
		}
		r := recip[k]
		got := new(big.Int).Lsh(new(big.Int).SetUint64(r.hi), 64)
		got.Or(got, new(big.Int).SetUint64(r.lo))
		if got.Cmp(want) != 0 || r.exp != 1-b {
			t.Errorf("recip[%d] = %#x, exp %d; want %#x, exp %d", k, got, r.exp, want, 1-b)
		}
		if got.BitLen() != 128 || got.Cmp(new(big.Int).Lsh(one, 127)) == 0 {
			t.Errorf("recip[%d] = %#x; want 2^127 < R < 2^128", k, got)
		}
	}
}

// onGrid reports whether m/10^k is a float64 of 53 bits or half-way between
// two, that is a dyadic rational whose odd part has at most 54 bits: the
// only inputs on which divPow10 may, and must, decline.
func onGrid(m uint64, k int) bool {
	p5 := pow10u[k] >> k // 5^k
	if m%p5 != 0 {
		return false
	}
	q := m / p5 // m/10^k = q/2^k
	return bits.Len64(q>>bits.TrailingZeros64(q)) <= 54
}

// checkDivPow10 checks that divPow10(m, k) declines exactly on the grid and
// otherwise agrees with strconv.ParseFloat.
func checkDivPow10(t *testing.T, m uint64, k int) {
	t.Helper()
	got, ok := divPow10(m, k)
	if grid := onGrid(m, k); ok == grid {
		t.Fatalf("divPow10(%d, %d) ok = %v; want %v", m, k, ok, !grid)
	}
	if !ok {
		return
	}
	s := fmt.Sprintf("%de-%d", m, k)
	want, err := strconv.ParseFloat(s, 64)
	if err != nil || got != want {
		t.Fatalf("divPow10(%d, %d) = %v (%#x); ParseFloat(%s) = %v (%#x), %v", m, k, got, math.Float64bits(got), s, want, math.Float64bits(want), err)
	}
}

// TestDivPow10Typical checks that the reciprocal decides, and decides
// right, for shortest round-trip decimals of 16 and 17 digits, random
// significands of every length, and exponents -1..-19: the fast path is
// the one taken for typical input.
func TestDivPow10Typical(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50_000 {
		x := math.Float64frombits(r.Uint64N(0x7ff0_0000_0000_0000)) // finite, positive
		s := strconv.FormatFloat(x, 'e', -1, 64)
		mant, exp := parseE(t, s)
		if mant > 1<<53 && exp < 0 && exp >= -19 {
			checkDivPow10(t, mant, -exp)
		}
		for k := 1; k <= 19; k++ {
			checkDivPow10(t, 1e16+r.Uint64N(9e16), k)
			checkDivPow10(t, r.Uint64()>>r.IntN(64)|1, k)
		}
	}
}

// parseE splits a FormatFloat 'e' string into an integer significand and a
// power-of-ten exponent.
func parseE(t *testing.T, s string) (mant uint64, exp int) {
	t.Helper()
	var digits []byte
	i := 0
	for ; s[i] != 'e'; i++ {
		if s[i] != '.' {
			digits = append(digits, s[i])
		}
	}
	e, err := strconv.Atoi(s[i+1:])
	if err != nil {
		t.Fatal(err)
	}
	mant, err = strconv.ParseUint(string(digits), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return mant, e - (len(digits) - 1)
}

// TestDivPow10Fallback builds decimals exactly on a rounding boundary (a
// float64 of 53 bits, or half-way between two) for every k, checks that
// the reciprocal declines them and that Float still rounds them, and their
// nearest decimal neighbours, like strconv.
func TestDivPow10Fallback(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 0
	for range 100_000 {
		k := 1 + r.IntN(19)
		// m/10^k = q·2^-t: the odd part q has 1..54 bits (54 bits: a tie
		// at 53), and m = q·5^k·2^(k-t) must fit in 64 bits.
		p5 := pow10u[k] >> k
		room := 64 - bits.Len64(p5) // bits left for q·2^(k-t)
		w := 1 + r.IntN(min(54, room))
		q := (r.Uint64()>>(64-w) | 1<<(w-1)) | 1 // odd, w bits
		e := r.IntN(room - w + 1)                // k - t ≥ 0
		m := q * p5 << e
		if m <= 1<<53 {
			continue // Float uses Clinger's method there
		}
		n++
		if _, ok := divPow10(m, k); ok {
			t.Fatalf("divPow10(%d, %d) decided a decimal on a rounding boundary", m, k)
		}
		for _, mm := range []uint64{m - 1, m, m + 1} {
			check(t, mm, -k, false)
			checkDivPow10(t, mm, k)
		}
	}
	if n < 50_000 {
		t.Fatalf("only %d boundary cases above 2^53", n)
	}
}

// TestQuotient checks the exact division, which Float now only reaches on
// rounding boundaries, over all inputs it accepts.
func TestQuotient(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 200_000 {
		m := r.Uint64()>>r.IntN(64) | 1
		k := 1 + r.IntN(19)
		got := quotient(m, pow10u[k])
		s := fmt.Sprintf("%de-%d", m, k)
		if want, _ := strconv.ParseFloat(s, 64); got != want {
			t.Fatalf("quotient(%d, 1e%d) = %v; ParseFloat(%s) = %v", m, k, got, s, want)
		}
	}
}
