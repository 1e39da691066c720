package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

var _ tunequeue.Queue = (*pgStore)(nil)

// TuneTx implements tunequeue.Dialect: it runs fn in a read-committed write transaction. UpdateTune locks
// the tune study's row (SELECT … FOR UPDATE), ClaimRun the run it takes
// (FOR UPDATE SKIP LOCKED: concurrent claimers take different runs).
func (s *pgStore) TuneTx(ctx context.Context, op string, fn func(tx tunequeue.SQL) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error { return fn(pgQueryTx{ctx, tx}) })
	if err != nil {
		return s.wrap(op, err)
	}
	return nil
}

func (s *pgStore) Stamp(t time.Time) any { return t }
func (s *pgStore) ClaimLock() string     { return " FOR UPDATE SKIP LOCKED" }
func (s *pgStore) LockStudy() string     { return " FOR UPDATE OF t" }

// OpenTune returns the tune study, creating it if needed.
func (s *pgStore) OpenTune(ctx context.Context, study string, setup tunequeue.Setup) (tunequeue.Study, bool, error) {
	return tunequeue.OpenTune(ctx, s, study, setup)
}

// UpdateTune runs fn in one write transaction holding the study's lock.
func (s *pgStore) UpdateTune(ctx context.Context, study string, fn func(*tunequeue.Tx) error) error {
	return tunequeue.UpdateTune(ctx, s, study, fn)
}

// ClaimRun claims the oldest queued run no other transaction holds.
func (s *pgStore) ClaimRun(ctx context.Context, study, worker string, lease time.Duration) (tunequeue.Run, bool, error) {
	return tunequeue.ClaimRun(ctx, s, study, worker, lease)
}

// RenewRun extends a lease.
func (s *pgStore) RenewRun(ctx context.Context, study string, id int64, worker string, lease time.Duration) error {
	return tunequeue.RenewRun(ctx, s, study, id, worker, lease)
}

// TuneStatus counts the study's runs in one read-only snapshot.
func (s *pgStore) TuneStatus(ctx context.Context, study string) (tunequeue.Status, error) {
	var st tunequeue.Status
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		var err error
		st, err = tunequeue.ReadStatus(pgQueryTx{ctx, tx}, study)
		return err
	})
	if err != nil {
		return st, s.wrap("reading the tuning state of "+study, err)
	}
	return st, nil
}
