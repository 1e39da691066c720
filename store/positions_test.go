package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// TestIngestRepeats stores 20 runs whose numbers agree, in 20 files and
// as 20 records of one file: 20 trials each time, and none added when the
// same files are ingested again, even opened under other paths.
func TestIngestRepeats(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			run := genTrial(1)
			files := make([]trial.Trial, 20)
			records := make([]trial.Trial, 20)
			for i := range files {
				files[i], records[i] = run, run
				files[i].Source.Path, files[i].Source.Index = fmt.Sprintf("rep/run%02d.json", i), 0
				records[i].Source.Path, records[i].Source.Index = "rep/runs.jsonl", i
				files[i].ID, records[i].ID = "", "" // Ingest computes them
			}
			ingest := func(name string, ts []trial.Trial, wantAdded int) {
				t.Helper()
				added, present, err := s.Ingest(ctx, study, name, ts)
				if err != nil || added != wantAdded || present != len(ts)-wantAdded {
					t.Errorf("Ingest(%s) = %d added, %d present, %v; want %d, %d", name, added, present, err,
						wantAdded, len(ts)-wantAdded)
				}
			}
			for i := range files {
				ingest(files[i].Source.Path, files[i:i+1], 1)
			}
			ingest("rep/runs.jsonl", records, 20)
			for i := range files {
				ingest(files[i].Source.Path, files[i:i+1], 0)
			}
			ingest("rep/runs.jsonl", records, 0)
			// The same files opened from elsewhere: the key names them.
			moved := slices.Clone(records)
			for i := range moved {
				moved[i].Source.Path, moved[i].Source.Key = "/elsewhere/rep/runs.jsonl", "rep/runs.jsonl"
			}
			ingest("/elsewhere/rep/runs.jsonl", moved, 0)
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			ids := map[string]bool{}
			for i := range got {
				ids[got[i].ID] = true
			}
			if len(got) != 40 || len(ids) != 40 {
				t.Errorf("%d trials, %d IDs; want 40 of each", len(got), len(ids))
			}
		})
	}
}
