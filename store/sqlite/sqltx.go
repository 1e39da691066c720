package sqlite

import (
	"database/sql"

	"github.com/pareto-llm/pareto/store/tunequeue"
)

// sqlQueryTx adapts a database/sql transaction of the SQLite store.
type sqlQueryTx struct{ tx *sql.Tx }

func (t sqlQueryTx) Exec(query string, args ...any) error {
	_, err := t.tx.Exec(query, args...)
	return err
}

func (t sqlQueryTx) QueryInt(query string, args ...any) (n int64, err error) {
	err = t.tx.QueryRow(query, args...).Scan(&n)
	return n, err
}

func (t sqlQueryTx) Query(query string, args ...any) (tunequeue.Rows, error) {
	rows, err := t.tx.Query(query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (sqlQueryTx) Numbered() bool { return false }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }
