package source

import (
	"context"
	"fmt"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// StudyRead is a read of a study's trials (ReadStudy): which study, which
// of its trials, and the stored columns the reader can take in their place.
type StudyRead struct {
	Study string
	// Query filters the study's trials (its Where).
	Query store.Query
	// Columns, when not empty, are the stored columns (store.ColumnSpec)
	// whose values, with the trials' sketches, stand for the trials: the
	// reader's Sketch takes one value per column, in order.
	Columns []store.ColumnSpec
}

// StudySink takes the trials of a study as ReadStudy reads them, in the
// study's order. Trial and Sketch keep none of what they are given but
// its strings.
type StudySink struct {
	// Grow, when set, is told how many trials are coming (a hint, 0 when
	// unknown), so that the reader allocates once.
	Grow func(n int)
	// Trial takes a trial read whole.
	Trial func(t *trial.Trial)
	// Sketch takes a trial read column by column: its stored ID, its
	// sketch (repeat key of the default configuration keys, source, the
	// labels that name it), its Problem when unusable, and its value of
	// every column of StudyRead.Columns (frontier.Missing when it has none
	// or several measurements: such a usable trial is given to Trial
	// instead, for only the trial tells why). Only called when Columns is
	// not empty.
	Sketch func(id string, sk *trial.Sketch, problem string, values []float64)
}

// ReadStudy is the store read planner: it reads the trials of r.Study
// filtered by r.Query from s into sink, the cheapest way that gives sink
// what it needs, and returns how many it read. When r names columns and
// every trial has a sketch (stores written before sketches have none),
// the study is read column by column (store.Reader.Columns: the fast path
// for studies of millions of trials), and only the usable trials on which
// a column has no value are read whole (TrialsByID); otherwise every trial
// is streamed whole (store.Reader.Scan).
func ReadStudy(ctx context.Context, s store.Reader, r StudyRead, sink StudySink) (int, error) {
	if len(r.Columns) > 0 {
		cols, err := s.Columns(ctx, r.Study, r.Columns, r.Query.Where)
		if err != nil {
			return 0, err
		}
		if len(cols.Sketches) == len(cols.IDs) {
			return len(cols.IDs), readColumns(ctx, s, r.Study, cols, sink)
		}
	}
	if sink.Grow != nil {
		sink.Grow(studySize(ctx, s, r.Study))
	}
	n := 0
	err := s.Scan(ctx, r.Study, r.Query, func(batch []trial.Trial) error {
		for i := range batch {
			sink.Trial(&batch[i])
		}
		n += len(batch)
		return nil
	})
	return n, err
}

// readColumns gives sink the trials of cols, those on which a column has
// no value (frontier.Missing: none or several measurements) read whole.
func readColumns(ctx context.Context, s store.Reader, study string, cols *store.Columns, sink StudySink) error {
	var whole []string
	for i, id := range cols.IDs {
		if _, unusable := cols.Problems[i]; !unusable && slices.ContainsFunc(cols.Values, func(col []float64) bool { return frontier.IsMissing(col[i]) }) {
			whole = append(whole, id)
		}
	}
	byID := map[string]*trial.Trial{}
	if len(whole) > 0 {
		ts, err := s.TrialsByID(ctx, study, whole)
		if err != nil {
			return err
		}
		for i := range ts {
			byID[ts[i].ID] = &ts[i]
		}
	}
	if sink.Grow != nil {
		sink.Grow(len(cols.IDs))
	}
	values := make([]float64, len(cols.Values))
	next := 0 // in whole
	for i, id := range cols.IDs {
		if next < len(whole) && whole[next] == id {
			next++
			t, ok := byID[id]
			if !ok {
				return fmt.Errorf("trial %s is no longer in the study", id)
			}
			sink.Trial(t)
			continue
		}
		for c, col := range cols.Values {
			values[c] = col[i]
		}
		sink.Sketch(id, &cols.Sketches[i], cols.Problems[i], values)
	}
	return nil
}

// studySize returns the number of trials of the study (0 when unknown),
// for a read to allocate once. It reads the study's blocks alone
// (Columns without specs or conditions): Studies would also scan every
// trial for the study's time range (1.7 CPU-s at 10⁶ trials).
func studySize(ctx context.Context, s store.Reader, study string) int {
	cols, err := s.Columns(ctx, study, nil, nil)
	if err != nil {
		return 0
	}
	return len(cols.IDs)
}
