package sqlite

import (
	"database/sql"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store/tunequeue"
)

// connTx is a read transaction on a connection of the low-level API
// (shared.StudyTx): each query is prepared, and its statement closed
// with its rows.
type connTx struct{ c *sqlite3.Conn }

// Numbered implements shared.StudyTx: SQLite statements take '?'
// parameters.
func (connTx) Numbered() bool { return false }

// Query implements shared.StudyTx with int64, string and []byte
// arguments; the rows scan as stmtScanner does.
func (t connTx) Query(query string, args ...any) (tunequeue.Rows, error) {
	st, _, err := t.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	if err := bindArgs(st, args); err != nil {
		st.Close()
		return nil, err
	}
	return &stmtRows{st: st}, nil
}

// stmtRows are the rows of a low-level statement, which Close closes.
type stmtRows struct {
	st  *sqlite3.Stmt
	err error // the statement's error once closed
}

func (r *stmtRows) Next() bool { return r.st != nil && r.st.Step() }

func (r *stmtRows) Scan(dest ...any) error { return stmtScanner{r.st}.Scan(dest...) }

func (r *stmtRows) Err() error {
	if r.st == nil {
		return r.err
	}
	return r.st.Err()
}

func (r *stmtRows) Close() {
	if r.st == nil {
		return
	}
	r.err = r.st.Err()
	if err := r.st.Close(); r.err == nil {
		r.err = err
	}
	r.st = nil
}

// stmtScanner scans the current row of a low-level statement into the
// targets TrialRow and StoredBlock use: *int64, *[]byte (valid until the
// next step) and *sql.NullFloat64.
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
