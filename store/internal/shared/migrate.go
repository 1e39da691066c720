package shared

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/store/internal/locate"
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// Migration is one forward-only schema step: version 1 is the whole
// schema (0001_init.sql), a later version changes it.
type Migration struct {
	Version int    // from 1, consecutive
	Name    string // the file name, NNNN_description.sql
	SQL     string // the statements
}

// Known holds each dialect's migrations, read from migrationFS when the
// package is initialised (knownErr: why they could not be); a test adds a
// later version to it (see TestFutureMigration).
var Known, knownErr = readDialects(locate.SQLite, locate.Postgres)

// readDialects reads the migrations of the dialects.
func readDialects(dialects ...string) (map[string][]Migration, error) {
	out := map[string][]Migration{}
	var errs []error
	for _, d := range dialects {
		ms, err := ReadMigrations(d)
		errs = append(errs, err)
		out[d] = ms
	}
	return out, errors.Join(errs...)
}

// migrations returns the dialect's migrations in version order: its
// schema, 0001_init.sql, then the later versions.
func migrations(dialect string) ([]Migration, error) {
	if knownErr != nil {
		return nil, knownErr
	}
	ms, ok := Known[dialect]
	if !ok {
		return nil, fmt.Errorf("no migrations for %s", dialect)
	}
	return ms, nil
}

// ReadMigrations reads the dialect's migrations from migrationFS. Files are
// named NNNN_description.sql with consecutive versions from 1.
func ReadMigrations(dialect string) ([]Migration, error) {
	dir := "migrations/" + dialect
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s migrations: %w", dialect, err)
	}
	var out []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration %s: name must start with a version number and '_'", e.Name())
		}
		b, err := fs.ReadFile(migrationFS, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.Name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion returns the newest schema version this package knows for
// the dialect ("sqlite" or "postgres").
func SchemaVersion(dialect string) int {
	ms, err := migrations(dialect)
	if err != nil {
		return 0
	}
	return len(ms)
}

// SchemaTable creates the table recording applied migrations.
const SchemaTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at TEXT NOT NULL
)`

// Stepper is what a dialect provides to the runner: within one
// transaction, read the current version, and apply one migration.
type Stepper interface {
	// step opens a transaction holding the migration lock, calls fn with
	// the current version, and commits what fn did.
	Step(fn func(current int, apply func(m Migration) error) error) error
}

// Upgrade applies the pending migrations up to target (all when target
// is 0), each in its own transaction.
func Upgrade(dialect string, s Stepper, target int) error {
	ms, err := migrations(dialect)
	if err != nil {
		return err
	}
	if target == 0 || target > len(ms) {
		target = len(ms)
	}
	for {
		done := false
		err := s.Step(func(current int, apply func(Migration) error) error {
			if current > len(ms) {
				return fmt.Errorf("schema version %d is newer than this pareto supports (%d): upgrade pareto", current, len(ms))
			}
			if current >= target {
				done = true
				return nil
			}
			m := ms[current]
			if err := apply(m); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}
