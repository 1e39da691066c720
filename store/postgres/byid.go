package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// TrialsByID returns the study's trials whose IDs are in ids, verified,
// in ingest order; IDs the study does not hold are left out. One
// repeatable-read snapshot.
func (s *pgStore) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = shared.UniqueIDs(ids)
	var out []shared.RowTrial
	err := s.readStudy(ctx, study, func(tx pgx.Tx, studyID int64) error {
		out = out[:0]
		d, r := codec.NewDecoder(), shared.NewTrialRow()
		for b := range shared.IDBatches(ids, shared.ByIDBatch) {
			rows, err := tx.Query(ctx, codec.TrialsSelect(true)+` WHERE study_id = $1 AND hash = ANY($2::text[])`, studyID, b.IDs)
			if err != nil {
				return err
			}
			for rows.Next() {
				if out, err = shared.VerifiedRow(rows, d, r, b.Want, out); err != nil {
					rows.Close()
					return shared.InStudy(err, study)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading trials of "+study, err)
	}
	return shared.ByRow(out), nil
}
