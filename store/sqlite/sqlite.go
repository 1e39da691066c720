package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// ErrNotSQLite is returned by Open for a file that is not a SQLite database.
var ErrNotSQLite = errors.New("not a SQLite database")

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// busyTimeout is how long SQLite waits for another process's lock.
const busyTimeout = 30 * time.Second

// cacheKiB is the page cache of each connection: enough to keep the
// (study, hash) index of a million trials in memory while ingesting.
const cacheKiB = 64 << 10

// walPages is the WAL size, in pages, that triggers a checkpoint. Each
// large ingest rewrites pages all over the (study, hash) index; letting
// several transactions accumulate in the WAL copies each page to the
// database once instead of once per transaction.
const walPages = 16 << 10

// sqliteStore is the embedded SQLite Store.
type sqliteStore struct {
	db   *sql.DB
	path string
	// readOnly tells a store opened by OpenReadOnly: its connections
	// cannot write.
	readOnly bool
	// afterBatch, when set (tests only), runs after each batch of rows is
	// written inside an Ingest transaction.
	afterBatch func()
	// OnDialect is the tuning queue, in this store.
	tunequeue.OnDialect
	// Reads are the reads of a study, in this store.
	shared.Reads
}

// newStore returns the store of db, the database at path.
func newStore(db *sql.DB, path string, readOnly bool) *sqliteStore {
	s := &sqliteStore{db: db, path: path, readOnly: readOnly}
	s.OnDialect, s.Reads = tunequeue.OnDialect{D: s}, shared.Reads{D: s}
	return s
}

// openSQLite opens or creates the database file at path for reading and
// writing and migrates it to version (0: the newest). An existing
// database is first inspected read-only: one that is not a pareto store is
// refused before anything (its journal mode included) is changed.
func openSQLite(ctx context.Context, path string, version int, seen func(shared.SchemaState)) (*sqliteStore, error) {
	if err := checkSQLiteFile(path); err != nil {
		return nil, err
	}
	var st shared.SchemaState
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		ro, err := openSQLiteRO(ctx, path)
		if errors.Is(err, sqlite3.READONLY) && dirWritable(filepath.Dir(path)) {
			// A process killed in a write transaction left a hot journal
			// (or a WAL to recover), which only a connection that may
			// write can roll back: this writer does, changing nothing else.
			ro, err = openSQLiteRecovering(ctx, path)
		}
		if err != nil {
			return nil, err
		}
		st, err = ro.schemaState(ctx)
		ro.Close()
		if err != nil {
			return nil, sqliteError(path, "opening", err)
		}
		if err := st.ForWriting(locate.SQLite); err != nil {
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	if seen != nil {
		seen(st)
	}
	db, err := driver.Open(path, func(c *sqlite3.Conn) error {
		c.BusyTimeout(busyTimeout)
		return c.Exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;
			PRAGMA temp_store=MEMORY; PRAGMA cache_size=-` + codec.Itoa(cacheKiB) + `; PRAGMA wal_autocheckpoint=` + codec.Itoa(walPages))
	})
	if err != nil {
		return nil, sqliteError(path, "opening", err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	s := newStore(db, path, false)
	if err := s.migrateSafely(ctx, version); err != nil {
		db.Close()
		return nil, sqliteError(path, "migrating", err)
	}
	return s, nil
}

// openSQLiteReadOnly opens the existing store at path for reading only.
func openSQLiteReadOnly(ctx context.Context, path string) (*sqliteStore, error) {
	if err := sqliteExists(path); err != nil {
		return nil, err
	}
	s, err := openSQLiteRO(ctx, path)
	if err != nil {
		return nil, err
	}
	st, err := s.schemaState(ctx)
	if err != nil {
		s.Close()
		return nil, sqliteError(path, "opening", err)
	}
	if err := st.ForReading(locate.SQLite); err != nil {
		s.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// openSQLiteRO opens the database at path with read-only connections
// (mode=ro): SQLite then writes nothing, not even the journal mode. A
// database in WAL mode needs its -shm file, which SQLite cannot create in
// a read-only directory: it is then opened immutable (no other process
// can be writing to it there, as none could create the -shm file either).
func openSQLiteRO(ctx context.Context, path string) (*sqliteStore, error) {
	open := func(params string) (*sqliteStore, error) {
		db, err := driver.Open("file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params, func(c *sqlite3.Conn) error {
			c.BusyTimeout(busyTimeout)
			return c.Exec(`PRAGMA query_only=ON; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-` + codec.Itoa(cacheKiB))
		})
		if err != nil {
			return nil, sqliteError(path, "opening", err)
		}
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(4)
		s := newStore(db, path, true)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, err
		}
		if _, err := db.ExecContext(ctx, `SELECT COUNT(*) FROM sqlite_master`); err != nil {
			db.Close()
			return nil, err
		}
		return s, nil
	}
	s, err := open("mode=ro")
	if err != nil && (errors.Is(err, sqlite3.CANTOPEN) || errors.Is(err, sqlite3.READONLY)) && !dirWritable(filepath.Dir(path)) {
		s, err = open("mode=ro&immutable=1")
	}
	if err != nil {
		return nil, sqliteError(path, "opening read-only", err)
	}
	return s, nil
}

// openSQLiteRecovering opens the database at path with read-write
// connections that run no statement that writes (query_only), so that
// SQLite rolls back the hot journal, or recovers the WAL, that a killed
// writer left, and nothing else is changed (not even the journal mode).
func openSQLiteRecovering(ctx context.Context, path string) (*sqliteStore, error) {
	db, err := driver.Open(path, func(c *sqlite3.Conn) error {
		c.BusyTimeout(busyTimeout)
		return c.Exec(`PRAGMA query_only=ON`)
	})
	if err != nil {
		return nil, sqliteError(path, "opening", err)
	}
	if _, err := db.ExecContext(ctx, `SELECT COUNT(*) FROM sqlite_master`); err != nil {
		db.Close()
		return nil, sqliteError(path, "recovering after a killed writer", err)
	}
	return newStore(db, path, true), nil
}

// dirWritable reports whether a file can be created in dir.
func dirWritable(dir string) bool {
	f, err := os.CreateTemp(dir, ".pareto-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// sqliteExists refuses a path that names no SQLite database file.
func sqliteExists(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("store %s: %w (a command that writes to it creates it)", path, store.ErrNoStore)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", path, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("store %s: is a directory", path)
	}
	return checkSQLiteFile(path)
}

// SchemaState inspects the database's tables and schema version.
func (s *sqliteStore) schemaState(ctx context.Context) (shared.SchemaState, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!'`)
	if err != nil {
		return shared.SchemaState{}, err
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return shared.SchemaState{}, err
		}
		tables = append(tables, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return shared.SchemaState{}, err
	}
	st := shared.NewSchemaState(tables)
	err = st.ReadVersion(func(dest ...any) error { return s.db.QueryRowContext(ctx, shared.SchemaQuery).Scan(dest...) },
		func(err error) bool { return strings.Contains(err.Error(), "no such column") }) // another tool's schema_migrations
	return st, err
}

// checkSQLiteFile refuses a file that exists but is not a SQLite database,
// and a missing directory, before SQLite touches anything.
func checkSQLiteFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("store %s: directory %s does not exist", path, dir)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return fmt.Errorf("store %s: is a directory", path)
	}
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil // empty file: SQLite makes it a database
	}
	if err != nil && err != io.ErrUnexpectedEOF {
		return fmt.Errorf("store %s: %w", path, err)
	}
	if !bytes.Equal(head[:n], []byte(sqliteHeader)) {
		return fmt.Errorf("store %s: %w", path, ErrNotSQLite)
	}
	return nil
}

