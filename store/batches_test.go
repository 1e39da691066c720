package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/locate"
	"github.com/pareto-llm/pareto/trial"
)

// TestIngestBatches stores a source handed over in batches: what the
// batches add is one source, counted across batches (a trial of an
// earlier batch is present), in blocks whose trials are those stored,
// and an error of the reader after some batches leaves nothing of the
// source stored, the reader's error returned as it is.
func TestIngestBatches(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := openT(t, b.location(t))
			study := studyName(t)
			ctx := context.Background()
			if _, _, err := s.Ingest(ctx, study, "first", genTrials(0, 10)); err != nil {
				t.Fatal(err)
			}
			// 5 batches of 30 000: over a block (columnar.BlockTrials; not
			// in short mode), and the last batch repeats the first source
			// and the first batch.
			batch := 30_000
			if testing.Short() {
				batch = 3_000
			}
			fill := func(add func([]trial.Trial) error) error {
				for i := range 4 {
					if err := add(genTrials(10+i*batch, batch)); err != nil {
						return err
					}
				}
				return add(append(genTrials(0, 10), genTrials(10, 5)...))
			}
			added, present, err := s.IngestBatches(ctx, study, "big", fill)
			if err != nil || added != 4*batch || present != 15 {
				t.Fatalf("IngestBatches = %d added, %d present, %v; want %d, 15", added, present, err, 4*batch)
			}
			checks, err := s.Check(ctx, study)
			if err != nil || len(checks) != 1 {
				t.Fatalf("Check = %v, %v", checks, err)
			}
			c := checks[0]
			if c.Trials != 10+4*batch || len(c.Damage) != 0 || c.Blocks < 1+4*batch/columnar.BlockTrials {
				t.Errorf("Check: %d trials, %d blocks, damage %v; want %d trials in at least %d blocks, no damage",
					c.Trials, c.Blocks, c.Damage, 10+4*batch, 1+4*batch/columnar.BlockTrials)
			}
			got, err := s.Trials(ctx, study, store.Query{Slim: true})
			if err != nil || len(got) != 10+4*batch {
				t.Fatalf("Trials: %d, %v; want %d", len(got), err, 10+4*batch)
			}
			for i, tr := range got {
				if want := genTrial(i); tr.ID != trial.ComputeID(&want) {
					t.Fatalf("trial %d: ID %s; want that of genTrial(%d) (ingest order)", i, tr.ID, i)
				}
			}

			// Into a study with no trial: duplicates of the first and the
			// second batch in the third are present all the same.
			empty := study + "-empty"
			added, present, err = s.IngestBatches(ctx, empty, "dups", func(add func([]trial.Trial) error) error {
				for _, ts := range [][]trial.Trial{genTrials(0, 5000), genTrials(5000, 5000),
					append(genTrials(0, 10), genTrials(4990, 20)...), genTrials(10_000, 10)} {
					if err := add(ts); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil || added != 10_010 || present != 30 {
				t.Errorf("IngestBatches into a new study = %d added, %d present, %v; want 10010, 30", added, present, err)
			}

			// A reader's error after two batches: nothing of the source.
			bad := errors.New("bad.csv:9000:3: not a number")
			_, _, err = s.IngestBatches(ctx, study, "bad", func(add func([]trial.Trial) error) error {
				for i := range 2 {
					if err := add(genTrials(200_000+i*1000, 1000)); err != nil {
						return err
					}
				}
				return bad
			})
			if err != bad {
				t.Errorf("IngestBatches with a failing reader = %v; want its error as it is", err)
			}
			studies, err := s.Studies(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range studies {
				if st.Name == study && (st.Trials != 10+4*batch || st.Sources != 2) {
					t.Errorf("after the failed source: %d trials from %d sources; want %d from 2", st.Trials, st.Sources, 10+4*batch)
				}
			}
			if checks, err := s.Check(ctx, study); err != nil || len(checks[0].Damage) != 0 || checks[0].Trials != 10+4*batch {
				t.Errorf("Check after the failed source = %+v, %v", checks, err)
			}
		})
	}
}

// TestIngestNewStore ingests into a store without trials, where the
// SQLite writer builds trials_key at the end of the transaction: a
// reader's failure leaves the store as it was, index included; a later
// batch repeating trials of earlier ones finds them present (the index is
// built before it is looked up); the trials are read by ID, checked, and
// ingesting them again adds nothing.
func TestIngestNewStore(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.fresh(t))
			study := studyName(t)
			bad := errors.New("bad.csv:9000:3: not a number")
			_, _, err := s.IngestBatches(ctx, study, "bad", func(add func([]trial.Trial) error) error {
				if err := add(genTrials(0, 1000)); err != nil {
					return err
				}
				return bad
			})
			if err != bad {
				t.Fatalf("IngestBatches with a failing reader = %v; want its error as it is", err)
			}
			if b.name == locate.SQLite {
				if n, err := queryInt(ctx, s, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'trials_key'`); err != nil || n != 1 {
					t.Fatalf("trials_key after the failed ingest: %d, %v; want it there", n, err)
				}
			}
			batches := [][]trial.Trial{genTrials(0, 5000), genTrials(5000, 5000),
				append(genTrials(0, 10), genTrials(4990, 20)...), genTrials(10_000, 10)}
			fill := func(add func([]trial.Trial) error) error {
				for _, ts := range batches {
					if err := add(ts); err != nil {
						return err
					}
				}
				return nil
			}
			added, present, err := s.IngestBatches(ctx, study, "dups", fill)
			if err != nil || added != 10_010 || present != 30 {
				t.Fatalf("IngestBatches into a new store = %d added, %d present, %v; want 10010, 30", added, present, err)
			}
			if b.name == locate.SQLite {
				plan, err := queryInt(ctx, s, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'trials_key' AND sql = 'CREATE INDEX trials_key ON trials (study_id, hkey)'`)
				if err != nil || plan != 1 {
					t.Fatalf("trials_key after the ingest: %d, %v; want the schema's index", plan, err)
				}
			}
			var ids []string
			for _, i := range []int{0, 4999, 5000, 10_009} {
				tr := genTrial(i)
				ids = append(ids, trial.ComputeID(&tr))
			}
			byID, err := s.TrialsByID(ctx, study, ids)
			if err != nil || len(byID) != len(ids) {
				t.Fatalf("TrialsByID = %d trials, %v; want %d", len(byID), err, len(ids))
			}
			if checks, err := s.Check(ctx, study); err != nil || len(checks) != 1 || len(checks[0].Damage) != 0 || checks[0].Trials != 10_010 {
				t.Fatalf("Check = %+v, %v; want 10010 sound trials", checks, err)
			}
			if added, present, err := s.IngestBatches(ctx, study, "dups", fill); err != nil || added != 0 || present != 10_040 {
				t.Errorf("IngestBatches again = %d added, %d present, %v; want 0, 10040", added, present, err)
			}
		})
	}
}
