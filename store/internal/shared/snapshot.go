package shared

import (
	"context"
	"fmt"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// Reader is a store that reads in one read-only snapshot of either
// dialect (tunequeue.Dialect.ReadTx): fn's queries are written with '?'
// placeholders, and the error ReadTx returns names the store and op.
type Reader interface {
	ReadTx(ctx context.Context, op string, fn func(tx tunequeue.SQL) error) error
}

// Dialect is a store of either dialect as the reads both share (Reads)
// need it: read-only snapshots, in which the SQL written here runs.
type Dialect interface {
	Reader
	// ReadStudy runs fn in one read-only snapshot, with the row id of
	// study (ErrNoStudy when there is none); the error it returns names
	// the store and op.
	ReadStudy(ctx context.Context, op, study string, fn func(tx StudyTx, studyID int64) error) error
}

// Querier runs a query written with '?' placeholders.
type Querier interface {
	Query(query string, args ...any) (tunequeue.Rows, error)
}

// StudyTx is a read-only snapshot of either dialect (Dialect.ReadStudy).
type StudyTx interface {
	Querier
	// Numbered reports PostgreSQL (codec.BlockTx.Numbered).
	Numbered() bool
	// EachTrial runs sel (a SELECT from trials) on the study's trials that
	// satisfy cond (" AND ..." terms whose parameters are args), in row-id
	// order, and calls fn on each row until it returns false or an error.
	EachTrial(studyID int64, sel, cond string, args []any, fn func(RowScanner) (bool, error)) error
}

// StudyID returns the row id of the study named study in tx, ErrNoStudy
// when there is none.
func StudyID(tx Querier, study string) (int64, error) {
	rows, err := tx.Query(`SELECT id FROM studies WHERE name = ?`, study)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("study %q: %w", study, store.ErrNoStudy)
	}
	var id int64
	err = rows.Scan(&id)
	return id, err
}
