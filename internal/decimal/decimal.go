// Package decimal converts a decimal number, given as an integer
// significand and a power-of-ten exponent, to the nearest float64 (ties to
// even), exactly as strconv.ParseFloat rounds the same number, without
// going through a string. The readers use it for the digits they have
// already scanned; it covers the numbers benchmark tools write (up to 19
// significant digits, exponents of a few units) and reports the rest, which
// the callers hand to strconv.
package decimal

import (
	"math"
	"math/bits"
)

// Float returns mant × 10^exp correctly rounded to a float64, negated when
// neg is set. ok is false, and the caller must use strconv.ParseFloat, for
// a non-zero mant with exp outside [-22, 22], or outside [-19, 19] when mant
// is above 2^53.
//
// Three exact methods are used. Clinger's fast path: a significand of at
// most 2^53 is exact in a float64, and so is 10^|exp| up to 10^22, so one
// multiplication or division, correctly rounded by the hardware, gives the
// answer. Otherwise the significand times 10^exp (exp ≥ 0) is computed as
// an exact 128-bit integer, or the significand, shifted left, is divided
// by 10^-exp (exp < 0) as a 128-by-64-bit division whose quotient has 63
// or 64 bits and whose remainder says whether anything was cut off; either
// is then rounded to 53 bits, half to even.
func Float(mant uint64, exp int, neg bool) (f float64, ok bool) {
	switch {
	case mant == 0:
	case mant <= 1<<53 && exp >= 0 && exp <= 22:
		f = float64(mant) * pow10f[exp]
	case mant <= 1<<53 && exp < 0 && exp >= -22:
		f = float64(mant) / pow10f[-exp]
	case exp >= 0 && exp < len(pow10u):
		hi, lo := bits.Mul64(mant, pow10u[exp])
		f = round128(hi, lo, false, 0)
	case exp < 0 && -exp < len(pow10u):
		f = quotient(mant, pow10u[-exp])
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// quotient returns m/d correctly rounded, for m > 0 and d = 10^k with
// 1 ≤ k ≤ 19.
func quotient(m, d uint64) float64 {
	// Shift m left by s so that the quotient N/d lies in [2^62, 2^64): it
	// then fits the 64-bit result of Div64 (N >> 64 < d) and carries at
	// least ten bits below the 53 kept.
	s := 63 + bits.Len64(d) - bits.Len64(m)
	var hi, lo uint64
	if s >= 64 {
		hi = m << (s - 64)
	} else {
		hi, lo = m>>(64-s), m<<s
	}
	q, r := bits.Div64(hi, lo, d)
	return round128(0, q, r != 0, -s)
}

// round128 returns (hi·2^64 + lo + ε)·2^scale rounded to the nearest
// float64, ties to even, where ε is a positive amount below one when
// inexact is set and zero otherwise; inexact may only be set when the
// integer has more than 53 bits. The result must be a normal number.
func round128(hi, lo uint64, inexact bool, scale int) float64 {
	n := bits.Len64(lo)
	if hi != 0 {
		n = 64 + bits.Len64(hi)
	}
	if n <= 53 { // exact
		return math.Ldexp(float64(lo), scale)
	}
	drop := n - 53
	var mant, rest, half uint64 // kept bits, dropped bits, and their half-way value
	switch {
	case drop < 64:
		mant = lo>>drop | hi<<(64-drop)
		rest, half = lo&(1<<drop-1), 1<<(drop-1)
	default: // 64 < n ≤ 128, so 11 ≤ drop ≤ 75 and hi holds every kept bit
		mant = hi >> (drop - 64)
		half = 1 << 63
		rest = lo
		if drop > 64 {
			// Fold the bits of hi below the kept ones into a sticky bit of
			// rest, after scaling them to compare with half = 2^63.
			below := hi & (1<<(drop-64) - 1)
			rest, half = below, 1<<(drop-65)
			inexact = inexact || lo != 0
		}
	}
	if rest > half || rest == half && (inexact || mant&1 == 1) {
		mant++
		if mant == 1<<53 {
			mant >>= 1
			drop++
		}
	}
	return math.Ldexp(float64(mant), drop+scale)
}

// pow10f holds the powers of ten exact in a float64.
var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// pow10u holds the powers of ten that fit in a uint64.
var pow10u = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()
