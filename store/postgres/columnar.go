package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
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
func (s *pgStore) Columns(ctx context.Context, study string, specs []store.ColumnSpec, where []store.Condition) (*store.Columns, error) {
	b := shared.NewColumnsBuilder(specs)
	err := s.readStudy(ctx, study, func(tx pgx.Tx, studyID int64) error {
		if err := pgColumnFilters(ctx, tx, b, studyID, where); err != nil {
			return fmt.Errorf("reading trials: %w", shared.InStudy(err, study))
		}
		if err := pgColumnBlocks(ctx, tx, b, studyID); err != nil {
			return fmt.Errorf("reading blocks: %w", shared.InStudy(err, study))
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading columns of "+study, err)
	}
	return b.Result(), nil
}

// pgColumnFilters sets the row ids that the conditions keep.
func pgColumnFilters(ctx context.Context, tx pgx.Tx, b *shared.ColumnsBuilder, studyID int64, where []store.Condition) error {
	sqlConds, goConds := shared.SplitConditions(where)
	if len(goConds) > 0 {
		c := &shared.Collector{Q: store.Query{Where: goConds, Metrics: []string{}}, RowsOnly: true}
		if err := pgReadTrials(ctx, tx, studyID, c, codec.NewDecoder()); err != nil {
			return err
		}
		b.KeepGo = shared.RowSet(c.RowIDs)
	}
	if len(sqlConds) == 0 {
		return nil
	}
	cond, args := shared.EnvWhere(sqlConds, 2, true, ` COLLATE "C"`)
	rows, err := tx.Query(ctx, `SELECT id FROM trials WHERE study_id = $1`+cond, append([]any{studyID}, args...)...)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	b.KeepSQL = shared.RowSet(ids)
	return err
}

// pgColumnBlocks reads the study's blocks, then each spec's values.
func pgColumnBlocks(ctx context.Context, tx pgx.Tx, b *shared.ColumnsBuilder, studyID int64) error {
	rows, err := tx.Query(ctx, `SELECT `+shared.SketchedBlockColumns+` FROM blocks WHERE study_id = $1 ORDER BY first_trial`, studyID)
	if err != nil {
		return err
	}
	var k shared.StoredBlock
	_, err = pgx.ForEachRow(rows, k.SketchedDest(), func() error { return b.AddBlock(&k) })
	if err != nil {
		return err
	}
	b.StartValues()
	if len(b.RowIDs) == 0 {
		return nil
	}
	var vals []byte
	var id, sum int64
	for u, d := range b.Dims {
		rows, err := tx.Query(ctx, numberPlaceholders(shared.BlockValuesQuery), studyID, b.Metric(u), d)
		if err != nil {
			return err
		}
		_, err = pgx.ForEachRow(rows, []any{&id, &vals, &sum}, func() error { return b.AddValues(u, id, vals, sum) })
		if err != nil {
			return err
		}
	}
	return nil
}
