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
	var digits, exp int // significant digits (past 19 mant has wrapped), fraction digits as -exp
	start := i
	i, mant, digits = decimal.Digits(s, i, 0, 0)
	seen := i > start
	if i < len(s) && s[i] == '.' {
		j := i + 1
		i, mant, digits = decimal.Digits(s, j, mant, digits)
		exp = j - i
		seen = seen || i > j
	}
	if !seen || digits > 19 {
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
