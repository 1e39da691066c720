package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// SetLabels merges labels into the stored labels of the study's trials
// named by ids, and updates their environment columns, in one write
// transaction.
func (s *sqliteStore) SetLabels(ctx context.Context, study string, ids []string, labels map[string]string) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	if err := shared.CheckLabels(labels); err != nil {
		return 0, fmt.Errorf("store %s: setting labels in %s: %w", s.path, study, err)
	}
	ids = shared.UniqueIDs(ids)
	var n int
	err := s.writeTx(ctx, "setting labels in "+study, func(tx *sql.Tx) (err error) {
		n, err = setLabelsTx(ctx, tx, study, ids, labels)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// setLabelsTx is SetLabels in tx.
func setLabelsTx(ctx context.Context, tx *sql.Tx, study string, ids []string, labels map[string]string) (int, error) {
	studyID, err := shared.StudyID(sqlQueryTx{tx}, study)
	if err != nil {
		return 0, err
	}
	d, enc := codec.NewDecoder(), &codec.JSONEncoder{}
	r := shared.NewTrialRow()
	var updates []shared.LabelUpdate
	matched := 0
	for b := range shared.IDBatches(ids, shared.LabelBatch) {
		query, args := shared.TrialsByIDQuery(false, studyID, b.IDs)
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			// The trial is verified before its content hash is renewed:
			// relabelling never makes a damaged trial look sound.
			t, err := r.Scan(rows, d)
			if err == nil && b.Want[t.ID] {
				err = r.Verify(&t, d)
			}
			if err != nil {
				rows.Close()
				return 0, shared.InStudy(err, study)
			}
			if !b.Want[t.ID] {
				continue // another ID under the same key
			}
			matched++
			if u, changed := shared.Relabel(enc, r.ID, &t, labels); changed {
				updates = append(updates, u)
			}
		}
		if err := rows.Close(); err != nil {
			return 0, err
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
	}
	if len(updates) > 0 {
		st, err := tx.PrepareContext(ctx, `UPDATE trials SET labels = ?, `+strings.Join(codec.EnvColumns, " = ?, ")+` = ?, content_id = ? WHERE id = ?`)
		if err != nil {
			return 0, err
		}
		defer st.Close()
		for _, u := range updates {
			e := u.Env
			if _, err := st.ExecContext(ctx, u.Labels, e[0], e[1], e[2], e[3], e[4], e[5], u.ContentID, u.Row); err != nil {
				return 0, err
			}
		}
	}
	if err := shared.Resketch(sqlQueryTx{tx}, studyID, shared.SketchesOf(updates)); err != nil {
		return 0, err
	}
	return matched, nil
}
