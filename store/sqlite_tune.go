package store

import (
	"context"
	"database/sql"
	"time"
)

var _ Tuner = (*sqliteStore)(nil)

// tuneTx runs fn in a write transaction (BEGIN IMMEDIATE: it holds the
// database's write lock, which serialises the queue's changes across
// processes), retried while another process holds the lock.
func (s *sqliteStore) tuneTx(ctx context.Context, op string, fn func(tx queryTx) error) error {
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

func (s *sqliteStore) stamp(t time.Time) any { return sqliteTime(t) }
func (s *sqliteStore) claimLock() string     { return "" }
func (s *sqliteStore) lockStudy() string     { return "" }

// OpenTune returns the tune study, creating it if needed.
func (s *sqliteStore) OpenTune(ctx context.Context, study string, setup TuneSetup) (TuneStudy, bool, error) {
	return openTune(ctx, s, study, setup)
}

// UpdateTune runs fn in one write transaction.
func (s *sqliteStore) UpdateTune(ctx context.Context, study string, fn func(*TuneTx) error) error {
	return updateTune(ctx, s, study, fn)
}

// ClaimRun claims the oldest queued run.
func (s *sqliteStore) ClaimRun(ctx context.Context, study, worker string, lease time.Duration) (TuneRun, bool, error) {
	return claimRun(ctx, s, study, worker, lease)
}

// RenewRun extends a lease.
func (s *sqliteStore) RenewRun(ctx context.Context, study string, id int64, worker string, lease time.Duration) error {
	return renewRun(ctx, s, study, id, worker, lease)
}

// TuneStatus counts the study's runs in one read transaction.
func (s *sqliteStore) TuneStatus(ctx context.Context, study string) (TuneStatus, error) {
	var st TuneStatus
	err := func() error {
		tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		st, err = tuneStatus(sqlQueryTx{tx}, study)
		return err
	}()
	if err != nil {
		return st, sqliteError(s.path, "reading the tuning state of "+study, err)
	}
	return st, nil
}
