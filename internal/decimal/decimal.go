// Package decimal converts a decimal number, given as an integer
// significand and a power-of-ten exponent, to the nearest float64 (ties to
// even), exactly as strconv.ParseFloat rounds the same number, without
// going through a string. The readers use it for the digits they have
// already scanned; it covers the numbers benchmark tools write (up to 19
// significant digits, exponents of a few units) and reports the rest, which
// the callers hand to strconv.
package decimal

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Float returns mant × 10^exp correctly rounded to a float64, negated when
// neg is set. ok is false, and the caller must use strconv.ParseFloat, for
// a non-zero mant with exp outside [-22, 22], or outside [-19, 19] when mant
// is above 2^53.
//
// Clinger's fast path handles a significand of at most 2^53: it is exact
// in a float64, and so is 10^|exp| up to 10^22, so one multiplication or
// division, correctly rounded by the hardware, gives the answer. Otherwise
// the significand times 10^exp (exp ≥ 0) is computed as an exact 128-bit
// integer and rounded to 53 bits, half to even. For exp < 0 the significand
// is multiplied by a 128-bit reciprocal of 10^-exp (see reciprocal.go),
// which rounds correctly unless the decimal is exactly a float64 or exactly
// half-way between two; only then is the significand, shifted left, divided
// by 10^-exp as a 128-by-64-bit division whose quotient has 63 or 64 bits
// and whose remainder says whether anything was cut off.
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
		if f, ok = divPow10(mant, -exp); !ok {
			f = quotient(mant, pow10u[-exp])
		}
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
// integer has more than 53 bits. The integer must be non-zero and the
// result a normal number.
func round128(hi, lo uint64, inexact bool, scale int) float64 {
	// Normalise: top·2^64 + low = (hi·2^64 + lo)·2^(64-e) with the top bit
	// of top set, so the integer is (top + low/2^64)·2^e.
	var top, low uint64
	var e int
	if hi != 0 {
		s := bits.LeadingZeros64(hi)
		top, low, e = hi<<s|lo>>(64-s), lo<<s, 64-s
	} else {
		s := bits.LeadingZeros64(lo)
		top, e = lo<<s, -s
	}
	// Keep the top 53 bits of top; bit 10 is the first dropped one, and the
	// ten below it, low and ε are sticky. Round up when the first dropped
	// bit is set and either a sticky bit or the last kept bit is: computed
	// without branches, as the first dropped bit is a coin toss.
	mant := top >> 11
	sticky := top&(1<<10-1) | low | mant&1
	if inexact {
		sticky = 1
	}
	nonzero := (sticky | -sticky) >> 63 // 1 iff sticky != 0
	mant += top >> 10 & nonzero
	return compose(mant, e+11+scale)
}

// compose returns mant·2^e for 2^52 ≤ mant ≤ 2^53 when the result is a
// normal float64. The biased exponent of mant·2^e is e+52+1023, and adding
// mant (whose bit 52 is the implicit one) to (e+1074)·2^52 both sets the
// fraction and adds that one; mant = 2^53, from rounding up, carries into
// the exponent.
func compose(mant uint64, e int) float64 {
	return math.Float64frombits(uint64(e+1074)<<52 + mant)
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

// EightDigits returns the value of the eight ASCII digits x holds, the
// first in its low byte (binary.LittleEndian), and whether all eight are
// digits. A byte is a digit when its high nibble is 3 and adding 6 keeps it
// so; then pairs, quads and the halves are combined by multiplication.
func EightDigits(x uint64) (uint64, bool) {
	const hi = 0xF0F0F0F0F0F0F0F0
	if x&hi|(x+0x0606060606060606)&hi>>4 != 0x3333333333333333 {
		return 0, false
	}
	x &= 0x0F0F0F0F0F0F0F0F
	x = x * (10<<8 + 1) >> 8 & 0x00FF00FF00FF00FF
	x = x * (100<<16 + 1) >> 16 & 0x0000FFFF0000FFFF
	return x * (10000<<32 + 1) >> 32, true
}

// Digits reads the run of ASCII digits of s from i on into the decimal
// mantissa mant, of which digits digits are significant (leading zeros
// are not), eight at a time (EightDigits) once a significant digit is
// read, and returns where the run ends, the mantissa and its significant
// digits. Past 19 significant digits the mantissa has wrapped: the caller
// reads such a number another way.
func Digits(s []byte, i int, mant uint64, digits int) (int, uint64, int) {
	swar := true // until fewer than eight digits follow
	for i < len(s) {
		if swar && mant != 0 {
			if i+8 <= len(s) {
				if v, ok := EightDigits(binary.LittleEndian.Uint64(s[i:])); ok {
					mant = mant*100_000_000 + v
					digits += 8
					i += 8
					continue
				}
			}
			swar = false
		}
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		if mant != 0 || c != '0' {
			digits++
		}
		mant = mant*10 + uint64(c-'0')
		i++
	}
	return i, mant, digits
}
