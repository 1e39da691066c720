// Package locate parses store locations: which backend (SQLite or
// PostgreSQL) a location names, and what to pass to it. Package store and
// its tests use it.
package locate

import (
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// The kinds of backend a location names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Default is the location used when none is given (store.DefaultLocation).
const Default = "pareto.db"

// Parse returns the backend and what to pass to it: a file path
// for SQLite, the URL for PostgreSQL.
func Parse(loc string) (kind, target string, err error) {
	if loc == "" {
		loc = Default
	}
	lower := strings.ToLower(loc)
	// A URL-shaped SQLite location's query is SQLite's open options, which
	// pareto sets itself: it is dropped, but for an encryption key, which
	// would be silently ignored (the store is not encrypted).
	sqliteURL := func(rest string) (string, string, error) {
		p, query, _ := strings.Cut(rest, "?")
		if strings.Contains(strings.ToLower(query), "key") {
			return "", "", fmt.Errorf("store %q: SQLite encryption keys are not supported (the store would not be encrypted)", trial.RedactLocation(loc))
		}
		if p == "" {
			return "", "", fmt.Errorf("store %q: missing path", trial.RedactLocation(loc))
		}
		return SQLite, p, nil
	}
	switch {
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return Postgres, loc, nil
	case strings.HasPrefix(lower, "sqlite://"):
		return sqliteURL(loc[len("sqlite://"):])
	case strings.HasPrefix(lower, "sqlite:"):
		return sqliteURL(loc[len("sqlite:"):])
	case strings.HasPrefix(lower, "file:"):
		return sqliteURL(strings.TrimPrefix(loc[len("file:"):], "//"))
	case strings.Contains(loc, "://"):
		return "", "", fmt.Errorf("store %q: unknown scheme (want a path, sqlite://PATH or postgres://URL)", trial.RedactLocation(loc))
	}
	return SQLite, loc, nil
}
