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

// ReadTx implements tunequeue.Dialect and shared.Reader: it runs fn in one
// repeatable-read, read-only snapshot.
func (s *pgStore) ReadTx(ctx context.Context, op string, fn func(tx tunequeue.SQL) error) error {
	return s.snapshot(ctx, op, func(tx pgx.Tx) error { return fn(pgQueryTx{ctx, tx}) })
}

func (s *pgStore) Stamp(t time.Time) any { return t }
func (s *pgStore) ClaimLock() string     { return " FOR UPDATE SKIP LOCKED" }
func (s *pgStore) LockStudy() string     { return " FOR UPDATE OF t" }
