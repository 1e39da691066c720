package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// RecordSkips records the skips of an ingest in one transaction.
func (s *pgStore) RecordSkips(ctx context.Context, study string, skips []trial.Skip) (added, present int, err error) {
	if err := s.writable(); err != nil {
		return 0, 0, err
	}
	studyID, err := s.studyID(ctx, study)
	if err != nil {
		return 0, 0, s.wrap("recording the skips of "+study, err)
	}
	err = retry(func() error {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var err error
			added, present, err = shared.RecordSkips(pgQueryTx{ctx, tx}, studyID, skips, "")
			return err
		})
	})
	if err != nil {
		return 0, 0, s.wrap("recording the skips of "+study, err)
	}
	return added, present, nil
}
