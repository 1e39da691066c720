package executor

import "strings"

// EnvName turns s into the characters of an environment variable name:
// upper case, every character other than A–Z and 0–9 replaced by "_".
// pareto tune names a parameter's variable PARETO_PARAM_ + EnvName(name).
func EnvName(s string) string {
	b := []byte(strings.ToUpper(s))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// ShellQuote quotes s as one word for a POSIX shell (/bin/sh).
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
