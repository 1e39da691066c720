package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ncruces/go-sqlite3"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

// Columns reads, for every trial of the study that satisfies where, its ID
// and the value of each spec; see Columns. Conditions on environment
// columns with non-numeric values are applied in SQL, the others by
// reading the trials as Trials does and filtering them in Go.
//
// It runs in one read transaction with the low-level API: the row ids of
// the trials that the conditions keep, if any, then the study's blocks,
// then each spec's values in every block (one blob per block).
func (s *sqliteStore) Columns(ctx context.Context, study string, specs []store.ColumnSpec, where []store.Condition) (*store.Columns, error) {
	b := shared.NewColumnsBuilder(specs)
	err := s.readStudy(ctx, study, func(c *sqlite3.Conn, studyID int64) error {
		if err := sqliteColumnFilters(c, b, studyID, where); err != nil {
			return fmt.Errorf("reading trials of %s: %w", study, shared.InStudy(err, study))
		}
		if err := sqliteColumnBlocks(c, b, studyID); err != nil {
			return fmt.Errorf("reading blocks of %s: %w", study, shared.InStudy(err, study))
		}
		return nil
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading columns of "+study, err)
	}
	return b.Result(), nil
}

func sqliteStudyID(c *sqlite3.Conn, study string) (int64, error) {
	st, _, err := c.Prepare(`SELECT id FROM studies WHERE name = ?`)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	if err := st.BindText(1, study); err != nil {
		return 0, err
	}
	if !st.Step() {
		if err := st.Err(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("study %q: %w", study, store.ErrNoStudy)
	}
	return st.ColumnInt64(0), nil
}

// sqliteColumnFilters sets the row ids that the conditions keep.
func sqliteColumnFilters(c *sqlite3.Conn, b *shared.ColumnsBuilder, studyID int64, where []store.Condition) error {
	sqlConds, goConds := shared.SplitConditions(where)
	if len(goConds) > 0 {
		coll := &shared.Collector{Q: store.Query{Where: goConds, Metrics: []string{}}, RowsOnly: true}
		if err := sqliteRawTrials(c, studyID, coll, codec.NewDecoder()); err != nil {
			return err
		}
		b.KeepGo = shared.RowSet(coll.RowIDs)
	}
	if len(sqlConds) == 0 {
		return nil
	}
	cond, args := shared.EnvWhere(sqlConds, 4, false, "")
	b.KeepSQL = map[int64]bool{}
	return sqliteEachTrial(c, studyID, "SELECT id FROM trials", cond, args, func(st *sqlite3.Stmt) (bool, error) {
		b.KeepSQL[st.ColumnInt64(0)] = true
		return true, nil
	})
}

// sqliteColumnBlocks reads the study's blocks, then each spec's values.
func sqliteColumnBlocks(c *sqlite3.Conn, b *shared.ColumnsBuilder, studyID int64) error {
	st, _, err := c.Prepare(`SELECT ` + shared.SketchedBlockColumns + ` FROM blocks WHERE study_id = ? ORDER BY first_trial`)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.BindInt64(1, studyID); err != nil {
		return err
	}
	for st.Step() {
		k := shared.StoredBlock{ID: st.ColumnInt64(0), First: st.ColumnInt64(1), Last: st.ColumnInt64(2), N: st.ColumnInt64(3),
			RowIDs: st.ColumnRawBlob(4), IDs: st.ColumnRawBlob(5), Problems: st.ColumnRawBlob(6), Checksum: st.ColumnInt64(7),
			Sketches: st.ColumnRawBlob(8), SketchVersion: st.ColumnRawText(9), SketchChecksum: st.ColumnInt64(10)}
		if err := b.AddBlock(&k); err != nil {
			return err
		}
	}
	if err := st.Err(); err != nil {
		return err
	}
	b.StartValues()
	if len(b.RowIDs) == 0 {
		return nil
	}
	vs, _, err := c.Prepare(shared.BlockValuesQuery)
	if err != nil {
		return err
	}
	defer vs.Close()
	for u, d := range b.Dims {
		if err := bindArgs(vs, []any{studyID, b.Metric(u), d}); err != nil {
			return err
		}
		for vs.Step() {
			if err := b.AddValues(u, vs.ColumnInt64(0), vs.ColumnRawBlob(1), vs.ColumnInt64(2)); err != nil {
				return err
			}
		}
		if err := vs.Reset(); err != nil {
			return err
		}
	}
	return nil
}

// stmtScanner scans the current row of a low-level statement into the
// targets TrialRow uses: *int64, *[]byte (valid until the next step) and
// *sql.NullFloat64.
type stmtScanner struct{ st *sqlite3.Stmt }

func (s stmtScanner) Scan(dest ...any) error {
	for i, d := range dest {
		switch d := d.(type) {
		case *int64:
			*d = s.st.ColumnInt64(i)
		case *[]byte:
			*d = s.st.ColumnRawText(i)
		case *sql.NullFloat64:
			if s.st.ColumnType(i) == sqlite3.NULL {
				*d = sql.NullFloat64{}
			} else {
				*d = sql.NullFloat64{Float64: s.st.ColumnFloat(i), Valid: true}
			}
		default:
			return fmt.Errorf("column %d: cannot scan into %T", i, d)
		}
	}
	return nil
}
