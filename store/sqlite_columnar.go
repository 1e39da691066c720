package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// Columns reads, for every trial of the study that satisfies where, its ID
// and the value of each spec; see Columns. Conditions on environment
// columns with non-numeric values are applied in SQL, the others by
// reading the trials as Trials does and filtering them in Go.
//
// It runs in one read transaction with the low-level API: the trials
// that the Go conditions keep, if any, then the study's trials from the
// trials_study index, then one UNION ALL of a
// range of the measurements_metric index per spec; SQLite has no merge
// join, so the join on the trial row id is done in Go.
func (s *sqliteStore) Columns(ctx context.Context, study string, specs []ColumnSpec, where []Condition) (*Columns, error) {
	sqlConds, goConds := splitConditions(where)
	b := newColumnsBuilder(specs)
	err := s.raw(ctx, func(c *sqlite3.Conn) error {
		return inTx(c, "BEGIN", func() error {
			st, _, err := c.Prepare(`SELECT id FROM studies WHERE name = ?`)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.BindText(1, study); err != nil {
				return err
			}
			if !st.Step() {
				if err := st.Err(); err != nil {
					return err
				}
				return fmt.Errorf("study %q: %w", study, ErrNoStudy)
			}
			studyID := st.ColumnInt64(0)
			if len(goConds) > 0 {
				coll := &collector{q: Query{Where: goConds, Metrics: []string{}}}
				if err := sqliteRawTrials(c, studyID, coll, newDecoder()); err != nil {
					return fmt.Errorf("reading trials of %s: %w", study, err)
				}
				b.keep = keepIDs(coll)
			}
			if err := sqliteColumnTrials(c, b, studyID, sqlConds); err != nil {
				return fmt.Errorf("reading trials of %s: %w", study, err)
			}
			if err := sqliteColumnValues(c, b); err != nil {
				return fmt.Errorf("reading measurements of %s: %w", study, err)
			}
			return nil
		})
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading columns", err)
	}
	return b.result(), nil
}

func sqliteColumnTrials(c *sqlite3.Conn, b *columnsBuilder, studyID int64, sqlConds []Condition) error {
	cond, args := envWhere(sqlConds, 2, false, "")
	st, _, err := c.Prepare(`SELECT id, hash, problem FROM trials WHERE study_id = ?` + cond + ` ORDER BY id`)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.BindInt64(1, studyID); err != nil {
		return err
	}
	for i, a := range args {
		if err := st.BindText(i+2, a.(string)); err != nil {
			return err
		}
	}
	for st.Step() {
		b.addTrial(st.ColumnInt64(0), st.ColumnRawText(1), st.ColumnRawText(2))
	}
	if err := st.Err(); err != nil {
		return err
	}
	b.startValues()
	return nil
}

func sqliteColumnValues(c *sqlite3.Conn, b *columnsBuilder) error {
	if len(b.rowIDs) == 0 || len(b.dims) == 0 {
		return nil
	}
	st, _, err := c.Prepare(columnValuesQuery(len(b.dims), false))
	if err != nil {
		return err
	}
	defer st.Close()
	lo, hi := b.rowIDs[0], b.maxRowID()
	for u, d := range b.dims {
		metric := b.specs[indexOf(b.unique, u)].Metric
		p := 4*u + 1
		if err := errorsJoin(st.BindText(p, metric), st.BindText(p+1, d), st.BindInt64(p+2, lo), st.BindInt64(p+3, hi)); err != nil {
			return err
		}
	}
	for st.Step() {
		v := st.ColumnFloat(2)
		if v == 0 && st.ColumnType(2) == sqlite3.NULL {
			v = math.NaN()
		}
		b.addValue(st.ColumnInt(0), st.ColumnInt64(1), v)
	}
	return st.Err()
}

// columnValuesQuery selects (spec, trial row id, value) for n specs, each a
// range of the measurements_metric index: parameters metric, dims, first
// and last trial row id per spec.
func columnValuesQuery(n int, numbered bool) string {
	parts := make([]string, n)
	for u := range parts {
		p := 4*u + 1
		parts[u] = "SELECT " + itoa(u) + " AS spec, trial_id, value FROM measurements WHERE metric = " + placeholder(numbered, p) +
			" AND dims = " + placeholder(numbered, p+1) + " AND trial_id BETWEEN " + placeholder(numbered, p+2) + " AND " + placeholder(numbered, p+3)
	}
	return strings.Join(parts, "\nUNION ALL\n")
}

// indexOf returns the first k with unique[k] == u.
func indexOf(unique []int, u int) int {
	for k, x := range unique {
		if x == u {
			return k
		}
	}
	return -1
}

func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// sqliteRawTrials reads the study's trials (without measurements) into c
// with the low-level API, as readTrials does.
func sqliteRawTrials(c *sqlite3.Conn, studyID int64, coll *collector, d *decoder) error {
	st, _, err := c.Prepare(`SELECT ` + readColumns + ` FROM trials WHERE study_id = ? ORDER BY id`)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.BindInt64(1, studyID); err != nil {
		return err
	}
	r := newTrialRow()
	rs := stmtScanner{st}
	for st.Step() {
		id, t, err := r.decode(rs, d, coll.q.Slim && len(coll.q.Where) == 0)
		if err != nil {
			return err
		}
		if !coll.addTrial(id, t) {
			break
		}
	}
	return st.Err()
}

// stmtScanner scans the current row of a low-level statement into the
// targets trialRow uses: *int64, *[]byte (valid until the next step) and
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
