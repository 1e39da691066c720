package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// connectTimeout bounds how long Open waits for an unreachable server.
const connectTimeout = 10 * time.Second

// migrationLock is the advisory lock key that serialises migrations.
const migrationLock = 0x7061726574 // "paret"

// pgStore is the PostgreSQL Store.
type pgStore struct {
	pool *pgxpool.Pool
	url  string
	// readOnly tells a store opened by OpenReadOnly: its transactions
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

// openPostgres connects to url, checks that the database is empty or a
// pareto store, and brings the schema to version (0: the newest).
func openPostgres(ctx context.Context, url string, version int, seen func(shared.SchemaState)) (*pgStore, error) {
	s, err := connectChecked(ctx, url, false, func(st shared.SchemaState) error {
		if err := st.ForWriting(locate.Postgres); err != nil {
			return err
		}
		if seen != nil {
			seen(st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx, version); err != nil {
		s.Close()
		return nil, s.wrap("migrating", err)
	}
	return s, nil
}

// openPostgresReadOnly connects to url for reading only: every
// transaction of its connections is read-only (default_transaction_read_only),
// and nothing is migrated, so a role that may only SELECT suffices.
func openPostgresReadOnly(ctx context.Context, url string) (*pgStore, error) {
	return connectChecked(ctx, url, true, func(st shared.SchemaState) error { return st.ForReading(locate.Postgres) })
}

// connectChecked connects to url (read-only connections when readOnly)
// and hands the database's schema state to check; an error of either
// closes the connection.
func connectChecked(ctx context.Context, url string, readOnly bool, check func(shared.SchemaState) error) (*pgStore, error) {
	s, err := connectPostgres(ctx, url, readOnly)
	if err != nil {
		return nil, err
	}
	st, err := s.schemaState(ctx)
	if err != nil {
		s.Close()
		return nil, s.wrap("opening", err)
	}
	if err := check(st); err != nil {
		s.Close()
		return nil, s.fail("opening", err)
	}
	return s, nil
}

// connectPostgres opens a pool of connections to url, read-only ones when
// readOnly, and checks that the server answers.
func connectPostgres(ctx context.Context, url string, readOnly bool) (*pgStore, error) {
	s := &pgStore{url: url, readOnly: readOnly}
	s.OnDialect, s.Reads = tunequeue.OnDialect{D: s}, shared.Reads{D: s}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, s.wrap("parsing the URL", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > connectTimeout {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	if cfg.MaxConns > 4 {
		cfg.MaxConns = 4
	}
	if readOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, s.wrap("connecting", err)
	}
	s.pool = pool
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, s.wrap("connecting", err)
	}
	return s, nil
}

// SchemaState inspects the tables of the database's current schema and
// its schema version.
func (s *pgStore) schemaState(ctx context.Context) (shared.SchemaState, error) {
	rows, err := s.pool.Query(ctx, `SELECT table_name::text FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		return shared.SchemaState{}, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return shared.SchemaState{}, err
	}
	st := shared.NewSchemaState(tables)
	err = st.ReadVersion(func(dest ...any) error { return s.pool.QueryRow(ctx, shared.SchemaQuery).Scan(dest...) },
		func(err error) bool {
			var pe *pgconn.PgError
			return errors.As(err, &pe) && pe.Code == "42703" // undefined_column: another tool's schema_migrations
		})
	return st, err
}

// wrap adds the redacted URL and the operation to err, and removes the
// password from its text.
func (s *pgStore) wrap(op string, err error) error {
	return fmt.Errorf("store %s: %s: %w", trial.RedactLocation(s.url), op, trial.RedactError(err, s.url))
}

// fail adds the redacted URL and the operation to one of the store's own
// errors, which holds no part of the URL (wrap would mask any word that
// happens to be the password).
func (s *pgStore) fail(op string, err error) error {
	return fmt.Errorf("store %s: %s: %w", trial.RedactLocation(s.url), op, err)
}

// writable refuses writes to a store opened read-only.
func (s *pgStore) writable() error {
	if s.readOnly {
		return s.fail("writing", store.ErrReadOnly)
	}
	return nil
}

// Close releases the connections.
func (s *pgStore) Close() error {
	s.pool.Close()
	return nil
}

// migrate brings the schema to target (0: the newest version).
func (s *pgStore) migrate(ctx context.Context, target int) error {
	return shared.Upgrade(locate.Postgres, &pgMigrator{s: s, ctx: ctx}, target)
}

type pgMigrator struct {
	s   *pgStore
	ctx context.Context
}

// Step implements shared.Stepper under a transaction-scoped advisory lock.
func (m *pgMigrator) Step(fn func(int, func(shared.Migration) error) error) error {
	return pgx.BeginFunc(m.ctx, m.s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(m.ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(m.ctx, shared.SchemaTable); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRow(m.ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
			return err
		}
		return fn(current, func(mg shared.Migration) error {
			if _, err := tx.Exec(m.ctx, mg.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(m.ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				mg.Version, mg.Name, codec.SQLiteTime(time.Now()))
			return err
		})
	})
}

// CreateStudy creates the study if it does not exist yet.
func (s *pgStore) CreateStudy(ctx context.Context, study string) error {
	if err := s.writable(); err != nil {
		return err
	}
	if _, err := s.studyID(ctx, study); err != nil {
		return s.wrap("creating study "+study, err)
	}
	return nil
}

// studyID returns the study's row id, creating the study in a transaction
// of its own.
func (s *pgStore) studyID(ctx context.Context, study string) (int64, error) {
	if study == "" {
		return 0, errors.New("empty study name")
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO studies (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, study); err != nil {
		return 0, err
	}
	var id int64
	err := s.pool.QueryRow(ctx, `SELECT id FROM studies WHERE name = $1`, study).Scan(&id)
	return id, err
}

// Studies lists every study with its trial count and time range.
func (s *pgStore) Studies(ctx context.Context) ([]store.Study, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.name, s.created_at,
		(SELECT COUNT(*) FROM trials t WHERE t.study_id = s.id),
		(SELECT COUNT(*) FROM sources o WHERE o.study_id = s.id),
		(SELECT MIN(o.ingested_at) FROM trials t JOIN origins o ON o.origin = t.origin_id WHERE t.study_id = s.id),
		(SELECT MAX(o.ingested_at) FROM trials t JOIN origins o ON o.origin = t.origin_id WHERE t.study_id = s.id)
		FROM studies s ORDER BY s.name`)
	if err != nil {
		return nil, s.wrap("listing studies", err)
	}
	defer rows.Close()
	var out []store.Study
	for rows.Next() {
		var st store.Study
		var first, last *time.Time
		if err := rows.Scan(&st.Name, &st.Created, &st.Trials, &st.Sources, &first, &last); err != nil {
			return nil, s.wrap("listing studies", err)
		}
		if first != nil {
			st.First, st.Last = *first, *last
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("listing studies", err)
	}
	return out, nil
}

// retry runs fn, and again after a short random pause, up to ten times
// more, while it fails in a way a retry can fix (retryable).
func retry(fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || attempt >= 10 || !retryable(err) {
			return err
		}
		time.Sleep(time.Duration(rand.IntN(50)+10) * time.Millisecond)
	}
}

// snapshot runs fn in one repeatable-read, read-only transaction; op says
// what for, in errors.
func (s *pgStore) snapshot(ctx context.Context, op string, fn func(tx pgx.Tx) error) error {
	if err := pgx.BeginTxFunc(ctx, s.pool, snapshotTx, fn); err != nil {
		return s.wrap(op, err)
	}
	return nil
}

// snapshotTx are the options of a read in one snapshot.
var snapshotTx = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// ReadStudy implements shared.Dialect: it runs fn in one repeatable-read,
// read-only snapshot, with the row id of study (ErrNoStudy when there is
// none).
func (s *pgStore) ReadStudy(ctx context.Context, op, study string, fn func(tx shared.StudyTx, studyID int64) error) error {
	return s.snapshot(ctx, op, func(tx pgx.Tx) error {
		qt := pgQueryTx{ctx, tx}
		studyID, err := shared.StudyID(qt, study)
		if err != nil {
			return err
		}
		return fn(qt, studyID)
	})
}

// retryable reports a transaction failure that a retry can fix.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40P01" || pe.Code == "40001" // deadlock, serialization failure
	}
	return false
}

// Pool is the database underneath, for tests that damage or inspect it.
func (s *pgStore) Pool() *pgxpool.Pool { return s.pool }

// SetAfterBatch installs fn to run after every written batch (tests).
func (s *pgStore) SetAfterBatch(fn func()) { s.afterBatch = fn }
