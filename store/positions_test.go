package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jackc/pgx/v5"

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
			got, err := s.Trials(ctx, study, Query{})
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

// TestUpgradePositions stores trials the way schema version 5 did (IDs
// that hash the content alone), upgrades, and checks the IDs and keys of
// every kind of stored trial, the blocks' copies of the IDs, and that the
// same results read again are present while the repeat schema version 5
// lost is added.
func TestUpgradePositions(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			old, err := openAt(ctx, loc, 5)
			if err != nil {
				t.Fatal(err)
			}
			at := func(i int, path string) trial.Trial {
				tr := genTrial(i)
				tr.Source.Path, tr.Source.Index = path, i%3
				tr.ID = contentID(&tr)
				return tr
			}
			plain := at(1, "runs/seed1/a.json")
			custom := at(2, "runs/custom.json")
			custom.ID = "custom-id"
			cloud := at(3, "../results/scenario_X/case1/0/f.json")
			cloud.Labels = maps.Clone(cloud.Labels)
			cloud.Labels[trial.LabelTestCase], cloud.Labels[trial.LabelIteration] = "case1", "0"
			cloud.ID = contentID(&cloud)
			gated := at(4, "runs/gated.json") // its ID is of the labels before pareto gate's
			gated.Labels = maps.Clone(gated.Labels)
			gated.Labels["gate"] = "admitted"
			abs := at(5, "/abs/x.json")
			merge := at(6, "runs/f.json") // its new ID is taken by taker
			taker := at(7, "runs/taker.json")
			taker.ID = trial.ComputeID(&merge)
			last := at(8, "runs/seed1/b.json")
			stored := []trial.Trial{plain, custom, cloud, gated, abs, merge, taker, last}
			if err := insertV5(ctx, old, "s", stored[:4]); err != nil {
				t.Fatal(err)
			}
			if err := insertV5(ctx, old, "o", stored[:1]); err != nil {
				t.Fatal(err)
			}
			if err := insertV5(ctx, old, "s", stored[4:]); err != nil {
				t.Fatal(err)
			}
			old.Close()
			s := openT(t, loc)

			want := slices.Clone(stored)
			want[0].ID = trial.ComputeID(&plain)
			want[2].Source.Key = "scenario_X/case1/0/f.json"
			want[2].ID = trial.ComputeID(&want[2])
			ingested := gated
			ingested.Labels = maps.Clone(gated.Labels)
			delete(ingested.Labels, "gate")
			want[3].ID = trial.ComputeID(&ingested)
			want[4].ID = trial.ComputeID(&abs)
			want[7].ID = trial.ComputeID(&last)
			for _, i := range []int{1, 5, 6} {
				if want[i].ID != stored[i].ID {
					t.Fatalf("trial %d: want its ID kept", i)
				}
			}
			checkPositions(t, s, "s", want)
			checkPositions(t, s, "o", want[:1])

			// The same results read again are present; the repeat with the
			// same numbers in another file, which schema version 5 counted
			// as present, is added.
			again := []trial.Trial{plain, cloud, ingested, abs, last}
			again[1].Source.Path, again[1].Source.Key = "/new/place/scenario_X/case1/0/f.json", "scenario_X/case1/0/f.json"
			repeat := plain
			repeat.Source.Path = "runs/seed2/a.json"
			for i := range again {
				again[i].ID = ""
			}
			repeat.ID = ""
			if added, present, err := s.Ingest(ctx, "s", "again", again); err != nil || added != 0 || present != len(again) {
				t.Errorf("read again = %d added, %d present, %v; want 0, %d", added, present, err, len(again))
			}
			if added, _, err := s.Ingest(ctx, "s", "repeat", []trial.Trial{repeat}); err != nil || added != 1 {
				t.Errorf("the lost repeat = %d added, %v; want 1", added, err)
			}
			if n, err := s.SetLabels(ctx, "s", []string{want[0].ID, want[2].ID, want[5].ID}, map[string]string{"x": "1"}); err != nil || n != 3 {
				t.Errorf("SetLabels by the new IDs = %d, %v; want 3", n, err)
			}
		})
	}
}

