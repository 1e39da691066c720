package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// sqliteDB and pgPool are the stores of each dialect, as tests reach
// their databases.
type (
	sqliteDB interface{ DB() *sql.DB }
	pgPool   interface{ Pool() *pgxpool.Pool }
)

// execRaw runs SQL on the store's database.
func execRaw(ctx context.Context, s store.Store, sql string) error {
	switch s := s.(type) {
	case sqliteDB:
		_, err := s.DB().ExecContext(ctx, sql)
		return err
	case pgPool:
		_, err := s.Pool().Exec(ctx, sql)
		return err
	}
	return fmt.Errorf("unknown store %T", s)
}

// queryInt runs a query of one integer on the store's database.
func queryInt(ctx context.Context, s store.Reader, sql string) (n int64, err error) {
	switch s := s.(type) {
	case sqliteDB:
		err = s.DB().QueryRowContext(ctx, sql).Scan(&n)
	case pgPool:
		err = s.Pool().QueryRow(ctx, sql).Scan(&n)
	default:
		err = fmt.Errorf("unknown store %T", s)
	}
	return n, err
}

// futureSQL is a migration to version 2 as a later pareto would add it:
// a new column, filled from the existing rows, and an index.
const futureSQL = `ALTER TABLE studies ADD COLUMN note TEXT NOT NULL DEFAULT '';
UPDATE studies SET note = 'was ' || name;
CREATE INDEX studies_note ON studies (note);`

// addFutureMigration adds futureSQL as version 2 of the dialect's
// migrations for the rest of the test.
func addFutureMigration(t *testing.T, dialect string) {
	t.Helper()
	old := shared.Known[dialect]
	if len(old) != 1 {
		t.Fatalf("%s has %d migrations; the test adds version 2 to the one schema", dialect, len(old))
	}
	shared.Known[dialect] = append(slices.Clone(old), shared.Migration{Version: 2, Name: "0002_note.sql", SQL: futureSQL})
	t.Cleanup(func() { shared.Known[dialect] = old })
}

// TestFutureMigration is what a later migration must pass: a store of
// the schema before it is refused, unchanged, by the read-only openers
// (pointing to pareto migrate); Migrate applies it once, in its
// transaction, records it and keeps the data; Migrate again and Open
// change nothing more; and a pareto that does not know it refuses the
// store.
func TestFutureMigration(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			old, err := openAt(ctx, loc, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := old.Ingest(ctx, "s", "gen", genTrials(0, 50)); err != nil {
				t.Fatal(err)
			}
			old.Close()
			addFutureMigration(t, b.name)
			if shared.SchemaVersion(b.name) != 2 {
				t.Fatalf("SchemaVersion = %d; want 2", shared.SchemaVersion(b.name))
			}

			var before map[string][32]byte
			if b.name == locate.SQLite {
				before = dirHashes(t, filepath.Dir(loc))
			}
			for range 2 {
				_, err := store.OpenReadOnly(ctx, loc)
				if !errors.Is(err, store.ErrOldSchema) || !strings.Contains(err.Error(), "schema version 1 and this pareto reads version 2") ||
					!strings.Contains(err.Error(), "pareto migrate") {
					t.Fatalf("OpenReadOnly(version 1) = %v; want ErrOldSchema naming both versions and pareto migrate", err)
				}
			}
			if before != nil {
				if diff := cmp.Diff(before, dirHashes(t, filepath.Dir(loc))); diff != "" {
					t.Errorf("refusing the old schema changed the store (-before +after):\n%s", diff)
				}
			}

			if from, to, err := store.Migrate(ctx, loc); err != nil || from != 1 || to != 2 {
				t.Fatalf("Migrate = %d, %d, %v; want 1, 2", from, to, err)
			}
			for i := range 2 {
				if from, to, err := store.Migrate(ctx, loc); err != nil || from != 2 || to != 2 {
					t.Fatalf("Migrate again (%d) = %d, %d, %v; want up to date at 2", i, from, to, err)
				}
			}
			s := openT(t, loc) // a writer: Open migrates nothing more
			for q, want := range map[string]int64{
				`SELECT COUNT(*) FROM schema_migrations`:                                              2,
				`SELECT COUNT(*) FROM schema_migrations WHERE version = 2 AND name = '0002_note.sql'`: 1,
				`SELECT COUNT(*) FROM studies WHERE note = 'was s'`:                                   1,
			} {
				if n, err := queryInt(ctx, s, q); err != nil || n != want {
					t.Errorf("%s = %d, %v; want %d", q, n, err, want)
				}
			}
			r, err := store.OpenReadOnly(ctx, loc)
			if err != nil {
				t.Fatalf("OpenReadOnly after Migrate: %v", err)
			}
			defer r.Close()
			if _, ts, cols, _, err := readAll(ctx, r, "s"); err != nil || len(ts) != 50 || len(cols.IDs) != 50 {
				t.Errorf("after the migration: %d trials, %v; want the 50 stored before", len(ts), err)
			}
			if _, _, err := s.Ingest(ctx, "s", "after", genTrials(50, 10)); err != nil {
				t.Errorf("ingest after the migration: %v", err)
			}
			if checks, err := r.Check(ctx, "s"); err != nil || len(checks) != 1 || checks[0].Trials != 60 || len(checks[0].Damage) > 0 {
				t.Errorf("Check after the migration = %+v, %v; want 60 sound trials", checks, err)
			}
			s.Close()

			shared.Known[b.name] = shared.Known[b.name][:1] // a pareto of version 1
			if _, err := store.Open(ctx, loc); err == nil || !strings.Contains(err.Error(), "schema version 2 is newer than this pareto supports (1)") {
				t.Errorf("Open by a pareto of version 1 = %v; want a refusal to downgrade", err)
			}
			if _, err := store.OpenReadOnly(ctx, loc); err == nil || !strings.Contains(err.Error(), "upgrade pareto") {
				t.Errorf("OpenReadOnly by a pareto of version 1 = %v; want a refusal", err)
			}
		})
	}
}

func TestMigrationsAreConsecutive(t *testing.T) {
	for _, d := range []string{locate.SQLite, locate.Postgres} {
		ms, err := shared.ReadMigrations(d)
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		if ms[0].Name != shared.FirstMigration {
			t.Errorf("%s: version 1 is %s; want %s (it marks a pareto store)", d, ms[0].Name, shared.FirstMigration)
		}
	}
	if shared.SchemaVersion(locate.SQLite) != shared.SchemaVersion(locate.Postgres) {
		t.Errorf("sqlite has %d migrations, postgres %d; keep them in step", shared.SchemaVersion(locate.SQLite), shared.SchemaVersion(locate.Postgres))
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	loc := sqliteLocation(t)
	s := openT(t, loc)
	if err := execRaw(context.Background(), s, `INSERT INTO schema_migrations VALUES (999, 'future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.Open(context.Background(), loc); err == nil || !strings.Contains(err.Error(), "newer than this pareto supports") {
		t.Errorf("Open(newer schema) = %v; want a clear refusal", err)
	}
}

// openAt opens the store at loc for writing with its schema migrated up
// to version (0: the newest), to create stores of earlier versions.
func openAt(ctx context.Context, loc string, version int) (store.Store, error) {
	kind, target, err := locate.Parse(loc)
	if err != nil {
		return nil, err
	}
	return shared.OpenAt[kind](ctx, target, version, nil)
}