// sqliteError adds the path, the operation and a hint for common codes.
func sqliteError(path, op string, err error) error {
	hint := ""
	switch {
	case errors.Is(err, sqlite3.NOTADB), errors.Is(err, sqlite3.CORRUPT):
		hint = " (the file is damaged or not a SQLite database)"
	case errors.Is(err, sqlite3.CANTOPEN), errors.Is(err, sqlite3.READONLY), errors.Is(err, sqlite3.PERM):
		hint = " (is the file and its directory writable?)"
	case errors.Is(err, sqlite3.FULL):
		hint = " (disk full)"
	case errors.Is(err, sqlite3.IOERR):
		hint = " (I/O error: disk full or file system problem?)"
	case errors.Is(err, sqlite3.BUSY):
		hint = " (database locked by another process for too long)"
	}
	return fmt.Errorf("store %s: %s: %w%s", path, op, err, hint)
}

// Close releases the database.
func (s *sqliteStore) Close() error {
	if !s.readOnly {
		s.leaveWAL()
	}
	return s.db.Close()
}

// leaveWAL switches the database back to a rollback journal when this
// store is its last user, so that the -wal and -shm files are gone and a
// later read-only open (mode=ro) creates nothing beside the database; the
// next writer turns WAL on again. With other connections open (another
// process's), the switch is refused at once and the database stays in WAL
// mode, as it must.
func (s *sqliteStore) leaveWAL() {
	ctx := context.Background()
	s.db.SetMaxIdleConns(1) // close the idle connections but one
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout=0"); err == nil {
		conn.ExecContext(ctx, "PRAGMA journal_mode=DELETE")
	}
}

