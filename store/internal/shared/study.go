package shared

import (
	"context"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

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
	return fmt.Errorf("reading trials: %w", InStudy(err, study))
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

// TrialsByID implements store.Reader.TrialsByID: the study's trials
// whose IDs are in ids, verified, in ingest order; IDs the study does not
// hold are left out. One snapshot.
func (r Reads) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = UniqueIDs(ids)
	var out []rowTrial
	err := r.D.ReadStudy(ctx, "reading trials of "+study, study, func(tx StudyTx, studyID int64) error {
		out = out[:0]
		dec, row := codec.NewDecoder(), NewTrialRow()
		for b := range IDBatches(ids, ByIDBatch) {
			query, args := TrialsByIDQuery(tx.Numbered(), studyID, b.IDs)
			err := eachRow(tx, query, args, func(rs RowScanner) (err error) {
				out, err = verifiedRow(rs, dec, row, b.Want, out)
				return err
			})
			if err != nil {
				return InStudy(err, study)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return byRow(out), nil
}

// TrialsByIDQuery returns the query of the trials of studyID under ids,
// and its arguments: PostgreSQL (numbered) looks their hashes up, SQLite
// their hash keys (codec.HashKey), which its index holds, so that a row
// it finds may be another ID's under the same key.
func TrialsByIDQuery(numbered bool, studyID int64, ids []string) (string, []any) {
	if numbered {
		return codec.TrialsSelect(true) + ` WHERE study_id = ? AND hash = ANY(?::text[])`, []any{studyID, ids}
	}
	args := make([]any, 0, len(ids)+1)
	args = append(args, studyID)
	for _, id := range ids {
		args = append(args, codec.HashKey(id))
	}
	return codec.TrialsSelect(false) + ` WHERE study_id = ? AND hkey IN (?` + strings.Repeat(",?", len(ids)-1) + `)`, args
}

// eachRow runs query in tx and calls fn on each row it returns, until fn
// returns an error.
func eachRow(tx Querier, query string, args []any, fn func(RowScanner) error) error {
	rows, err := tx.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
