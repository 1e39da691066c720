package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/trial"
)

// ErrNotStore is returned for a database that is not a pareto store: it
// holds tables, but not pareto's schema. Nothing is written to it.
var ErrNotStore = errors.New("not a pareto store")

// ErrOldSchema is returned by OpenReadOnly for a store whose schema is
// older than the one this version reads: opening it with Open (any command
// that writes, or pareto migrate) upgrades it.
var ErrOldSchema = errors.New("schema older than this pareto reads")

// ErrReadOnly is returned by the writing methods of a store that
// OpenReadOnly opened (reached through a type assertion).
var ErrReadOnly = errors.New("store opened read-only")

// ErrNoStore is returned by OpenReadOnly and Migrate for a SQLite store
// file that does not exist (Open creates it).
var ErrNoStore = errors.New("no such store")

// Open opens the store at location for reading and writing, creating it
// if needed (a new SQLite file, or pareto's tables in an empty PostgreSQL
// database), and brings its schema up to date. A database that holds
// other tables but not pareto's is ErrNotStore, and is left untouched. An
// empty location is $PARETO_STORE, else DefaultLocation (see Location), as
// for OpenReadOnly and Migrate. The location's backend must be linked in
// (see Backend).
func Open(ctx context.Context, location string) (Store, error) {
	b, target, err := backendOf(location)
	if err != nil {
		return nil, err
	}
	return b.Open(ctx, target)
}

// OpenReadOnly opens the existing store at location for reading only: it
// never creates, migrates or writes anything, nor changes the database's
// journal mode, and it works on read-only files and directories and with
// a PostgreSQL role that may only SELECT. A missing SQLite file is
// ErrNoStore, a database without pareto's schema ErrNotStore (the error
// lists its tables), a store of an older schema version ErrOldSchema and
// one of a newer version an error asking to upgrade pareto.
func OpenReadOnly(ctx context.Context, location string) (Reader, error) {
	b, target, err := backendOf(location)
	if err != nil {
		return nil, err
	}
	return b.OpenReadOnly(ctx, target)
}

// Migrate brings the schema of the existing store at location up to date
// (as Open does) and returns the schema versions before and after. A
// missing SQLite file is ErrNoStore: Migrate creates no store (an empty
// PostgreSQL database gets pareto's tables).
func Migrate(ctx context.Context, location string) (from, to int, err error) {
	b, target, err := backendOf(location)
	if err != nil {
		return 0, 0, err
	}
	return b.Migrate(ctx, target)
}

// Backend opens the stores of one kind of location. Packages store/sqlite
// (paths, sqlite: and file: URLs) and store/postgres (postgres:// and
// postgresql:// URLs) register theirs (Register) when they are imported;
// package store/all imports both, and a program that opens stores imports
// it (or the one it needs).
type Backend struct {
	// Open opens the store at target, a SQLite file's path or a PostgreSQL
	// URL, as Open does.
	Open func(ctx context.Context, target string) (Store, error)
	// OpenReadOnly opens the store at target as OpenReadOnly does.
	OpenReadOnly func(ctx context.Context, target string) (Reader, error)
	// Migrate migrates the store at target as Migrate does.
	Migrate func(ctx context.Context, target string) (from, to int, err error)
}

// Backend kinds, as Register takes them.
const (
	// SQLite is the kind of the SQLite store: a path, sqlite://PATH, sqlite:PATH or file:PATH.
	SQLite = locate.SQLite
	// Postgres is the kind of the PostgreSQL store: postgres://... or postgresql://...
	Postgres = locate.Postgres
)

// backends holds the registered backends by kind; Register fills it from
// the backends' init functions, before any reader.
var backends = map[string]Backend{}

// Register makes b open the locations of kind (SQLite or Postgres); a
// backend's package calls it from its init function. Registering a kind
// twice, or another kind, panics.
func Register(kind string, b Backend) {
	if kind != SQLite && kind != Postgres {
		panic("store: Register of unknown kind " + kind)
	}
	if _, ok := backends[kind]; ok {
		panic("store: Register called twice for " + kind)
	}
	backends[kind] = b
}

// backendOf returns the backend of location (resolved by Location) and
// what to pass to it.
func backendOf(location string) (Backend, string, error) {
	location = Location(location)
	kind, target, err := locate.Parse(location)
	if err != nil {
		return Backend{}, "", err
	}
	b, ok := backends[kind]
	if !ok {
		return Backend{}, "", fmt.Errorf("store %q: this program has no %s backend (it must import github.com/pareto-llm/pareto/store/all)",
			trial.RedactLocation(location), kind)
	}
	return b, target, nil
}
