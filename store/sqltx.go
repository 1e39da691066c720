package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// blockTx is what writing blocks needs from a transaction of either
// dialect. Queries are written with '?' placeholders.
type blockTx interface {
	Exec(query string, args ...any) error
	QueryInt(query string, args ...any) (int64, error)
	// numbered reports PostgreSQL, whose statements the caller may batch
	// with arrays.
	numbered() bool
}

// queryTx is what the code shared by both dialects (checks, sketches) and
// the tuning queue (tunequeue.SQL) need from a transaction.
type queryTx interface {
	blockTx
	Query(query string, args ...any) (tunequeue.Rows, error)
}

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

func (sqlQueryTx) numbered() bool { return false }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

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

func (pgQueryTx) numbered() bool { return true }

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
		sb.WriteString("$" + itoa(k))
		query = query[i+1:]
	}
}

// pgInsertBlock inserts a block and its values in one statement (one
// round trip).
const pgInsertBlock = `WITH b AS (INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems,
		checksum, sketches, sketch_version, sketch_checksum)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id)
INSERT INTO block_values (block_id, metric, dims, vals, checksum)
SELECT b.id, u.metric, u.dims, u.vals, u.checksum FROM b,
	unnest(?::text[], ?::text[], ?::bytea[], ?::bigint[]) AS u(metric, dims, vals, checksum)`

// writeBlock stores b, a block of the study's trials, with the checksums
// of the block, of each of its value columns and of its sketches
// (blockChecksum, valuesChecksum, sketchChecksum). The block's sketches
// are stored when every trial of it has one, else none (an empty
// version).
func writeBlock(tx blockTx, studyID int64, b *block) error {
	if b.n == 0 {
		return nil
	}
	sum := blockChecksum(b.first, b.last, int64(b.n), b.rowIDs, b.ids, b.problems)
	version, sketches := "", []byte{}
	if b.sk.n == b.n {
		version, sketches = sketchVersion, b.sk.b
	}
	args := []any{studyID, b.first, b.last, int64(b.n), b.rowIDs, b.ids, b.problems,
		sum, sketches, version, sketchChecksum(b.first, version, sketches)}
	if tx.numbered() {
		n := len(b.order)
		metrics, dims, vals, vsums := make([]string, n), make([]string, n), make([][]byte, n), make([]int64, n)
		for i, k := range b.order {
			metrics[i], dims[i], vals[i] = k.metric, k.dims, b.column(k)
			vsums[i] = valuesChecksum(b.first, k.metric, k.dims, vals[i])
		}
		return tx.Exec(pgInsertBlock, append(args, metrics, dims, vals, vsums)...)
	}
	id, err := tx.QueryInt(`INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems,
		checksum, sketches, sketch_version, sketch_checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, args...)
	if err != nil {
		return err
	}
	const row = "(?, ?, ?, ?, ?)"
	for start := 0; start < len(b.order); start += valuesBatch {
		keys := b.order[start:min(start+valuesBatch, len(b.order))]
		args := make([]any, 0, 5*len(keys))
		for _, k := range keys {
			vals := b.column(k)
			args = append(args, id, k.metric, k.dims, vals, valuesChecksum(b.first, k.metric, k.dims, vals))
		}
		err := tx.Exec(`INSERT INTO block_values (block_id, metric, dims, vals, checksum) VALUES `+row+
			strings.Repeat(", "+row, len(keys)-1), args...)
		if err != nil {
			return err
		}
	}
	return nil
}

// valuesBatch is the number of block_values rows per SQLite INSERT.
const valuesBatch = 64
