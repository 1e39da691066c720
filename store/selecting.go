package store

import (
	"context"

	"github.com/pareto-llm/pareto/trial"
)

// Selecting is a Store that also answers Select, the read in trial types
// only that the decision library asks of a store (decide.Store), so that
// decide.RunGate(ctx, store.Selecting{Store: st}, req) runs on any store
// while decide links no database driver.
type Selecting struct{ Store }

// Select returns the study's trials that satisfy every condition of where,
// in ingest order; a study that does not exist is ErrNoStudy.
func (s Selecting) Select(ctx context.Context, study string, where []trial.Condition) ([]trial.Trial, error) {
	return s.Trials(ctx, study, Query{Where: where})
}

// ReaderSelecting is a Reader that answers Select (decide.Selector), for
// the questions that only read, such as decide.RunArchive on a store
// opened with OpenReadOnly.
type ReaderSelecting struct{ Reader }

// Select returns the study's trials that satisfy every condition of where,
// in ingest order; a study that does not exist is ErrNoStudy.
func (s ReaderSelecting) Select(ctx context.Context, study string, where []trial.Condition) ([]trial.Trial, error) {
	return s.Trials(ctx, study, Query{Where: where})
}
