package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// readStudy runs fn in one read transaction on a connection of the
// low-level API, with the row id of study (ErrNoStudy when there is none).
func (s *sqliteStore) readStudy(ctx context.Context, study string, fn func(c *sqlite3.Conn, studyID int64) error) error {
	return s.raw(ctx, func(c *sqlite3.Conn) error {
		return inTx(c, "BEGIN", func() error {
			studyID, err := sqliteStudyID(c, study)
			if err != nil {
				return err
			}
			return fn(c, studyID)
		})
	})
}

// Trials returns the study's trials in ingest order, filtered by q, from
// one read transaction.
func (s *sqliteStore) Trials(ctx context.Context, study string, q store.Query) ([]trial.Trial, error) {
	c := &shared.Collector{Q: q}
	err := s.readStudy(ctx, study, func(conn *sqlite3.Conn, studyID int64) error {
		if err := sqliteRawTrials(conn, studyID, c, codec.NewDecoder()); err != nil {
			return fmt.Errorf("reading trials of %s: %w", study, shared.InStudy(err, study))
		}
		return nil
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading "+study, err)
	}
	return c.Trials, nil
}

// Scan hands the study's trials, filtered by q, to fn in ingest order, in
// batches, from one read transaction.
func (s *sqliteStore) Scan(ctx context.Context, study string, q store.Query, fn func([]trial.Trial) error) error {
	c := &shared.Collector{Q: q, Emit: fn}
	err := s.readStudy(ctx, study, func(conn *sqlite3.Conn, studyID int64) error {
		if err := sqliteRawTrials(conn, studyID, c, codec.NewScanDecoder()); err != nil {
			return shared.ScanWrap(err, func(err error) error {
				return fmt.Errorf("reading trials of %s: %w", study, shared.InStudy(err, study))
			})
		}
		return nil
	})
	return shared.ScanError(err, func(err error) error { return sqliteError(s.path, "reading "+study, err) })
}

// sqliteRawTrials reads the study's trials into coll in row-id order.
func sqliteRawTrials(c *sqlite3.Conn, studyID int64, coll *shared.Collector, d *codec.Decoder) error {
	r := shared.NewTrialRow()
	slim := coll.Q.Slim && len(coll.Q.Where) == 0
	v := shared.NewVerifier()
	coll.StartScan(v)
	err := sqliteEachTrial(c, studyID, codec.TrialsSelect(false), "", nil, func(st *sqlite3.Stmt) (bool, error) {
		id, t, err := r.Decode(stmtScanner{st}, d, &coll.Q, slim, v)
		if err != nil {
			return false, err
		}
		if !coll.AddTrial(id, t) {
			return false, coll.Err
		}
		return true, nil
	})
	return coll.Finish(err, v.Wait())
}

// sqliteEachTrial runs sel (a SELECT of trials) on the study's trials that satisfy cond
// (" AND ..." with args after the study id), in row-id order, and calls
// fn on each row until it returns false. The SQLite store has no index on
// the study: its trials are found through the row-id ranges of its blocks
// (the unary + keeps SQLite from using trials_key for the study id
// instead of the row-id range), whose checksums are verified, and without
// cond every range must hold the trials its blocks count.
func sqliteEachTrial(c *sqlite3.Conn, studyID int64, sel, cond string, args []any, fn func(*sqlite3.Stmt) (bool, error)) error {
	ranges, err := sqliteStudyRanges(c, studyID)
	if err != nil || len(ranges) == 0 {
		return err
	}
	st, _, err := c.Prepare(sel + ` WHERE id BETWEEN ? AND ? AND +study_id = ?` + cond + ` ORDER BY id`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range ranges {
		if err := bindArgs(st, append([]any{r.first, r.last, studyID}, args...)); err != nil {
			return err
		}
		n := int64(0)
		for st.Step() {
			n++
			more, err := fn(st)
			if err != nil || !more {
				return err
			}
		}
		if err := st.Reset(); err != nil {
			return err
		}
		if cond == "" && n != r.trials {
			return &store.IntegrityError{Block: r.block, Detail: fmt.Sprintf("rows %d to %d hold %d of the study's trials; its blocks count %d",
				r.first, r.last, n, r.trials)}
		}
	}
	return nil
}

// studyRange is a row-id range holding trials of one study: the blocks
// of adjacent or overlapping ranges merged, with the number of trials they
// count and the first of them.
type studyRange struct {
	first, last, trials, block int64
}

// sqliteStudyRanges returns the row-id ranges of the study's blocks in
// order, overlapping and adjacent ones merged, once each block's checksum
// is verified.
func sqliteStudyRanges(c *sqlite3.Conn, studyID int64) ([]studyRange, error) {
	st, _, err := c.Prepare(`SELECT ` + shared.BlockColumns + ` FROM blocks WHERE study_id = ? ORDER BY first_trial`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := st.BindInt64(1, studyID); err != nil {
		return nil, err
	}
	var out []studyRange
	for st.Step() {
		k := shared.StoredBlock{ID: st.ColumnInt64(0), First: st.ColumnInt64(1), Last: st.ColumnInt64(2), N: st.ColumnInt64(3),
			RowIDs: st.ColumnRawBlob(4), IDs: st.ColumnRawBlob(5), Problems: st.ColumnRawBlob(6), Checksum: st.ColumnInt64(7)}
		if err := k.Verify(); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && k.First <= out[n-1].last+1 {
			out[n-1].last = max(out[n-1].last, k.Last)
			out[n-1].trials += k.N
			continue
		}
		out = append(out, studyRange{first: k.First, last: k.Last, trials: k.N, block: k.ID})
	}
	return out, st.Err()
}

// Check verifies the study (every study when study is empty) in one read
// transaction.
func (s *sqliteStore) Check(ctx context.Context, study string) ([]store.StudyCheck, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, sqliteError(s.path, "checking", err)
	}
	defer tx.Rollback()
	out, err := shared.CheckStudies(sqlQueryTx{tx}, study)
	if err != nil {
		return out, sqliteError(s.path, "checking", err)
	}
	return out, nil
}