// writable refuses writes to a store opened read-only.
func (s *sqliteStore) writable() error {
	if s.readOnly {
		return fmt.Errorf("store %s: %w", s.path, store.ErrReadOnly)
	}
	return nil
}

// Step implements shared.Stepper: one write transaction per migration, which
// also serialises concurrent openers.
//
// A migration may rewrite every table: its temporary data (statement
// journals, sorts) goes to files rather than to the connection's memory,
// which SQLite compiled to WebAssembly caps at 256 MiB.
func (s *sqliteStore) Step(fn func(int, func(shared.Migration) error) error) error {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store=FILE"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "PRAGMA temp_store=MEMORY")
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(shared.SchemaTable); err != nil {
		return err
	}
	var current int
	if err := tx.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return err
	}
	err = fn(current, func(m shared.Migration) error {
		if _, err := tx.Exec(m.SQL); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
			m.Version, m.Name, codec.SQLiteTime(time.Now()))
		return err
	})
	if err != nil {
		return err
	}
	return tx.Commit()
}

// migrateSafely is migrate, with a panic of the SQLite driver (which it
// raises when SQLite runs out of memory) turned into an error: the
// migration's transaction is then rolled back with the connection.
func (s *sqliteStore) migrateSafely(ctx context.Context, target int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return s.migrate(ctx, target)
}

// migrate brings the schema to target (0: the newest version).
func (s *sqliteStore) migrate(ctx context.Context, target int) error {
	return retryBusy(ctx, func() error { return shared.Upgrade(locate.SQLite, s, target) })
}

// retryBusy runs fn again while it fails because the database is locked.
func retryBusy(ctx context.Context, fn func() error) error {
	delay := 5 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || attempt >= 20 || !(errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED)) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, time.Second)
	}
}

// CreateStudy creates the study if it does not exist yet.
func (s *sqliteStore) CreateStudy(ctx context.Context, study string) error {
	return s.writeTx(ctx, "creating study "+study, func(tx *sql.Tx) error {
		_, err := s.studyID(ctx, tx, study)
		return err
	})
}

// writeTx runs fn in a write transaction (BEGIN IMMEDIATE: it takes the
// database's write lock), committed when fn returns nil and retried while
// another process holds the lock; op says what for, in errors.
func (s *sqliteStore) writeTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	err := retryBusy(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return sqliteError(s.path, op, err)
	}
	return nil
}

// studyID returns the study's row id, creating the study.
func (s *sqliteStore) studyID(ctx context.Context, tx *sql.Tx, study string) (int64, error) {
	if study == "" {
		return 0, errors.New("empty study name")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
		study, codec.SQLiteTime(time.Now())); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM studies WHERE name = ?`, study).Scan(&id)
	return id, err
}

// Studies lists every study with its trial count and time range.
func (s *sqliteStore) Studies(ctx context.Context) ([]store.Study, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.name, s.created_at,
		(SELECT COALESCE(SUM(trials), 0) FROM blocks b WHERE b.study_id = s.id),
		(SELECT COUNT(*) FROM sources o WHERE o.study_id = s.id),
		COALESCE((SELECT MIN(o.ingested_at) FROM blocks b CROSS JOIN trials t
			ON t.id BETWEEN b.first_trial AND b.last_trial CROSS JOIN origins o ON o.origin = t.origin_id
			WHERE b.study_id = s.id AND +t.study_id = s.id), ''),
		COALESCE((SELECT MAX(o.ingested_at) FROM blocks b CROSS JOIN trials t
			ON t.id BETWEEN b.first_trial AND b.last_trial CROSS JOIN origins o ON o.origin = t.origin_id
			WHERE b.study_id = s.id AND +t.study_id = s.id), '')
		FROM studies s ORDER BY s.name`)
	if err != nil {
		return nil, sqliteError(s.path, "listing studies", err)
	}
	defer rows.Close()
	var out []store.Study
	for rows.Next() {
		var st store.Study
		var created, first, last string
		if err := rows.Scan(&st.Name, &created, &st.Trials, &st.Sources, &first, &last); err != nil {
			return nil, sqliteError(s.path, "listing studies", err)
		}
		st.Created, st.First, st.Last = codec.ParseSQLiteTime(created), codec.ParseSQLiteTime(first), codec.ParseSQLiteTime(last)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteError(s.path, "listing studies", err)
	}
	return out, nil
}

// DB is the database underneath, for tests that damage or inspect it.
func (s *sqliteStore) DB() *sql.DB { return s.db }

// SetAfterBatch installs fn to run after every written batch (tests).
func (s *sqliteStore) SetAfterBatch(fn func()) { s.afterBatch = fn }
