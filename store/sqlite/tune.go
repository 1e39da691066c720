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
	if err := s.writable(); err != nil {
		return err
	}
	err := retryBusy(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := fn(sqlQueryTx{tx}); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return sqliteError(s.path, op, err)
	}
	return nil
}

func (s *sqliteStore) Stamp(t time.Time) any { return codec.SQLiteTime(t) }
func (s *sqliteStore) ClaimLock() string     { return "" }
func (s *sqliteStore) LockStudy() string     { return "" }

// OpenTune returns the tune study, creating it if needed.
func (s *sqliteStore) OpenTune(ctx context.Context, study string, setup tunequeue.Setup) (tunequeue.Study, bool, error) {
	return tunequeue.OpenTune(ctx, s, study, setup)
}

// UpdateTune runs fn in one write transaction.
func (s *sqliteStore) UpdateTune(ctx context.Context, study string, fn func(*tunequeue.Tx) error) error {
	return tunequeue.UpdateTune(ctx, s, study, fn)
}

// ClaimRun claims the oldest queued run.
func (s *sqliteStore) ClaimRun(ctx context.Context, study, worker string, lease time.Duration) (tunequeue.Run, bool, error) {
	return tunequeue.ClaimRun(ctx, s, study, worker, lease)
}

// RenewRun extends a lease.
func (s *sqliteStore) RenewRun(ctx context.Context, study string, id int64, worker string, lease time.Duration) error {
	return tunequeue.RenewRun(ctx, s, study, id, worker, lease)
}

// TuneStatus counts the study's runs in one read transaction.
func (s *sqliteStore) TuneStatus(ctx context.Context, study string) (tunequeue.Status, error) {
	var st tunequeue.Status
	err := func() error {
		tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		st, err = tunequeue.ReadStatus(sqlQueryTx{tx}, study)
		return err
	}()
	if err != nil {
		return st, sqliteError(s.path, "reading the tuning state of "+study, err)
	}
	return st, nil
}
