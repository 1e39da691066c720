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
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		out = out[:0]
		studyID, err := pgStudyID(ctx, tx, study)
		if err != nil {
			return err
		}
		d, r := codec.NewDecoder(), shared.NewTrialRow()
		for start := 0; start < len(ids); start += shared.ByIDBatch {
			chunk := ids[start:min(start+shared.ByIDBatch, len(ids))]
			want := make(map[string]bool, len(chunk))
			for _, id := range chunk {
				want[id] = true
			}
			rows, err := tx.Query(ctx, codec.TrialsSelect(true)+` WHERE study_id = $1 AND hash = ANY($2::text[])`, studyID, chunk)
			if err != nil {
				return err
			}
			for rows.Next() {
				if out, err = shared.VerifiedRow(rows, d, r, want, out); err != nil {
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
