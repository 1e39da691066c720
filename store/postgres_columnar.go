package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store/internal/codec"
)

// Columns reads, for every trial of the study that satisfies where, its ID
// and the value of each spec; see Columns. Conditions on environment
// columns with non-numeric values are applied in SQL (in byte order, as Go
// compares), the others by reading the trials as Trials does and filtering
// them in Go, in the same snapshot.
//
// Every statement runs in one repeatable-read snapshot: the row ids the
// conditions keep, if any, then the study's blocks, then each spec's
// values in every block (one blob per block).
func (s *pgStore) Columns(ctx context.Context, study string, specs []ColumnSpec, where []Condition) (*Columns, error) {
	b := newColumnsBuilder(specs)
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		studyID, err := pgStudyID(ctx, tx, study)
		if err != nil {
			return err
		}
		if err := pgColumnFilters(ctx, tx, b, studyID, where); err != nil {
			return fmt.Errorf("reading trials: %w", inStudy(err, study))
		}
		if err := pgColumnBlocks(ctx, tx, b, studyID); err != nil {
			return fmt.Errorf("reading blocks: %w", inStudy(err, study))
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading columns of "+study, err)
	}
	return b.result(), nil
}

// pgColumnFilters sets the row ids that the conditions keep.
func pgColumnFilters(ctx context.Context, tx pgx.Tx, b *columnsBuilder, studyID int64, where []Condition) error {
	sqlConds, goConds := splitConditions(where)
	if len(goConds) > 0 {
		c := &collector{q: Query{Where: goConds, Metrics: []string{}}, rowsOnly: true}
		if err := pgReadTrials(ctx, tx, studyID, c, codec.NewDecoder()); err != nil {
			return err
		}
		b.keepGo = rowSet(c.rowIDs)
	}
	if len(sqlConds) == 0 {
		return nil
	}
	cond, args := envWhere(sqlConds, 2, true, ` COLLATE "C"`)
	rows, err := tx.Query(ctx, `SELECT id FROM trials WHERE study_id = $1`+cond, append([]any{studyID}, args...)...)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	b.keepSQL = rowSet(ids)
	return err
}

// pgColumnBlocks reads the study's blocks, then each spec's values.
func pgColumnBlocks(ctx context.Context, tx pgx.Tx, b *columnsBuilder, studyID int64) error {
	rows, err := tx.Query(ctx, `SELECT `+sketchedBlockColumns+` FROM blocks WHERE study_id = $1 ORDER BY first_trial`, studyID)
	if err != nil {
		return err
	}
	var k storedBlock
	_, err = pgx.ForEachRow(rows, k.sketchedDest(), func() error { return b.addBlock(&k) })
	if err != nil {
		return err
	}
	b.startValues()
	if len(b.rowIDs) == 0 {
		return nil
	}
	var vals []byte
	var id, sum int64
	for u, d := range b.dims {
		rows, err := tx.Query(ctx, numberPlaceholders(blockValuesQuery), studyID, b.metric(u), d)
		if err != nil {
			return err
		}
		_, err = pgx.ForEachRow(rows, []any{&id, &vals, &sum}, func() error { return b.addValues(u, id, vals, sum) })
		if err != nil {
			return err
		}
	}
	return nil
}
