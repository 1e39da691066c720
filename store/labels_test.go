package store_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// TestSetLabels applies a sequence of SetLabels calls and checks, after
// each, the count, every stored trial against a model, and the filters of
// Trials and Columns (in SQL on environment columns and in Go).
func TestSetLabels(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study, other := studyName(t), studyName(t)+"-other"
			model := genTrials(0, 30)
			if _, _, err := s.Ingest(ctx, study, "a", model); err != nil {
				t.Fatal(err)
			}
			// The same trials in another study, and one only there.
			if _, _, err := s.Ingest(ctx, other, "o", append(genTrials(0, 30), genTrial(500))); err != nil {
				t.Fatal(err)
			}
			otherBefore, err := s.Trials(ctx, other, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(model))
			for i := range model {
				ids[i] = model[i].ID
			}
			only := genTrial(500).ID
			for _, tt := range []struct {
				name   string
				ids    []string
				labels map[string]string
				want   int
			}{
				{"set", ids[:10], map[string]string{"gate": "admitted"}, 10},
				{"re-set", ids[:10], map[string]string{"gate": "admitted"}, 10},
				{"unknown ids", []string{ids[0], "nosuch", "", ids[1], ids[0], only, ids[2]}, map[string]string{"gate": "admitted", "round": "2"}, 3},
				{"none", nil, map[string]string{"gate": "admitted"}, 0},
				{"no labels", ids[20:25], nil, 5},
				{"environment", ids[10:14], map[string]string{trial.LabelEngine: "trt-llm", "cuda": "12.8"}, 4},
				{"remove", ids[12:14], map[string]string{trial.LabelEngine: "", "gate": "", "cuda_version": "12.9"}, 2},
				{"all", ids, map[string]string{"batch": "x"}, 30},
			} {
				n, err := s.SetLabels(ctx, study, tt.ids, tt.labels)
				if err != nil {
					t.Fatalf("%s: SetLabels: %v", tt.name, err)
				}
				if n != tt.want {
					t.Errorf("%s: SetLabels = %d; want %d", tt.name, n, tt.want)
				}
				applyLabels(model, tt.ids, tt.labels)
				checkStoredLabels(t, s, study, tt.name, model)
			}
			// The other study is untouched.
			otherAfter, err := s.Trials(ctx, other, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(otherBefore, otherAfter, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("other study changed (-before +after):\n%s", diff)
			}
			// IDs are the ingest-time hashes: re-ingesting adds nothing.
			if added, present, err := s.Ingest(ctx, study, "a", genTrials(0, 30)); err != nil || added != 0 || present != 30 {
				t.Errorf("re-ingest after SetLabels: %d added, %d present, %v; want 0, 30", added, present, err)
			}
			if _, err := s.SetLabels(ctx, study+"-missing", ids, map[string]string{"a": "b"}); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("SetLabels(missing study) = %v; want ErrNoStudy", err)
			}
			if _, err := s.SetLabels(ctx, study, ids, map[string]string{"": "b"}); err == nil {
				t.Error("SetLabels with an empty key succeeded")
			}
		})
	}
}

// applyLabels is the model of SetLabels.
func applyLabels(ts []trial.Trial, ids []string, labels map[string]string) {
	for i := range ts {
		if !slices.Contains(ids, ts[i].ID) {
			continue
		}
		l := maps.Clone(ts[i].Labels)
		for k, v := range labels {
			if v == "" {
				delete(l, k)
			} else {
				l[k] = v
			}
		}
		ts[i].Labels = l
	}
}

// checkStoredLabels compares the stored study with the model, whole and through
// filters.
func checkStoredLabels(t *testing.T, s store.Store, study, step string, model []trial.Trial) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Trials(ctx, study, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(model, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("%s: stored trials differ from the model (-want +got):\n%s", step, diff)
	}
	specs := []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}
	for _, where := range [][]string{{"gate=admitted"}, {"label.gate=admitted"}, {"gate!=admitted"},
		{"engine=trt-llm"}, {"engine!=vllm"}, {"cuda=12.8"}, {"cuda>=12.9"}, {"cuda=12.9"},
		{"engine=vllm", "gate=admitted"}, {"round=2"}, {"batch=x", "engine_version=0.8.5"}} {
		conds, err := trial.ParseConditions(where)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range model {
			if trial.MatchAll(&model[i], conds) {
				want = append(want, model[i].ID)
			}
		}
		ts, err := s.Trials(ctx, study, store.Query{Where: conds})
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []string
		for i := range ts {
			gotIDs = append(gotIDs, ts[i].ID)
		}
		if !slices.Equal(gotIDs, want) {
			t.Errorf("%s: Trials where %v = %v; want %v", step, where, gotIDs, want)
		}
		cols, err := s.Columns(ctx, study, specs, conds)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cols.IDs, want) && len(cols.IDs)+len(want) > 0 {
			t.Errorf("%s: Columns where %v = %v; want %v", step, where, cols.IDs, want)
		}
	}
}

// TestSetLabelsConcurrent runs SetLabels on overlapping trials, in
// different orders, alongside an ingest into the same study: every call
// succeeds and every label lands.
func TestSetLabelsConcurrent(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			ts := genTrials(0, 200)
			if _, _, err := s.Ingest(ctx, study, "a", ts); err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(ts))
			for i := range ts {
				ids[i] = ts[i].ID
			}
			const writers = 4
			errs := make(chan error, writers+1)
			for w := range writers {
				go func() {
					mine := slices.Clone(ids)
					if w%2 == 1 {
						slices.Reverse(mine)
					}
					for round := range 5 {
						n, err := s.SetLabels(ctx, study, mine, map[string]string{"w" + codec.Itoa(w): codec.Itoa(round)})
						if err == nil && n != len(ids) {
							err = errors.New("SetLabels = " + codec.Itoa(n) + "; want " + codec.Itoa(len(ids)))
						}
						if err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			go func() {
				_, _, err := s.Ingest(ctx, study, "b", genTrials(200, 500))
				errs <- err
			}()
			for range writers + 1 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 700 {
				t.Errorf("%d trials; want 700", len(got))
			}
			for i := range got[:200] {
				for w := range writers {
					if v := got[i].Labels["w"+codec.Itoa(w)]; v != "4" {
						t.Fatalf("trial %s: label w%d = %q; want 4", got[i].ID, w, v)
					}
				}
				if got[i].ID != ids[i] {
					t.Fatalf("trial %d: ID %s; want %s", i, got[i].ID, ids[i])
				}
			}
		})
	}
}
