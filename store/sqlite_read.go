package store

import (
	"context"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/trial"
)

// Trials returns the study's trials in ingest order, filtered by q, from
// one read transaction.
func (s *sqliteStore) Trials(ctx context.Context, study string, q Query) ([]trial.Trial, error) {
	c := &collector{q: q}
	err := s.raw(ctx, func(conn *sqlite3.Conn) error {
		return inTx(conn, "BEGIN", func() error {
			studyID, err := sqliteStudyID(conn, study)
			if err != nil {
				return err
			}
			if err := sqliteRawTrials(conn, studyID, c, newDecoder()); err != nil {
				return fmt.Errorf("reading trials of %s: %w", study, err)
			}
			return nil
		})
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading "+study, err)
	}
	return c.trials, nil
}

// sqliteRawTrials reads the study's trials into coll in row-id order.
func sqliteRawTrials(c *sqlite3.Conn, studyID int64, coll *collector, d *decoder) error {
	r := newTrialRow()
	slim := coll.q.Slim && len(coll.q.Where) == 0
	return sqliteEachTrial(c, studyID, readColumns, "", nil, func(st *sqlite3.Stmt) (bool, error) {
		id, t, err := r.decode(stmtScanner{st}, d, &coll.q, slim)
		if err != nil {
			return false, err
		}
		return coll.addTrial(id, t), nil
	})
}

// sqliteEachTrial selects cols of the study's trials that satisfy cond
// (" AND ..." with args after the study id), in row-id order, and calls
// fn on each row until it returns false. The SQLite store has no index on
// the study: its trials are found through the row-id ranges of its blocks
// (the unary + keeps SQLite from using trials_key for the study id
// instead of the row-id range).
func sqliteEachTrial(c *sqlite3.Conn, studyID int64, cols, cond string, args []any, fn func(*sqlite3.Stmt) (bool, error)) error {
	ranges, err := sqliteStudyRanges(c, studyID)
	if err != nil || len(ranges) == 0 {
		return err
	}
	st, _, err := c.Prepare(`SELECT ` + cols + ` FROM trials WHERE id BETWEEN ? AND ? AND +study_id = ?` + cond + ` ORDER BY id`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range ranges {
		if err := bindArgs(st, append([]any{r[0], r[1], studyID}, args...)); err != nil {
			return err
		}
		for st.Step() {
			more, err := fn(st)
			if err != nil || !more {
				return err
			}
		}
		if err := st.Reset(); err != nil {
			return err
		}
	}
	return nil
}

// sqliteStudyRanges returns the row-id ranges of the study's blocks in
// order, overlapping and adjacent ones merged.
func sqliteStudyRanges(c *sqlite3.Conn, studyID int64) ([][2]int64, error) {
	st, _, err := c.Prepare(`SELECT first_trial, last_trial FROM blocks WHERE study_id = ? ORDER BY first_trial`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := st.BindInt64(1, studyID); err != nil {
		return nil, err
	}
	var out [][2]int64
	for st.Step() {
		lo, hi := st.ColumnInt64(0), st.ColumnInt64(1)
		if n := len(out); n > 0 && lo <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], hi)
			continue
		}
		out = append(out, [2]int64{lo, hi})
	}
	return out, st.Err()
}
