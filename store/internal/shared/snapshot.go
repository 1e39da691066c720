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
