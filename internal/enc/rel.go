package enc

import (
	"math"
	"strconv"
)

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// AppendRel appends v as strconv.AppendFloat(b, v, 'g', 6, 64) does, byte
// for byte: six significant digits, the form of relative differences in
// explanations. Printing a million explained rows calls it twice a row;
// strconv's exact fixed-precision conversion is replaced, for |v| in
// [1e-16, 1e27), by one multiplication or division by an exact power of
// ten (rounded once) and a rounding to an integer of six digits, unless the
// scaled value lies within 1e-6 of a rounding boundary, far wider than the
// product's error (below 2⁻³² at that size): then strconv decides.
func AppendRel(b []byte, v float64) []byte {
	a := math.Abs(v)
	if !(a >= 1e-16 && a < 1e27) {
		return strconv.AppendFloat(b, v, 'g', 6, 64)
	}
	e2 := int(math.Float64bits(a)>>52) - 1023 // a in [2^e2, 2^(e2+1)) (a is normal)
	e10 := e2 * 78913 >> 18                   // floor(e2·log10(2)), or one less

	s := scale(a, e10)
	if s >= 1e6 {
		e10++
		s = scale(a, e10)
	}
	if s < 1e5 || s >= 1e6 {
		return strconv.AppendFloat(b, v, 'g', 6, 64)
	}
	m := math.Floor(s)
	switch f := s - m; {
	case math.Abs(f-0.5) < 1e-6:
		return strconv.AppendFloat(b, v, 'g', 6, 64)
	case f > 0.5:
		m++
	}
	if m == 1e6 {
		m, e10 = 1e5, e10+1
	}
	// The digits, trailing zeros dropped, with the decimal point after
	// dp of them (strconv's decimalSlice), then strconv's %g layout.
	var d [6]byte
	u := uint32(m)
	for i := 5; i >= 0; i-- {
		d[i] = byte('0' + u%10)
		u /= 10
	}
	nd := 6
	for nd > 1 && d[nd-1] == '0' {
		nd--
	}
	dp := e10 + 1
	if v < 0 {
		b = append(b, '-')
	}
	eprec := 6
	if eprec > nd && nd >= dp {
		eprec = nd
	}
	if exp := dp - 1; exp < -4 || exp >= eprec {
		b = append(b, d[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, d[1:nd]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b, exp = append(b, '-'), -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			return append(b, '0', byte('0'+exp))
		}
		return append(b, byte('0'+exp/10), byte('0'+exp%10)) // exp < 27
	}
	if dp > 0 {
		b = append(b, d[:min(nd, dp)]...)
		for i := nd; i < dp; i++ {
			b = append(b, '0')
		}
	} else {
		b = append(b, '0')
	}
	if nd > dp {
		b = append(b, '.')
		for i := dp; i < 0; i++ {
			b = append(b, '0')
		}
		b = append(b, d[max(dp, 0):nd]...)
	}
	return b
}

// scale returns a·10^(5-e10), rounded once, for e10 in [-17, 27].
func scale(a float64, e10 int) float64 {
	if e := 5 - e10; e >= 0 {
		return a * pow10[e]
	}
	return a / pow10[e10-5]
}
