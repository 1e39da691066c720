package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// Check verifies the study (every study when study is empty) in one
// repeatable-read snapshot.
func (s *pgStore) Check(ctx context.Context, study string) ([]store.StudyCheck, error) {
	var out []store.StudyCheck
	err := s.snapshot(ctx, "checking", func(tx pgx.Tx) error {
		var err error
		out, err = shared.CheckStudies(pgQueryTx{ctx, tx}, study)
		return err
	})
	return out, err
}
