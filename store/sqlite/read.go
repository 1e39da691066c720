package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// ReadStudy implements shared.Dialect: it runs fn in one read transaction
// on a connection of the low-level API, with the row id of study
// (ErrNoStudy when there is none).
func (s *sqliteStore) ReadStudy(ctx context.Context, op, study string, fn func(tx shared.StudyTx, studyID int64) error) error {
	err := s.raw(ctx, func(c *sqlite3.Conn) error {
		return inTx(c, "BEGIN", func() error {
			tx := connTx{c}
			studyID, err := shared.StudyID(tx, study)
			if err != nil {
				return err
			}
			return fn(tx, studyID)
		})
	})
	if err != nil {
		return sqliteError(s.path, op, err)
	}
	return nil
}

// EachTrial implements shared.StudyTx. The SQLite store has no index on
// the study: its trials are found through the row-id ranges of its blocks
// (the unary + keeps SQLite from using trials_key for the study id
// instead of the row-id range), whose checksums are verified, and without
// cond every range must hold the trials its blocks count.
func (t connTx) EachTrial(studyID int64, sel, cond string, args []any, fn func(shared.RowScanner) (bool, error)) error {
	ranges, err := studyRanges(t, studyID)
	if err != nil || len(ranges) == 0 {
		return err
	}
	st, _, err := t.c.Prepare(sel + ` WHERE id BETWEEN ? AND ? AND +study_id = ?` + cond + ` ORDER BY id`)
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
			more, err := fn(stmtScanner{st})
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

// studyRanges returns the row-id ranges of the study's blocks in order,
// overlapping and adjacent ones merged, once each block's checksum is
// verified.
func studyRanges(tx connTx, studyID int64) ([]studyRange, error) {
	var out []studyRange
	err := shared.EachBlock(tx, studyID, false, func(k *shared.StoredBlock) error {
		if err := k.Verify(); err != nil {
			return err
		}
		if n := len(out); n > 0 && k.First <= out[n-1].last+1 {
			out[n-1].last = max(out[n-1].last, k.Last)
			out[n-1].trials += k.N
			return nil
		}
		out = append(out, studyRange{first: k.First, last: k.Last, trials: k.N, block: k.ID})
		return nil
	})
	return out, err
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
