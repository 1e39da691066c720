package executor

import (
	"os"
	"slices"
	"strings"
)

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

// StoreEnv names the variables of pareto's own store settings, which no
// job inherits: PARETO_STORE (the store's location, a PostgreSQL URL with
// its password) and PGPASSWORD (the password the PostgreSQL driver reads).
var StoreEnv = []string{"PARETO_STORE", "PGPASSWORD"}

// minHidden is the shortest secret Environ looks for in values: a shorter
// one would drop unrelated variables.
const minHidden = 4

// Environ returns this process's environment as a job starts from it:
// without the variables of StoreEnv and without any variable whose value
// holds one of hide (a store password given another way, such as in a
// DATABASE_URL), unless keep names it (pareto tune's --pass-env). Secrets
// shorter than 4 bytes are not looked for.
func Environ(keep, hide []string) []string {
	env := os.Environ()
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if !slices.Contains(keep, name) && (slices.Contains(StoreEnv, name) || holdsAny(value, hide)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// holdsAny reports whether s holds one of the secrets of 4 bytes or more.
func holdsAny(s string, secrets []string) bool {
	for _, x := range secrets {
		if len(x) >= minHidden && strings.Contains(s, x) {
			return true
		}
	}
	return false
}
