package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

var _ tunequeue.Queue = (*sqliteStore)(nil)

// TuneTx implements tunequeue.Dialect: it runs fn in a write transaction (BEGIN IMMEDIATE: it holds the
// database's write lock, which serialises the queue's changes across
// processes), retried while another process holds the lock.
func (s *sqliteStore) TuneTx(ctx context.Context, op string, fn func(tx tunequeue.SQL) error) error {
	return s.writeTx(ctx, op, func(tx *sql.Tx) error { return fn(sqlQueryTx{tx}) })
}

// ReadTx implements tunequeue.Dialect and shared.Reader: it runs fn in one
// read transaction (a snapshot: SQLite's WAL keeps what it began with).
func (s *sqliteStore) ReadTx(ctx context.Context, op string, fn func(tx tunequeue.SQL) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err == nil {
		defer tx.Rollback()
		err = fn(sqlQueryTx{tx})
	}
	if err != nil {
		return sqliteError(s.path, op, err)
	}
	return nil
}

func (s *sqliteStore) Stamp(t time.Time) any { return codec.SQLiteTime(t) }
func (s *sqliteStore) ClaimLock() string     { return "" }
func (s *sqliteStore) LockStudy() string     { return "" }
