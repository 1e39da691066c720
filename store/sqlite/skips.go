package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// RecordSkips records the skips of an ingest in one write transaction.
func (s *sqliteStore) RecordSkips(ctx context.Context, study string, skips []trial.Skip) (added, present int, err error) {
	err = s.writeTx(ctx, "recording the skips of "+study, func(tx *sql.Tx) error {
		studyID, err := s.studyID(ctx, tx, study)
		if err != nil {
			return err
		}
		added, present, err = shared.RecordSkips(sqlQueryTx{tx}, studyID, skips, codec.SQLiteTime(time.Now()))
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	return added, present, nil
}
