package store_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/store/sqlite"
)

func TestNotSQLite(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	content := []byte("name,ttft\nx,1\n")
	if err := os.WriteFile(junk, content, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(context.Background(), junk)
	if !errors.Is(err, sqlite.ErrNotSQLite) {
		t.Errorf("Open(CSV file) = %v; want ErrNotSQLite", err)
	}
	if got, _ := os.ReadFile(junk); !bytes.Equal(got, content) {
		t.Errorf("Open changed the file it refused")
	}
	if _, err := store.Open(context.Background(), dir); err == nil {
		t.Errorf("Open(directory) succeeded")
	}
	if _, err := store.Open(context.Background(), filepath.Join(dir, "missing", "x.db")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Open(missing directory) = %v; want 'does not exist'", err)
	}
}

func TestCorruptSQLite(t *testing.T) {
	loc := sqliteLocation(t)
	s := openT(t, loc)
	if _, _, err := s.Ingest(context.Background(), "s", "src", genTrials(0, 500)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(loc)
	if err != nil {
		t.Fatal(err)
	}
	for i := 100; i < len(b); i++ { // keep the header, ruin every page
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(loc, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(loc + "-wal")
	os.Remove(loc + "-shm")
	s2, err := store.Open(context.Background(), loc)
	if err == nil {
		_, err = s2.Trials(context.Background(), "s", store.Query{})
		s2.Close()
	}
	if err == nil || !strings.Contains(err.Error(), loc) {
		t.Errorf("corrupt database: err = %v; want an error naming the file", err)
	}
}

// tmpfs mounts a tmpfs of the given size (e.g. "2m") on a fresh directory.
// Where mounting is not permitted it skips, or fails under CI.
func tmpfs(t *testing.T, size string) string {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		testenv.Missing(t, "cannot mount a tmpfs (needs root): %v: %s", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v: %s", opts, err, out)
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	dir := tmpfs(t, "64m")
	loc := filepath.Join(dir, "pareto.db")
	ctx := context.Background()
	s := openT(t, loc)
	if _, _, err := s.Ingest(ctx, "s", "a", genTrials(0, 100)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	remount(t, dir, "ro")
	fresh := filepath.Join(dir, "new.db")
	if _, err := store.Open(ctx, fresh); err == nil {
		t.Errorf("Open(new file in read-only directory) succeeded")
	} else {
		t.Logf("new file: %v", err)
	}
	if s, err := store.Open(ctx, loc); err == nil {
		_, _, err = s.Ingest(ctx, "s", "b", genTrials(100, 100))
		s.Close()
		if err == nil {
			t.Errorf("Ingest into a read-only directory succeeded")
		} else {
			t.Logf("ingest: %v", err)
		}
	} else {
		t.Logf("open: %v", err)
	}
	remount(t, dir, "rw")
	s = openT(t, loc)
	assertComplete(t, s, "s", 100)
	if added, _, err := s.Ingest(ctx, "s", "b", genTrials(100, 100)); err != nil || added != 100 {
		t.Errorf("next run: %d added, %v; want 100", added, err)
	}
}

func TestDiskFull(t *testing.T) {
	dir := tmpfs(t, "1m")
	loc := filepath.Join(dir, "pareto.db")
	ctx := context.Background()
	s := openT(t, loc)
	if _, _, err := s.Ingest(ctx, "s", "small", genTrials(0, 100)); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Ingest(ctx, "s", "big", genTrials(100, 20_000))
	if err == nil {
		t.Fatal("Ingest of 20,000 trials into a 1 MiB file system succeeded")
	}
	if !strings.Contains(err.Error(), "disk full") && !strings.Contains(err.Error(), "I/O error") {
		t.Errorf("disk full: err = %v; want it to say so", err)
	}
	t.Logf("disk full: %v", err)
	s.Close()
	remount(t, dir, "size=64m")
	s = openT(t, loc)
	assertComplete(t, s, "s", 100)
	if added, _, err := s.Ingest(ctx, "s", "big", genTrials(100, 20_000)); err != nil || added != 20_000 {
		t.Errorf("next run: %d added, %v; want 20000", added, err)
	}
}

func TestPostgresUnreachable(t *testing.T) {
	loc := "postgres://pareto:s3cretpw@127.0.0.1:1/pareto?sslmode=disable&connect_timeout=2"
	_, err := store.Open(context.Background(), loc)
	if err == nil {
		t.Fatal("Open(unreachable server) succeeded")
	}
	if strings.Contains(err.Error(), "s3cretpw") {
		t.Errorf("error shows the password: %v", err)
	}
	if !strings.Contains(err.Error(), "connecting") || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("err = %v; want it to say it could not connect to 127.0.0.1", err)
	}
}

// TestPostgresConnectionLost terminates the server side of an ingest in
// the middle of its transaction, as a server shutdown would.
func TestPostgresConnectionLost(t *testing.T) {
	base := testenv.PostgresURL(t)
	ctx := context.Background()
	study := studyName(t)
	app := "pareto_victim_" + codec.Itoa(os.Getpid())
	victim := openT(t, base+"&application_name="+app)
	if _, _, err := victim.Ingest(ctx, study, "before", genTrials(0, 100)); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	setAfterBatch(victim, func() {
		once.Do(func() {
			c, err := pgx.Connect(ctx, base)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close(ctx)
			if _, err := c.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, app); err != nil {
				t.Error(err)
			}
		})
	})
	_, _, err := victim.Ingest(ctx, study, "during", genTrials(100, 5000))
	if err == nil {
		t.Fatal("Ingest over a terminated connection succeeded")
	}
	t.Logf("connection lost: %v", err)
	setAfterBatch(victim, nil)
	s := openT(t, base)
	assertComplete(t, s, study, 100)
	if added, _, err := s.Ingest(ctx, study, "during", genTrials(100, 5000)); err != nil || added != 5000 {
		t.Errorf("next run: %d added, %v; want 5000", added, err)
	}
}

func TestParseLocation(t *testing.T) {
	for _, tt := range []struct{ in, kind, target string }{
		{"", locate.SQLite, "pareto.db"},
		{"runs/a.db", locate.SQLite, "runs/a.db"},
		{"sqlite:///abs/a.db", locate.SQLite, "/abs/a.db"},
		{"sqlite://rel.db", locate.SQLite, "rel.db"},
		{"file:x.db?mode=rwc", locate.SQLite, "x.db"},
		{"sqlite:///abs/a.db?mode=rwc", locate.SQLite, "/abs/a.db"},
		{"postgres://h/db", locate.Postgres, "postgres://h/db"},
		{"postgresql://h/db", locate.Postgres, "postgresql://h/db"},
	} {
		kind, target, err := locate.Parse(tt.in)
		if err != nil || kind != tt.kind || target != tt.target {
			t.Errorf("parseLocation(%q) = %s, %s, %v; want %s, %s", tt.in, kind, target, err, tt.kind, tt.target)
		}
		path, local, err := store.SQLitePath(tt.in)
		if wantPath := map[bool]string{true: tt.target}[tt.kind == locate.SQLite]; err != nil || local != (tt.kind == locate.SQLite) || path != wantPath {
			t.Errorf("SQLitePath(%q) = %q, %v, %v; want %q, %v", tt.in, path, local, err, wantPath, tt.kind == locate.SQLite)
		}
	}
	if _, _, err := locate.Parse("mysql://u:pw@h/db"); err == nil || strings.Contains(err.Error(), "pw@") {
		t.Errorf("parseLocation(mysql) = %v; want an error without the password", err)
	}
	// An encryption key would be ignored: refused, and never printed.
	for _, loc := range []string{"sqlite:///a.db?_pragma=key('s3cretkey')", "file:a.db?_pragma=hexkey(00aa11bb22cc)", "sqlite:a.db?_pragma=textkey%28%27s3cretkey%27%29"} {
		_, _, err := locate.Parse(loc)
		if err == nil || strings.Contains(err.Error(), "s3cretkey") || strings.Contains(err.Error(), "00aa11bb22cc") || !strings.Contains(err.Error(), "encryption keys are not supported") {
			t.Errorf("parseLocation(%q) = %v; want a refusal without the key", loc, err)
		}
	}
}

// TestOpenEnvLocation opens the store that $PARETO_STORE names, else
// DefaultLocation in the working directory, when the location is empty.
func TestOpenEnvLocation(t *testing.T) {
	ctx := context.Background()
	t.Chdir(t.TempDir())
	env := filepath.Join(t.TempDir(), "env.db")
	t.Setenv(store.EnvVar, env)
	if _, err := store.OpenReadOnly(ctx, ""); !errors.Is(err, store.ErrNoStore) || !strings.Contains(err.Error(), env) {
		t.Errorf("OpenReadOnly(\"\") before the store exists = %v; want ErrNoStore naming %s", err, env)
	}
	if _, _, err := store.Migrate(ctx, ""); !errors.Is(err, store.ErrNoStore) {
		t.Errorf("Migrate(\"\") before the store exists = %v; want ErrNoStore", err)
	}
	s, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Ingest(ctx, "s", "gen", genTrials(0, 3)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	r, err := store.OpenReadOnly(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if ts, err := r.Trials(ctx, "s", store.Query{}); err != nil || len(ts) != 3 {
		t.Errorf("read back %d trials from $%s, %v; want 3", len(ts), store.EnvVar, err)
	}
	r.Close()
	if from, to, err := store.Migrate(ctx, ""); err != nil || from != to {
		t.Errorf("Migrate(\"\") = %d, %d, %v; want the store of $%s up to date", from, to, err, store.EnvVar)
	}
	if p, local, err := store.SQLitePath(""); err != nil || !local || p != env {
		t.Errorf("SQLitePath(\"\") = %s, %v, %v; want %s", p, local, err, env)
	}
	if _, err := os.Stat(store.DefaultLocation); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("with $%s set, %s was created: %v", store.EnvVar, store.DefaultLocation, err)
	}

	t.Setenv(store.EnvVar, "")
	s, err = store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(store.DefaultLocation); err != nil {
		t.Errorf("without $%s, Open(\"\") made no %s: %v", store.EnvVar, store.DefaultLocation, err)
	}
}
