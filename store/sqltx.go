package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// blockTx is what writing blocks needs from a transaction of either
// dialect. Queries are written with '?' placeholders.
type blockTx interface {
	exec(query string, args ...any) error
	queryInt(query string, args ...any) (int64, error)
	// numbered reports PostgreSQL, whose statements the caller may batch
	// with arrays.
	numbered() bool
}

// fillTx is what a migration's data conversion needs from a transaction.
type fillTx interface {
	blockTx
	query(query string, args ...any) (fillRows, error)
}

// fillRows iterates over the rows of a query.
type fillRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// sqlFillTx adapts a database/sql transaction of the SQLite store.
type sqlFillTx struct{ tx *sql.Tx }

func (t sqlFillTx) exec(query string, args ...any) error {
	_, err := t.tx.Exec(query, args...)
	return err
}

func (t sqlFillTx) queryInt(query string, args ...any) (n int64, err error) {
	err = t.tx.QueryRow(query, args...).Scan(&n)
	return n, err
}

func (t sqlFillTx) query(query string, args ...any) (fillRows, error) {
	rows, err := t.tx.Query(query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (sqlFillTx) numbered() bool { return false }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// pgFillTx adapts a pgx transaction.
type pgFillTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t pgFillTx) exec(query string, args ...any) error {
	_, err := t.tx.Exec(t.ctx, numberPlaceholders(query), args...)
	return err
}

func (t pgFillTx) queryInt(query string, args ...any) (n int64, err error) {
	err = t.tx.QueryRow(t.ctx, numberPlaceholders(query), args...).Scan(&n)
	return n, err
}

func (t pgFillTx) query(query string, args ...any) (fillRows, error) {
	return t.tx.Query(t.ctx, numberPlaceholders(query), args...)
}

func (pgFillTx) numbered() bool { return true }

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
// round trip); %[1]s is ", checksum" or nothing, %[5]s the block's own
// further columns (see writeBlockAt) and %[6]s their placeholders.
const pgInsertBlock = `WITH b AS (INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems%[1]s%[5]s)
	VALUES (?, ?, ?, ?, ?, ?, ?%[2]s%[6]s) RETURNING id)
INSERT INTO block_values (block_id, metric, dims, vals%[1]s)
SELECT b.id, u.metric, u.dims, u.vals%[3]s FROM b,
	unnest(?::text[], ?::text[], ?::bytea[]%[4]s) AS u(metric, dims, vals%[1]s)`

// writeBlock stores b, a block of the study's trials, with the checksums
// of the block, of each of its value columns and of its sketches
// (blockChecksum, valuesChecksum, sketchChecksum).
func writeBlock(tx blockTx, studyID int64, b *block) error { return writeBlockAt(tx, studyID, b, true) }

// writeBlockAt stores b; current tells the current schema, with checksums
// and sketches (the conversions to versions 5 and 6 write blocks
// without). The block's sketches are stored when every trial of it has
// one, else none (an empty version).
func writeBlockAt(tx blockTx, studyID int64, b *block, current bool) error {
	if b.n == 0 {
		return nil
	}
	sum := blockChecksum(b.first, b.last, int64(b.n), b.rowIDs, b.ids, b.problems)
	col, ph, ref, arr, own, ownPh := "", "", "", "", "", ""
	args := []any{studyID, b.first, b.last, int64(b.n), b.rowIDs, b.ids, b.problems}
	if current {
		col, ph, ref, arr = ", checksum", ", ?", ", u.checksum", ", ?::bigint[]"
		own, ownPh = ", sketches, sketch_version, sketch_checksum", ", ?, ?, ?"
		version, sketches := "", []byte{}
		if b.sk.n == b.n {
			version, sketches = sketchVersion, b.sk.b
		}
		args = append(args, sum, sketches, version, sketchChecksum(b.first, version, sketches))
	}
	if tx.numbered() {
		n := len(b.order)
		metrics, dims, vals, vsums := make([]string, n), make([]string, n), make([][]byte, n), make([]int64, n)
		for i, k := range b.order {
			metrics[i], dims[i], vals[i] = k.metric, k.dims, b.column(k)
			vsums[i] = valuesChecksum(b.first, k.metric, k.dims, vals[i])
		}
		args = append(args, metrics, dims, vals)
		if current {
			args = append(args, vsums)
		}
		return tx.exec(fmt.Sprintf(pgInsertBlock, col, ph, ref, arr, own, ownPh), args...)
	}
	id, err := tx.queryInt(`INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems`+col+own+`)
		VALUES (?, ?, ?, ?, ?, ?, ?`+ph+ownPh+`) RETURNING id`, args...)
	if err != nil {
		return err
	}
	row := "(?, ?, ?, ?" + ph + ")"
	for start := 0; start < len(b.order); start += valuesBatch {
		keys := b.order[start:min(start+valuesBatch, len(b.order))]
		args := make([]any, 0, 5*len(keys))
		for _, k := range keys {
			vals := b.column(k)
			args = append(args, id, k.metric, k.dims, vals)
			if current {
				args = append(args, valuesChecksum(b.first, k.metric, k.dims, vals))
			}
		}
		err := tx.exec(`INSERT INTO block_values (block_id, metric, dims, vals`+col+`) VALUES `+row+
			strings.Repeat(", "+row, len(keys)-1), args...)
		if err != nil {
			return err
		}
	}
	return nil
}

// valuesBatch is the number of block_values rows per SQLite INSERT.
const valuesBatch = 64
