package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// pgUpdateLabels writes new labels and environment columns, one array per
// column.
const pgUpdateLabels = `UPDATE trials AS t SET labels = u.labels::jsonb, engine = u.engine,
	engine_version = u.engine_version, cuda = u.cuda, driver = u.driver, gpu = u.gpu, host = u.host,
	content_id = u.content_id
FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
	AS u(id, labels, engine, engine_version, cuda, driver, gpu, host, content_id)
WHERE t.id = u.id`

// SetLabels merges labels into the stored labels of the study's trials
// named by ids, and updates their environment columns, in one
// transaction. The rows are locked in row-id order; a deadlock or
// serialisation failure retries the transaction.
func (s *pgStore) SetLabels(ctx context.Context, study string, ids []string, labels map[string]string) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	if err := shared.CheckLabels(labels); err != nil {
		return 0, s.wrap("setting labels in "+study, err)
	}
	ids = shared.UniqueIDs(ids)
	var n int
	err := retry(func() (err error) {
		n, err = s.setLabelsTx(ctx, study, ids, labels)
		return err
	})
	if err != nil {
		return 0, s.wrap("setting labels in "+study, err)
	}
	return n, nil
}

func (s *pgStore) setLabelsTx(ctx context.Context, study string, ids []string, labels map[string]string) (int, error) {
	matched := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		matched = 0
		studyID, err := shared.StudyID(pgQueryTx{ctx, tx}, study)
		if err != nil {
			return err
		}
		query, args := shared.TrialsByIDQuery(true, studyID, ids)
		rows, err := tx.Query(ctx, numberPlaceholders(query+` ORDER BY id FOR UPDATE OF trials`), args...)
		if err != nil {
			return err
		}
		d, enc, r := codec.NewDecoder(), &codec.JSONEncoder{}, shared.NewTrialRow()
		var updates []shared.LabelUpdate
		for rows.Next() {
			// The trial is verified before its content hash is renewed:
			// relabelling never makes a damaged trial look sound.
			t, err := r.Scan(rows, d)
			if err == nil {
				err = r.Verify(&t, d)
			}
			if err != nil {
				rows.Close()
				return shared.InStudy(err, study)
			}
			matched++
			if u, changed := shared.Relabel(enc, r.ID, &t, labels); changed {
				updates = append(updates, u)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(updates) == 0 {
			return nil
		}
		rowIDs := make([]int64, len(updates))
		cols := make([][]string, 8)
		for k := range cols {
			cols[k] = make([]string, len(updates))
		}
		for i, u := range updates {
			rowIDs[i], cols[0][i], cols[7][i] = u.Row, u.Labels, u.ContentID
			for k, v := range u.Env {
				cols[k+1][i] = v
			}
		}
		if _, err = tx.Exec(ctx, pgUpdateLabels, rowIDs, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7]); err != nil {
			return err
		}
		return shared.Resketch(pgQueryTx{ctx, tx}, studyID, shared.SketchesOf(updates))
	})
	return matched, err
}
