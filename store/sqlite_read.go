package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

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
	if err := s.readMeasurements(ctx, tx, c, d); err != nil {
		return nil, sqliteError(s.path, "reading measurements of "+study, err)
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
		id, t, err := r.decode(rows, d, c.q.Slim && len(c.q.Where) == 0)
		if err != nil {
			return err
		}
		if !c.addTrial(id, t) {
			break
		}
	}
	return rows.Err()
}

func (s *sqliteStore) readMeasurements(ctx context.Context, tx *sql.Tx, c *collector, d *decoder) error {
	if len(c.trials) == 0 || (c.q.Metrics != nil && len(c.q.Metrics) == 0) {
		return nil
	}
	query, args := measurementQuery(c, false)
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := newMeasurementRow()
	for rows.Next() {
		id, m, err := r.decode(rows, d)
		if err != nil {
			return err
		}
		c.addMeasurement(id, m)
	}
	return rows.Err()
}

// measurementQuery selects the measurements of the row-id range of the
// kept trials, restricted to the query's metrics, in primary-key order (no
// join, no sort); rows of other studies in the range are dropped by the
// collector.
func measurementQuery(c *collector, numbered bool) (string, []any) {
	args := []any{c.rowIDs[0], c.maxRowID()}
	var sb strings.Builder
	sb.WriteString(`SELECT trial_id, metric, dims, value, unit, native, source_unit FROM measurements
		WHERE trial_id BETWEEN ` + placeholder(numbered, 1) + ` AND ` + placeholder(numbered, 2))
	if c.q.Metrics != nil {
		in := func() string {
			if len(c.q.Metrics) == 0 {
				return "NULL"
			}
			var l []string
			for _, name := range c.q.Metrics {
				args = append(args, name)
				l = append(l, placeholder(numbered, len(args)))
			}
			return strings.Join(l, ",")
		}
		sb.WriteString(` AND (metric IN (` + in() + `)`)
		sb.WriteString(` OR native IN (` + in() + `))`)
	}
	sb.WriteString(` ORDER BY trial_id, seq`)
	return sb.String(), args
}

func placeholder(numbered bool, i int) string {
	if numbered {
		return "$" + itoa(i)
	}
	return "?"
}
