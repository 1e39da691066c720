package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/pareto-llm/pareto/trial"
)

// Trials returns the study's trials in ingest order, filtered by q. Both
// queries run in one read transaction, so they see one snapshot.
func (s *sqliteStore) Trials(ctx context.Context, study string, q Query) ([]trial.Trial, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, sqliteError(s.path, "reading "+study, err)
	}
	defer tx.Rollback()
	var studyID int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM studies WHERE name = ?`, study).Scan(&studyID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store %s: study %q: %w", s.path, study, ErrNoStudy)
	}
	if err != nil {
		return nil, sqliteError(s.path, "reading "+study, err)
	}
	c := &collector{q: q}
	d := newDecoder()
	if err := s.readTrials(ctx, tx, studyID, c, d); err != nil {
		return nil, sqliteError(s.path, "reading trials of "+study, err)
	}
	return c.trials, nil
}

func (s *sqliteStore) readTrials(ctx context.Context, tx *sql.Tx, studyID int64, c *collector, d *decoder) error {
	rows, err := tx.QueryContext(ctx, `SELECT `+readColumns+` FROM trials WHERE study_id = ? ORDER BY id`, studyID)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := newTrialRow()
	for rows.Next() {
		id, t, err := r.decode(rows, d, &c.q, c.q.Slim && len(c.q.Where) == 0)
		if err != nil {
			return err
		}
		if !c.addTrial(id, t) {
			break
		}
	}
	return rows.Err()
}

func placeholder(numbered bool, i int) string {
	if numbered {
		return "$" + itoa(i)
	}
	return "?"
}
