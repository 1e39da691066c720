package table

import (
	"encoding/binary"
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
	digits, exp := 0, 0 // significant digits (past 19 mant has wrapped), fraction digits as -exp
	start := i
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if mant != 0 || s[i] != '0' {
			mant = mant*10 + uint64(s[i]-'0')
			digits++
		}
	}
	seen := i > start
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for i < len(s) {
			if mant != 0 && i+8 <= len(s) { // eight digits at a time once a significant one is read
				if v, ok := decimal.EightDigits(binary.LittleEndian.Uint64(s[i:])); ok {
					mant = mant*100_000_000 + v
					digits += 8
					i += 8
					continue
				}
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
