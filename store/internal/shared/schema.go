package shared

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/store"
)

// SchemaState is what a database holds, as opening it finds it.
type SchemaState struct {
	// tables lists every table, sorted.
	tables []string
	// Pareto tells that schema_migrations records pareto's first
	// migration; version is then the newest migration applied.
	Pareto  bool
	Version int // see Pareto
}

// FirstMigration is the name schema_migrations records for version 1 in
// a pareto store (other tools keep tables of that name too).
const FirstMigration = "0001_init.sql"

// ForWriting reports whether Open may migrate the database: a new one
// (no table) or a pareto store of this version or an older one.
func (st SchemaState) ForWriting(dialect string) error {
	if len(st.tables) == 0 {
		return nil
	}
	return st.known(dialect)
}

// ForReading reports whether a read-only opener can read the database.
func (st SchemaState) ForReading(dialect string) error {
	if len(st.tables) == 0 {
		return fmt.Errorf("%w (the database is empty; a command that writes to it creates the store)", store.ErrNotStore)
	}
	if err := st.known(dialect); err != nil {
		return err
	}
	if st.Version < SchemaVersion(dialect) {
		return fmt.Errorf("%w: it has schema version %d and this pareto reads version %d: upgrade it with 'pareto migrate' (or any command that writes to it)",
			store.ErrOldSchema, st.Version, SchemaVersion(dialect))
	}
	return nil
}

// known reports whether the database, which has tables, is a pareto store
// of a schema this pareto can read or migrate.
func (st SchemaState) known(dialect string) error {
	switch {
	case !st.Pareto:
		return st.notStore()
	case st.Version > SchemaVersion(dialect):
		return st.tooNew(dialect)
	case st.preRelease():
		return errPreRelease
	}
	return nil
}

// preRelease reports a store of the schema version 1 of before the first
// release, which kept each trial's file, format and session in the
// trial's row: it has no origins table (0001_init.sql was changed in
// place, there being no release to migrate from).
func (st SchemaState) preRelease() bool {
	return st.Pareto && st.Version >= 1 && !slices.Contains(st.tables, "origins")
}

// errPreRelease is the error of a store for which preRelease holds.
var errPreRelease = fmt.Errorf("%w: it was written by a pre-release pareto, whose schema kept each trial's file and session in the trial's row (it has no origins table); "+
	"this pareto can neither read nor migrate it: ingest its sources again into a new store", store.ErrOldSchema)

func (st SchemaState) notStore() error {
	const show = 20
	list := st.tables
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(st.tables)-show)
	}
	return fmt.Errorf("%w (it has tables %s%s)", store.ErrNotStore, strings.Join(list, ", "), more)
}

func (st SchemaState) tooNew(dialect string) error {
	return fmt.Errorf("schema version %d is newer than this pareto supports (%d): upgrade pareto", st.Version, SchemaVersion(dialect))
}

// NewSchemaState returns the state of a database holding tables, not
// (yet) known to be a pareto store.
func NewSchemaState(tables []string) SchemaState {
	st := SchemaState{tables: slices.Clone(tables)}
	slices.Sort(st.tables)
	return st
}

// HasMigrations reports whether the database has a schema_migrations
// table, pareto's or another tool's.
func (st SchemaState) HasMigrations() bool { return slices.Contains(st.tables, "schema_migrations") }

// ReadVersion sets, for a database that has schema_migrations, its
// version and whether it is a pareto store, from SchemaQuery's row read
// by scan; foreign reports the error of SchemaQuery on another tool's
// schema_migrations (without pareto's columns), which leaves st no
// pareto store.
func (st *SchemaState) ReadVersion(scan func(dest ...any) error, foreign func(error) bool) error {
	if !st.HasMigrations() {
		return nil
	}
	var first string
	err := scan(&st.Version, &first)
	if err != nil && foreign(err) {
		return nil
	}
	st.Pareto = first == FirstMigration
	return err
}

// SchemaQuery reads the newest version and the name of version 1 of a
// pareto store's schema_migrations.
const SchemaQuery = `SELECT COALESCE(MAX(version), 0), COALESCE(MAX(CASE WHEN version = 1 THEN name END), '') FROM schema_migrations`
