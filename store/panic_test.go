package store_test

import (
	"context"
	"testing"

	"github.com/pareto-llm/pareto/store"
)

// TestAtomicPerSourcePanic checks that a panic while a source is being
// written (a bug, or SQLite running out of memory on a huge value) commits
// nothing of it, and that the store goes on: the caller (pareto ingest)
// recovers it, reports the source and stores the next ones.
func TestAtomicPerSourcePanic(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := openT(t, b.location(t))
			study := studyName(t)
			ctx := context.Background()
			if _, _, err := s.Ingest(ctx, study, "ok", genTrials(0, 10)); err != nil {
				t.Fatal(err)
			}
			setAfterBatch(s, func() { panic("injected") }) // the first batch is written, then the writer panics
			recovered := func() (p any) {
				defer func() { p = recover() }()
				s.Ingest(ctx, study, "big", genTrials(10, 3000))
				return nil
			}()
			setAfterBatch(s, nil)
			if recovered != "injected" {
				t.Fatalf("Ingest: recovered %v; want the injected panic", recovered)
			}
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 10 {
				t.Errorf("after a panic while writing a source: %d trials; want the 10 of the first source", len(got))
			}
			if added, _, err := s.Ingest(ctx, study, "next", genTrials(10, 3000)); err != nil || added != 3000 {
				t.Errorf("the next source: %d added, %v; want 3000", added, err)
			}
		})
	}
}
