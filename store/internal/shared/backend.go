package shared

import (
	"context"

	"github.com/pareto-llm/pareto/store"
)

// Opener opens the store at target (a SQLite file's path, a PostgreSQL
// URL) for writing and migrates its schema up to version (0: the newest);
// seen, when set, receives what the database held before migrating.
type Opener func(ctx context.Context, target string, version int, seen func(SchemaState)) (store.Store, error)

// OpenAt holds each dialect's Opener, by kind (locate.SQLite,
// locate.Postgres): the dialects' init functions fill it, and tests use
// it to create stores of earlier schema versions.
var OpenAt = map[string]Opener{}

// Backend returns the store.Backend of a dialect, from its openers, and
// records open in OpenAt.
func Backend(dialect string, open Opener, openReadOnly func(ctx context.Context, target string) (store.Reader, error)) store.Backend {
	OpenAt[dialect] = open
	return store.Backend{
		Open: func(ctx context.Context, target string) (store.Store, error) {
			return open(ctx, target, 0, nil)
		},
		OpenReadOnly: openReadOnly,
		Migrate: func(ctx context.Context, target string) (from, to int, err error) {
			// An up-to-date store is only read: opening it for writing
			// would change it (SQLite's journal mode).
			if r, err := openReadOnly(ctx, target); err == nil {
				r.Close()
				v := SchemaVersion(dialect)
				return v, v, nil
			}
			var st SchemaState
			s, err := open(ctx, target, 0, func(s SchemaState) { st = s })
			if err != nil {
				return 0, 0, err
			}
			s.Close()
			return st.Version, SchemaVersion(dialect), nil
		},
	}
}
