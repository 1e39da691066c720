package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/store"
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
	err := retryBusy(ctx, func() (err error) {
		n, err = s.setLabelsTx(ctx, study, ids, labels)
		return err
	})
	if err != nil {
		return 0, sqliteError(s.path, "setting labels in "+study, err)
	}
	return n, nil
}

func (s *sqliteStore) setLabelsTx(ctx context.Context, study string, ids []string, labels map[string]string) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var studyID int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM studies WHERE name = ?`, study).Scan(&studyID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("study %q: %w", study, store.ErrNoStudy)
	}
	if err != nil {
		return 0, err
	}
	d, enc := codec.NewDecoder(), &codec.JSONEncoder{}
	r := shared.NewTrialRow()
	var updates []shared.LabelUpdate
	matched := 0
	for start := 0; start < len(ids); start += shared.LabelBatch {
		chunk := ids[start:min(start+shared.LabelBatch, len(ids))]
		args := make([]any, 0, len(chunk)+1)
		args = append(args, studyID)
		want := make(map[string]bool, len(chunk))
		for _, id := range chunk {
			args = append(args, codec.HashKey(id))
			want[id] = true
		}
		rows, err := tx.QueryContext(ctx, codec.TrialsSelect(false)+` WHERE study_id = ? AND hkey IN (?`+
			strings.Repeat(",?", len(chunk)-1)+`)`, args...)
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			// The trial is verified before its content hash is renewed:
			// relabelling never makes a damaged trial look sound.
			t, err := r.Scan(rows, d)
			if err == nil && want[t.ID] {
				err = r.Verify(&t, d)
			}
			if err != nil {
				rows.Close()
				return 0, shared.InStudy(err, study)
			}
			if !want[t.ID] {
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
	return matched, tx.Commit()
}
