package table

import (
	"strconv"

	"github.com/pareto-llm/pareto/internal/decimal"
)

// parseFloat parses a decimal number exactly as strconv.ParseFloat does.
// Plain decimals of up to 19 significant digits with small exponents are
// converted directly by decimal.Float; everything else (more digits, large
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
	for dot := false; i < len(s); i++ {
		c := s[i]
		if c == '.' && !dot {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		seen = true
		if dot {
			exp-- // a fraction digit
		}
		if mant == 0 && c == '0' {
			continue
		}
		if digits == 19 {
			return 0, false
		}
		mant = mant*10 + uint64(c-'0')
		digits++
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
	if i != len(s) {
		return 0, false
	}
	return decimal.Float(mant, exp, neg)
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
