package table

import "strconv"

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a decimal number exactly as strconv.ParseFloat does.
// Plain decimals whose digits form an integer below 2^53 scaled by an exact
// power of ten (Clinger's fast path: one correctly rounded multiplication
// or division) are converted directly; everything else (more digits, large
// exponents, inf, nan, hex, underscores) goes to strconv.
func parseFloat(s []byte) (float64, error) {
	if v, ok := fastFloat(s); ok {
		return v, nil
	}
	return strconv.ParseFloat(string(s), 64)
}

func fastFloat(s []byte) (float64, bool) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	var mant uint64
	digits, exp, seen := 0, 0, false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		seen = true
		if mant == 0 && s[i] == '0' {
			continue
		}
		if digits == 19 {
			return 0, false
		}
		mant = mant*10 + uint64(s[i]-'0')
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			seen = true
			exp--
			if mant == 0 && s[i] == '0' {
				continue
			}
			if digits == 19 {
				return 0, false
			}
			mant = mant*10 + uint64(s[i]-'0')
			digits++
		}
	}
	if !seen {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		e, ok := parseExponent(s[i+1:])
		if !ok {
			return 0, false
		}
		exp += e
		i = len(s)
	}
	if i != len(s) || mant > 1<<53 {
		return 0, false
	}
	f := float64(mant)
	switch {
	case mant == 0:
	case exp >= 0 && exp <= 22:
		f *= pow10[exp]
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// parseExponent reads [+-]?digits (at most 4 digits).
func parseExponent(s []byte) (int, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 4 {
		return 0, false
	}
	e := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		e = e*10 + int(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}