// checkPositions compares the study's trials with want, and the IDs
// Columns reads from the blocks with theirs.
func checkPositions(t *testing.T, s Store, study string, want []trial.Trial) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Trials(ctx, study, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("%s after upgrade (-want +got):\n%s", study, diff)
	}
	cols, err := s.Columns(ctx, study, []ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range want {
		ids = append(ids, want[i].ID)
	}
	if !slices.Equal(cols.IDs, ids) {
		t.Errorf("%s: Columns IDs %q; want %q", study, cols.IDs, ids)
	}
}

// insertV5 writes ts into the study as schema version 5 stores them (IDs
// as given), in one block.
func insertV5(ctx context.Context, s Store, study string, ts []trial.Trial) error {
	return withFillTx(ctx, s, func(tx fillTx) error {
		pg := tx.numbered()
		if err := tx.exec(`INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
			study, "2026-01-02T03:04:05Z"); err != nil {
			return err
		}
		studyID, err := tx.queryInt(`SELECT id FROM studies WHERE name = ?`, study)
		if err != nil {
			return err
		}
		b := newBlock()
		for i := range ts {
			t := &ts[i]
			dims := make([]string, len(t.Measurements))
			for j, m := range t.Measurements {
				dims[j] = encodeDims(m.Dims)
			}
			w, e := &t.Workload, env(t)
			cols, vals, jsonb := "hkey, ingested_at, ", "?, ?, ", ""
			args := []any{studyID, t.ID, hashKey(t.ID), "2026-01-02T03:04:06Z"}
			if pg {
				cols, vals, jsonb = "", "", "::jsonb"
				args = []any{studyID, t.ID}
			}
			args = append(args, t.Source.Path, t.Source.Format, t.Source.FormatVersion, int64(t.Source.Line),
				int64(t.Source.Index), (&jsonEncoder{}).mapString(t.Labels), (&jsonEncoder{}).mapString(t.Params),
				nullable(w.InputTokens), nullable(w.OutputTokens), nullable(w.MeanInputTokens), nullable(w.MeanOutputTokens),
				nullable(w.Concurrency), nullable(w.AchievedConcurrency), nullable(w.RequestRate), nullable(w.Users),
				w.Requests, t.Succeeded, t.Failed, t.Problem, encodeList(t.Warnings), e[0], e[1], e[2], e[3], e[4], e[5],
				packMeasurements([]byte{}, t.Measurements, dims))
			row, err := tx.queryInt(fmt.Sprintf(`INSERT INTO trials (study_id, hash, %ssource_path, source_format,
				source_format_version, source_line, source_index, labels, params, input_tokens, output_tokens,
				mean_input_tokens, mean_output_tokens, concurrency, achieved_concurrency, request_rate, users, requests,
				succeeded, failed, problem, warnings, engine, engine_version, cuda, driver, gpu, host, measurements)
				VALUES (?, ?, %s?, ?, ?, ?, ?, ?%s, ?%s, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?%s, ?, ?, ?, ?, ?, ?, ?)
				RETURNING id`, cols, vals, jsonb, jsonb, jsonb), args...)
			if err != nil {
				return err
			}
			b.add(row, t.ID, t.Problem, t.Measurements, dims)
		}
		return writeBlockAt(tx, studyID, b, false)
	})
}

// withFillTx runs fn in a transaction of the store's database.
func withFillTx(ctx context.Context, s Store, fn func(fillTx) error) error {
	switch s := s.(type) {
	case *sqliteStore:
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := fn(sqlFillTx{tx}); err != nil {
			return err
		}
		return tx.Commit()
	case *pgStore:
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(pgFillTx{ctx, tx}) })
	}
	return fmt.Errorf("unknown store %T", s)
}
