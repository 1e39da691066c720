package ingest

// exactFloat returns mant * 10^q correctly rounded, as strconv.ParseFloat
// would, when Clinger's fast path applies: a mantissa of at most 2^53
// (exact in a float64) times or divided by an exactly representable power
// of ten (10^0 … 10^22), one correctly rounded operation. ok is false
// otherwise and the caller falls back to strconv.ParseFloat.
func exactFloat(mant uint64, q, _ int, neg bool) (float64, bool) {
	var f float64
	switch {
	case mant == 0:
		f = 0
	case mant <= 1<<53 && q >= 0 && q <= 22:
		f = float64(mant) * pow10[q]
	case mant <= 1<<53 && q < 0 && q >= -22:
		f = float64(mant) / pow10[-q]
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}
