package decimal

import "math/bits"

// This file divides by 10^k, 1 ≤ k ≤ 19, by multiplying with a rounded-up
// 128-bit reciprocal, and decides the rounding to 53 bits from the product
// alone whenever that is provably possible.
//
// Notation. For k ≥ 1 let b = bits.Len64(10^k), so 2^(b-1) < 10^k < 2^b
// (10^k is not a power of two), and let
//
//	R = ⌈2^(127+b) / 10^k⌉ = 2^(127+b)/10^k + δ,   0 ≤ δ < 1.
//
// Since 2^127 < 2^(127+b)/10^k < 2^128 and the gap to 2^128 is
// 2^128·(10^k-2^(b-1))/10^k ≥ 2^128/10^19 > 1, R lies in (2^127, 2^128).
//
// Let m' = m·2^l ∈ [2^63, 2^64) be m normalised by its l leading zeros, and
//
//	X = m'·2^(63+b)/10^k   (a real number),  so  m/10^k = X·2^-(63+b+l).
//
// The code computes A = ⌊m'·R / 2^64⌋ with two 64×64 multiplications:
// m'·R = m'·Rhi·2^64 + m'·Rlo, and the low 64 bits of m'·Rlo only feed
// the discarded word. Now m'·R/2^64 = X + m'·δ/2^64 with m'·δ/2^64 in
// [0, 1), and m'·R/2^64 ∈ [A, A+1), hence
//
//	A - 1 < X < A + 1.                                   (error bound)
//
// Also X > 2^63·2^127/2^64 = 2^126, so A ≥ 2^126, and A < 2^128: A has 127
// or 128 bits, i.e. the top word hi is at least 2^62. Keeping the top 53
// bits of A drops d = 74 or 75 bits: A = M·2^d + ρ with M ∈ [2^52, 2^53)
// and ρ < 2^d, and let h = 2^(d-1).
//
//   - If 1 ≤ ρ < h, the bound puts X strictly between M·2^d and M·2^d + h:
//     X rounds down to M (and has the same bit length as A).
//   - If h < ρ < 2^d, X lies strictly between M·2^d + h and (M+1)·2^d: X
//     rounds up to M+1.
//   - If ρ = 0 or ρ = h, X may sit on either side of a representable value
//     or of a half-way point, so the caller falls back to the exact
//     division.
//
// The fallback is taken exactly when m/10^k is a float64 of 53 bits or a
// half-way point between two of them. Indeed X = m·2^(63+b+l-k)/5^k, and
// for a grid point G = c·2^(d-1) (a multiple of 2^73)
//
//	X - G = (m·2^(63+b+l-k) - c·2^(d-1)·5^k) / 5^k,
//
// whose numerator is a multiple of 2^64, as 63+b+l-k ≥ 64 (b > k). Since
// 5^k ≤ 5^19 < 2^64, |X - G| < 1 forces X = G; conversely X = G makes A = X
// and ρ ∈ {0, h}. Random decimals therefore never fall back; those written
// from exact binary values, or exact ties, do.

// reciprocal is a rounded-up 128-bit reciprocal of 10^k (see above).
type reciprocal struct {
	hi, lo uint64 // R = hi·2^64 + lo, 2^127 < R < 2^128
	exp    int    // 1 - b: m/10^k = M·2^(exp + shift - l) for the 53-bit M
}

// recip holds the reciprocals of 10^k for 1 ≤ k ≤ 19; entry 0 is unused.
var recip = func() (t [len(pow10u)]reciprocal) {
	for k := 1; k < len(t); k++ {
		t[k] = newReciprocal(pow10u[k])
	}
	return t
}()

// newReciprocal returns ⌈2^(127+b)/d⌉ for d > 1 not a power of two with
// b = bits.Len64(d), by long division of 2^(b-1)·2^128 by d: the leading
// word 2^(b-1) is already below d, so it is the first remainder.
func newReciprocal(d uint64) reciprocal {
	b := bits.Len64(d)
	hi, r := bits.Div64(1<<(b-1), 0, d)
	lo, r := bits.Div64(r, 0, d)
	if r != 0 { // round up; R < 2^128 (see above), so no carry out of hi
		var c uint64
		lo, c = bits.Add64(lo, 1, 0)
		hi += c
	}
	return reciprocal{hi: hi, lo: lo, exp: 1 - b}
}

// divPow10 returns m/10^k correctly rounded, for m > 0 and 1 ≤ k ≤ 19, if
// the 128-bit reciprocal decides the rounding; ok is false, and the caller
// must use the exact quotient, exactly when m/10^k is a float64 or half-way
// between two (see the error bound argument above).
func divPow10(m uint64, k int) (f float64, ok bool) {
	l := bits.LeadingZeros64(m)
	m <<= l
	r := &recip[k]
	h1, l1 := bits.Mul64(m, r.hi)
	h2, _ := bits.Mul64(m, r.lo)
	lo, c := bits.Add64(l1, h2, 0)
	hi := h1 + c // A = hi·2^64 + lo < 2^128: no carry out

	// d - 64 dropped bits of hi: 10 when A has 127 bits, 11 when 128.
	shift := 10 + uint(hi>>63)
	rest := hi & (1<<shift - 1) // ρ = rest·2^64 + lo
	half := uint64(1) << (shift - 1)
	if lo == 0 && (rest == 0 || rest == half) {
		return 0, false
	}
	// With ρ ∉ {0, h}, round up iff ρ > h iff the first dropped bit is set.
	mant := hi>>shift + rest>>(shift-1)
	return compose(mant, r.exp+int(shift)-l), true
}
