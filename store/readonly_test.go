package store_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jackc/pgx/v5"
	_ "github.com/ncruces/go-sqlite3/driver"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// dirHashes returns the SHA-256 of every file under dir, by name, SQLite's
// -wal and -shm files included: a store whose writer closed it is back in
// rollback-journal mode (sqliteStore.leaveWAL), so that a reader creates
// neither.
func dirHashes(t *testing.T, dir string) map[string][sha256.Size]byte {
	t.Helper()
	out := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readAll reads everything a Reader offers of the study.
func readAll(ctx context.Context, r store.Reader, study string) ([]store.Study, []trial.Trial, *store.Columns, []trial.Skip, error) {
	studies, err := r.Studies(ctx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ts, err := r.Trials(ctx, study, store.Query{})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cols, err := r.Columns(ctx, study, []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}, nil)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	skips, err := r.Skips(ctx, study, nil)
	return studies, ts, cols, skips, err
}

// helperRead is the "read" helper process: it reads the study read-only
// and exits 3 with the error on failure.
func helperRead(ctx context.Context, loc, study string) {
	r, err := store.OpenReadOnly(ctx, loc)
	if err == nil {
		var ts []trial.Trial
		_, ts, _, _, err = readAll(ctx, r, study)
		r.Close()
		if err == nil {
			fmt.Printf("read %d trials\n", len(ts))
			return
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(3)
}

// fillStudy stores 300 trials and two skips in a study.
func fillStudy(t *testing.T, loc, study string) {
	t.Helper()
	s := openT(t, loc)
	ctx := context.Background()
	for _, src := range []int{0, 100, 200} {
		if _, _, err := s.Ingest(ctx, study, fmt.Sprint("gen", src), genTrials(src, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.RecordSkips(ctx, study, studySkips()[:2]); err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// TestOpenReadOnly reads a store read-only, as Open reads it, on both
// backends, and checks that SQLite files are left byte for byte as they
// were, with no journal created.
func TestOpenReadOnly(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			fillStudy(t, loc, "s")
			want := openT(t, loc)
			wStudies, wTrials, wCols, wSkips, err := readAll(ctx, want, "s")
			if err != nil {
				t.Fatal(err)
			}
			want.Close()
			var before map[string][sha256.Size]byte
			if b.name == "sqlite" {
				before = dirHashes(t, filepath.Dir(loc))
			}
			r, err := store.OpenReadOnly(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			gStudies, gTrials, gCols, gSkips, err := readAll(ctx, r, "s")
			if err != nil {
				t.Fatal(err)
			}
			for name, d := range map[string]string{
				"Studies": cmp.Diff(wStudies, gStudies), "Trials": cmp.Diff(wTrials, gTrials, cmpopts.EquateNaNs()),
				"Columns": cmp.Diff(wCols, gCols, cmpopts.EquateNaNs()), "Skips": cmp.Diff(wSkips, gSkips),
			} {
				if d != "" {
					t.Errorf("%s read-only differs from read-write (-rw +ro):\n%s", name, d)
				}
			}
			if _, err := r.Trials(ctx, "nope", store.Query{}); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("Trials(missing study) = %v; want ErrNoStudy", err)
			}
			// Its connections cannot write, whatever a caller tries.
			if w, ok := r.(store.Store); ok {
				if _, _, err := w.Ingest(ctx, "s", "x", genTrials(1000, 1)); !errors.Is(err, store.ErrReadOnly) {
					t.Errorf("Ingest through a read-only store = %v; want ErrReadOnly", err)
				}
			}
			r.Close()
			if before != nil {
				if diff := cmp.Diff(before, dirHashes(t, filepath.Dir(loc))); diff != "" {
					t.Errorf("reading read-only changed the directory (-before +after):\n%s", diff)
				}
			}
		})
	}
}

// TestOpenReadOnlyRefuses checks what OpenReadOnly, and Open, refuse:
// nothing is created or changed.
func TestOpenReadOnlyRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if _, err := store.OpenReadOnly(ctx, missing); !errors.Is(err, store.ErrNoStore) {
		t.Errorf("OpenReadOnly(missing) = %v; want ErrNoStore", err)
	}
	if _, _, err := store.Migrate(ctx, missing); !errors.Is(err, store.ErrNoStore) {
		t.Errorf("Migrate(missing) = %v; want ErrNoStore", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenReadOnly created %s", missing)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	if _, err := store.OpenReadOnly(ctx, empty); !errors.Is(err, store.ErrNotStore) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("OpenReadOnly(empty file) = %v; want ErrNotStore saying it is empty", err)
	}
	for _, tt := range []struct {
		name, sql, tables string
	}{
		{"app", `CREATE TABLE users (id INTEGER); CREATE TABLE orders (id INTEGER)`, "orders, users"},
		// An Optuna storage has studies and trials tables, in rollback
		// journal mode: it must stay in that mode.
		{"optuna", `PRAGMA journal_mode=DELETE; CREATE TABLE alembic_version (version_num TEXT);
			CREATE TABLE studies (study_id INTEGER PRIMARY KEY, study_name TEXT);
			CREATE TABLE trials (trial_id INTEGER PRIMARY KEY, study_id INTEGER)`, "alembic_version, studies, trials"},
		// golang-migrate's schema_migrations is not pareto's.
		{"migrate-tool", `CREATE TABLE schema_migrations (version BIGINT, dirty BOOLEAN); INSERT INTO schema_migrations VALUES (1, 0)`,
			"schema_migrations"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.name+".sqlite")
			db, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(tt.sql); err != nil {
				t.Fatal(err)
			}
			db.Close()
			before := dirHashes(t, filepath.Dir(path))
			for name, open := range map[string]func() error{
				"OpenReadOnly": func() error { _, err := store.OpenReadOnly(ctx, path); return err },
				"Open":         func() error { _, err := store.Open(ctx, path); return err },
				"Migrate":      func() error { _, _, err := store.Migrate(ctx, path); return err },
			} {
				err := open()
				if !errors.Is(err, store.ErrNotStore) || !strings.Contains(err.Error(), "tables "+tt.tables) {
					t.Errorf("%s = %v; want ErrNotStore naming tables %s", name, err, tt.tables)
				}
			}
			if diff := cmp.Diff(before, dirHashes(t, filepath.Dir(path))); diff != "" {
				t.Errorf("refusing changed the database (-before +after):\n%s", diff)
			}
		})
	}
}

// TestReadOnlyFiles reads a store whose file is read-only (0444) in a
// read-only directory (0555), as a user who cannot write them: when the
// tests run as root (who writes anyway), a helper process reads as nobody.
func TestReadOnlyFiles(t *testing.T) {
	root, err := os.MkdirTemp("", "pareto-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(root, func(p string, _ fs.DirEntry, _ error) error { os.Chmod(p, 0o755); return nil })
		os.RemoveAll(root)
	})
	dir := filepath.Join(root, "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "pareto.db")
	fillStudy(t, loc, "s")
	for _, p := range []string{loc, dir, root} {
		mode := os.FileMode(0o555)
		if p == loc {
			mode = 0o444
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	before := dirHashes(t, dir)
	if os.Geteuid() != 0 {
		ctx := context.Background()
		r, err := store.OpenReadOnly(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if _, ts, _, _, err := readAll(ctx, r, "s"); err != nil || len(ts) != 300 {
			t.Errorf("read %d trials, %v; want 300", len(ts), err)
		}
		r.Close()
		if _, _, err := store.Migrate(ctx, loc); err == nil {
			t.Error("Migrate of a read-only file succeeded")
		}
	} else {
		// The test binary is copied where nobody may run it.
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(root, "store.test")
		os.Chmod(root, 0o755)
		data, err := os.ReadFile(self)
		if err == nil {
			err = os.WriteFile(bin, data, 0o755)
		}
		os.Chmod(root, 0o555)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), helperEnv+"=read", helperLocEnv+"="+loc, helperStudyEnv+"=s")
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "read 300 trials") {
			t.Errorf("reading as nobody: %v\n%s", err, out)
		}
	}
	if diff := cmp.Diff(before, dirHashes(t, dir)); diff != "" {
		t.Errorf("reading changed the read-only directory (-before +after):\n%s", diff)
	}
}

// TestReadOnlyRole reads a PostgreSQL store with a role that may only
// SELECT, and checks that Open's writers are refused to it.
func TestReadOnlyRole(t *testing.T) {
	loc := freshPostgres(t)
	fillStudy(t, loc, "s")
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(loc)
	if err != nil {
		t.Fatal(err)
	}
	role := fmt.Sprintf("pareto_ro_%d", os.Getpid())
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE ROLE "+role+" LOGIN PASSWORD 'ro'"); err != nil {
		testenv.Missing(t, "cannot create a PostgreSQL role (%v): store/testdata/ci-postgres.sh gives the test role CREATEROLE", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, testenv.PostgresURL(t))
		if err == nil {
			c.Exec(ctx, "DROP OWNED BY "+role)
			c.Exec(ctx, "DROP ROLE IF EXISTS "+role)
			c.Close(ctx)
		}
	})
	for _, q := range []string{"GRANT CONNECT ON DATABASE " + cfg.Database + " TO " + role,
		"GRANT USAGE ON SCHEMA public TO " + role, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	roLoc := fmt.Sprintf("postgres://%s:ro@%s:%d/%s?sslmode=disable", role, cfg.Host, cfg.Port, cfg.Database)
	r, err := store.OpenReadOnly(ctx, roLoc)
	if err != nil {
		t.Fatalf("OpenReadOnly as a SELECT-only role: %v", err)
	}
	defer r.Close()
	if _, ts, _, skips, err := readAll(ctx, r, "s"); err != nil || len(ts) != 300 || len(skips) != 2 {
		t.Errorf("read %d trials, %d skips, %v; want 300, 2", len(ts), len(skips), err)
	}
	if w, err := store.Open(ctx, roLoc); err == nil {
		if _, _, err := w.Ingest(ctx, "s", "x", genTrials(1000, 1)); err == nil {
			t.Error("a SELECT-only role ingested")
		}
		w.Close()
	}
}

// TestReadOnlyNotStorePostgres refuses a PostgreSQL database holding
// another application's tables, leaving it as it was.
func TestReadOnlyNotStorePostgres(t *testing.T) {
	loc := freshPostgres(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE users (id INT); CREATE TABLE orders (id INT)`); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() error{
		"OpenReadOnly": func() error { _, err := store.OpenReadOnly(ctx, loc); return err },
		"Open":         func() error { _, err := store.Open(ctx, loc); return err },
	} {
		if err := open(); !errors.Is(err, store.ErrNotStore) || !strings.Contains(err.Error(), "tables orders, users") {
			t.Errorf("%s = %v; want ErrNotStore naming orders, users", name, err)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the database has %d tables (%v) after refusing; want 2", n, err)
	}
}
