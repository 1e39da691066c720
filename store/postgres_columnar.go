package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Columns reads, for every trial of the study that satisfies where, its ID
// and the value of each spec; see Columns. Conditions on environment
// columns with non-numeric values are applied in SQL (in byte order, as Go
// compares), the others by reading the trials as Trials does and filtering
// them in Go, in the same snapshot.
//
// Every statement runs in one repeatable-read snapshot: the study's trials
// from the trials_study index, then one UNION ALL of an index-only range
// of measurements_metric per spec. Rows are decoded from their binary
// form without Scan.
func (s *pgStore) Columns(ctx context.Context, study string, specs []ColumnSpec, where []Condition) (*Columns, error) {
	sqlConds, goConds := splitConditions(where)
	b := newColumnsBuilder(specs)
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		var studyID int64
		err := tx.QueryRow(ctx, `SELECT id FROM studies WHERE name = $1`, study).Scan(&studyID)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("study %q: %w", study, ErrNoStudy)
		}
		if err != nil {
			return err
		}
		if len(goConds) > 0 {
			c := &collector{q: Query{Where: goConds, Metrics: []string{}}}
			if err := pgReadTrials(ctx, tx, studyID, c, newDecoder()); err != nil {
				return fmt.Errorf("reading trials: %w", err)
			}
			b.keep = keepIDs(c)
		}
		if err := pgColumnTrials(ctx, tx, b, studyID, sqlConds); err != nil {
			return fmt.Errorf("reading trials: %w", err)
		}
		if err := pgColumnValues(ctx, tx, b); err != nil {
			return fmt.Errorf("reading measurements: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading columns of "+study, err)
	}
	return b.result(), nil
}

func pgColumnTrials(ctx context.Context, tx pgx.Tx, b *columnsBuilder, studyID int64, sqlConds []Condition) error {
	cond, args := envWhere(sqlConds, 2, true, ` COLLATE "C"`)
	rows, err := tx.Query(ctx, `SELECT id, hash, problem FROM trials WHERE study_id = $1`+cond+` ORDER BY id`,
		append([]any{studyID}, args...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	fds := rows.FieldDescriptions()
	for rows.Next() {
		raw := rows.RawValues()
		id, err := pgInt(fds[0], raw[0])
		if err != nil {
			return err
		}
		b.addTrial(id, raw[1], raw[2])
	}
	if err := rows.Err(); err != nil {
		return err
	}
	b.startValues()
	return nil
}

func pgColumnValues(ctx context.Context, tx pgx.Tx, b *columnsBuilder) error {
	if len(b.rowIDs) == 0 || len(b.dims) == 0 {
		return nil
	}
	lo, hi := b.rowIDs[0], b.maxRowID()
	var args []any
	for u, d := range b.dims {
		args = append(args, b.specs[indexOf(b.unique, u)].Metric, d, lo, hi)
	}
	rows, err := tx.Query(ctx, columnValuesQuery(len(b.dims), true), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	fds := rows.FieldDescriptions()
	for rows.Next() {
		raw := rows.RawValues()
		u, err := pgInt(fds[0], raw[0])
		if err != nil {
			return err
		}
		id, err := pgInt(fds[1], raw[1])
		if err != nil {
			return err
		}
		v := math.NaN()
		if raw[2] != nil {
			if fds[2].Format != pgx.BinaryFormatCode || len(raw[2]) != 8 {
				return fmt.Errorf("value: unexpected encoding")
			}
			v = math.Float64frombits(binary.BigEndian.Uint64(raw[2]))
		}
		b.addValue(int(u), id, v)
	}
	return rows.Err()
}

// pgInt decodes a binary int2, int4 or int8 column.
func pgInt(fd pgconn.FieldDescription, raw []byte) (int64, error) {
	if fd.Format == pgx.BinaryFormatCode {
		switch len(raw) {
		case 8:
			return int64(binary.BigEndian.Uint64(raw)), nil
		case 4:
			return int64(int32(binary.BigEndian.Uint32(raw))), nil
		case 2:
			return int64(int16(binary.BigEndian.Uint16(raw))), nil
		}
	}
	return 0, fmt.Errorf("column %s: unexpected encoding", fd.Name)
}
