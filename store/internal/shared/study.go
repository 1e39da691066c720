package shared

import (
	"context"
	"fmt"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// Reads implements the reads of a study that both dialects share
// (Trials, Scan, TrialsByID, Columns, Skips) on D; a store embeds one set
// to itself (Reads{D: s}), as it embeds tunequeue.OnDialect.
type Reads struct {
	// D is the store the reads run in.
	D Dialect
}

// Trials implements store.Reader.Trials: the study's trials in ingest
// order, filtered by q, from one snapshot.
func (r Reads) Trials(ctx context.Context, study string, q store.Query) ([]trial.Trial, error) {
	var out []trial.Trial
	err := r.D.ReadStudy(ctx, "reading "+study, study, func(tx StudyTx, studyID int64) error {
		c := &Collector{Q: q}
		if err := readTrials(tx, studyID, c, codec.NewDecoder()); err != nil {
			return readingTrials(err, study)
		}
		out = c.Trials
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Scan implements store.Reader.Scan: it hands the study's trials,
// filtered by q, to fn in ingest order, in batches, from one snapshot. An
// error of fn is returned as it is.
func (r Reads) Scan(ctx context.Context, study string, q store.Query, fn func([]trial.Trial) error) error {
	err := r.D.ReadStudy(ctx, "reading "+study, study, func(tx StudyTx, studyID int64) error {
		c := &Collector{Q: q, Emit: fn}
		return scanWrap(readTrials(tx, studyID, c, codec.NewScanDecoder()), func(err error) error { return readingTrials(err, study) })
	})
	return scanError(err)
}

// readingTrials wraps an error of reading the study's trials.
func readingTrials(err error, study string) error {
	return fmt.Errorf("reading trials of %s: %w", study, InStudy(err, study))
}

// readTrials reads the study's trials into c in row-id order, verified
// (see TrialRow.Decode), decoding them with d.
func readTrials(tx StudyTx, studyID int64, c *Collector, d *codec.Decoder) error {
	r := NewTrialRow()
	slim := c.Q.Slim && len(c.Q.Where) == 0
	v := NewVerifier()
	defer v.Wait()
	c.StartScan(v)
	err := tx.EachTrial(studyID, codec.TrialsSelect(tx.Numbered()), "", nil, func(rs RowScanner) (bool, error) {
		id, t, err := r.Decode(rs, d, &c.Q, slim, v)
		if err != nil {
			return false, err
		}
		if !c.AddTrial(id, t) {
			return false, c.Err
		}
		return true, nil
	})
	return c.Finish(err, v.Wait())
}

// eachRow runs query in tx and calls fn after it scans each row into
// dest, until fn returns an error.
func eachRow(tx Querier, query string, args []any, dest []any, fn func() error) error {
	rows, err := tx.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return rows.Err()
}
