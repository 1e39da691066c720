package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// pgQueryTx adapts a pgx transaction.
type pgQueryTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t pgQueryTx) Exec(query string, args ...any) error {
	_, err := t.tx.Exec(t.ctx, numberPlaceholders(query), args...)
	return err
}

func (t pgQueryTx) QueryInt(query string, args ...any) (n int64, err error) {
	err = t.tx.QueryRow(t.ctx, numberPlaceholders(query), args...).Scan(&n)
	return n, err
}

func (t pgQueryTx) Query(query string, args ...any) (tunequeue.Rows, error) {
	return t.tx.Query(t.ctx, numberPlaceholders(query), args...)
}

func (pgQueryTx) Numbered() bool { return true }

// EachTrial implements shared.StudyTx: PostgreSQL finds the study's
// trials through its index on the study.
func (t pgQueryTx) EachTrial(studyID int64, sel, cond string, args []any, fn func(shared.RowScanner) (bool, error)) error {
	rows, err := t.tx.Query(t.ctx, numberPlaceholders(sel+` WHERE study_id = ?`+cond+` ORDER BY id`), append([]any{studyID}, args...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if more, err := fn(rows); err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

// numberPlaceholders turns each '?' of query into $1, $2, ...
func numberPlaceholders(query string) string {
	var sb strings.Builder
	k := 0
	for {
		i := strings.IndexByte(query, '?')
		if i < 0 {
			sb.WriteString(query)
			return sb.String()
		}
		k++
		sb.WriteString(query[:i])
		sb.WriteString("$" + codec.Itoa(k))
		query = query[i+1:]
	}
}
