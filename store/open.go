package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
// for OpenReadOnly and Migrate.
func Open(ctx context.Context, location string) (Store, error) {
	return openAt(ctx, location, 0)
}

// OpenReadOnly opens the existing store at location for reading only: it
// never creates, migrates or writes anything, nor changes the database's
// journal mode, and it works on read-only files and directories and with
// a PostgreSQL role that may only SELECT. A missing SQLite file is
// ErrNoStore, a database without pareto's schema ErrNotStore (the error
// lists its tables), a store of an older schema version ErrOldSchema and
// one of a newer version an error asking to upgrade pareto.
func OpenReadOnly(ctx context.Context, location string) (Reader, error) {
	kind, target, err := parseLocation(Location(location))
	if err != nil {
		return nil, err
	}
	if kind == kindPostgres {
		return openPostgresReadOnly(ctx, target)
	}
	return openSQLiteReadOnly(ctx, target)
}

// Migrate brings the schema of the existing store at location up to date
// (as Open does) and returns the schema versions before and after. A
// missing SQLite file is ErrNoStore: Migrate creates no store (an empty
// PostgreSQL database gets pareto's tables).
func Migrate(ctx context.Context, location string) (from, to int, err error) {
	location = Location(location)
	kind, target, err := parseLocation(location)
	if err != nil {
		return 0, 0, err
	}
	if kind == kindSQLite {
		if err := sqliteExists(target); err != nil {
			return 0, 0, err
		}
	}
	// An up-to-date store is only read: opening it for writing would
	// change it (SQLite's journal mode, see sqliteStore.leaveWAL).
	if r, err := OpenReadOnly(ctx, location); err == nil {
		r.Close()
		v := SchemaVersion(kind)
		return v, v, nil
	}
	var st schemaState
	s, err := openAtWith(ctx, location, 0, func(s schemaState) { st = s })
	if err != nil {
		return 0, 0, err
	}
	s.Close()
	return st.version, SchemaVersion(kind), nil
}

// openAt opens the store and migrates its schema up to version (0: the
// newest); tests use it to create databases of earlier versions.
func openAt(ctx context.Context, location string, version int) (Store, error) {
	return openAtWith(ctx, location, version, nil)
}

// openAtWith is openAt; seen, when set, receives what the database held
// before migrating.
func openAtWith(ctx context.Context, location string, version int, seen func(schemaState)) (Store, error) {
	kind, target, err := parseLocation(Location(location))
	if err != nil {
		return nil, err
	}
	switch kind {
	case kindPostgres:
		return openPostgres(ctx, target, version, seen)
	default:
		return openSQLite(ctx, target, version, seen)
	}
}

// schemaState is what a database holds, as opening it finds it.
type schemaState struct {
	// tables lists every table, sorted.
	tables []string
	// pareto tells that schema_migrations records pareto's first
	// migration; version is then the newest migration applied.
	pareto  bool
	version int
}

// firstMigration is the name schema_migrations records for version 1 in
// a pareto store (other tools keep tables of that name too).
const firstMigration = "0001_init.sql"

// forWriting reports whether Open may migrate the database: a new one
// (no table) or a pareto store of this version or an older one.
func (st schemaState) forWriting(dialect string) error {
	switch {
	case len(st.tables) == 0:
		return nil
	case !st.pareto:
		return st.notStore()
	case st.version > SchemaVersion(dialect):
		return st.tooNew(dialect)
	}
	return nil
}

// forReading reports whether a read-only opener can read the database.
func (st schemaState) forReading(dialect string) error {
	switch {
	case len(st.tables) == 0:
		return fmt.Errorf("%w (the database is empty; a command that writes, such as pareto ingest --study, creates the store)", ErrNotStore)
	case !st.pareto:
		return st.notStore()
	case st.version > SchemaVersion(dialect):
		return st.tooNew(dialect)
	case st.version < SchemaVersion(dialect):
		return fmt.Errorf("%w: it has schema version %d and this pareto reads version %d: upgrade it with 'pareto migrate' (or any command that writes to it)",
			ErrOldSchema, st.version, SchemaVersion(dialect))
	}
	return nil
}

func (st schemaState) notStore() error {
	const show = 20
	list := st.tables
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(st.tables)-show)
	}
	return fmt.Errorf("%w (it has tables %s%s)", ErrNotStore, strings.Join(list, ", "), more)
}

func (st schemaState) tooNew(dialect string) error {
	return fmt.Errorf("schema version %d is newer than this pareto supports (%d): upgrade pareto", st.version, SchemaVersion(dialect))
}

// newSchemaState returns the state of a database holding tables, not
// (yet) known to be a pareto store.
func newSchemaState(tables []string) schemaState {
	st := schemaState{tables: slices.Clone(tables)}
	slices.Sort(st.tables)
	return st
}

// hasMigrations reports whether the database has a schema_migrations
// table, pareto's or another tool's.
func (st schemaState) hasMigrations() bool { return slices.Contains(st.tables, "schema_migrations") }

// schemaQuery reads the newest version and the name of version 1 of a
// pareto store's schema_migrations.
const schemaQuery = `SELECT COALESCE(MAX(version), 0), COALESCE(MAX(CASE WHEN version = 1 THEN name END), '') FROM schema_migrations`
