package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// studySkips are skips of one ingest: an unreadable file, a failed
// CloudAI run and a failed phase of another run.
func studySkips() []trial.Skip {
	return []trial.Skip{
		{Path: "/abs/runs/bad.json", Key: "runs/bad.json", Code: trial.SkipError, Reason: "bad.json:3:1: unexpected EOF"},
		{Path: "/abs/runs/tree/vllm/2", Key: "tree/vllm/2", Run: "vllm/2/0/", Case: "vllm", Iteration: 2,
			Code: "run_failed", Reason: "vllm-bench.log has no benchmark result block"},
		{Path: "/abs/runs/tree/aiperf/0", Key: "tree/aiperf/0", Run: "aiperf/0/0/warmup", Case: "aiperf", Phase: "warmup",
			Code: "run_failed", Reason: "no profile_export for phase warmup"},
	}
}

func TestSkips(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			record := func(skips []trial.Skip, wantAdded, wantPresent int) {
				t.Helper()
				added, present, err := s.RecordSkips(ctx, study, skips)
				if err != nil || added != wantAdded || present != wantPresent {
					t.Fatalf("RecordSkips = %d added, %d present, %v; want %d, %d", added, present, err, wantAdded, wantPresent)
				}
			}
			list := func(where ...string) []trial.Skip {
				t.Helper()
				conds, err := trial.ParseConditions(where)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Skips(ctx, study, conds)
				if err != nil {
					t.Fatalf("Skips(%q): %v", where, err)
				}
				return got
			}
			if _, err := s.Skips(ctx, study, nil); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("Skips of a missing study = %v; want ErrNoStudy", err)
			}
			want := studySkips()
			record(want, 3, 0)
			if diff := cmp.Diff(want, list()); diff != "" {
				t.Errorf("Skips (-want +got):\n%s", diff)
			}
			// Recorded again, from another working directory and with a
			// newer reason: nothing is added, the newest wins in place.
			again := studySkips()
			for i := range again {
				again[i].Path = "../elsewhere/" + again[i].Key
			}
			again[0].Reason = "bad.json:4:1: unexpected EOF"
			record(append(again, again[1]), 0, 3)
			if diff := cmp.Diff(again, list()); diff != "" {
				t.Errorf("Skips after recording again (-want +got):\n%s", diff)
			}
			for _, tt := range []struct {
				where []string
				want  []trial.Skip
			}{
				{[]string{"test_case=vllm"}, again[1:2]},
				{[]string{"iteration=2"}, again[1:2]},
				{[]string{"phase=warmup", "test_case=aiperf"}, again[2:3]},
				{[]string{"source=" + again[0].Path}, again[:1]},
				{[]string{"run!=x"}, again[1:]},
				{[]string{"engine=vllm"}, nil}, // a skip knows no engine
			} {
				if diff := cmp.Diff(tt.want, list(tt.where...), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Skips(%q) (-want +got):\n%s", tt.where, diff)
				}
			}

			// Trials of the file supersede its skip; trials of another
			// phase of a run under a skipped run's directory do not.
			fixed := genTrial(1)
			fixed.Source = trial.Source{Path: "runs/bad.json", Key: "runs/bad.json", Format: "vllm"}
			fixed.Finalize()
			other := genTrial(2)
			other.Source = trial.Source{Path: "x/tree/aiperf/0/profile.json", Key: "tree/aiperf/0/profile.json", Format: "aiperf-json"}
			other.SetLabel("run", "aiperf/0/0/profiling")
			other.Finalize()
			for _, tr := range []trial.Trial{fixed, other} {
				if _, _, err := s.Ingest(ctx, study, tr.Source.Path, []trial.Trial{tr}); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(again[1:], list()); diff != "" {
				t.Errorf("Skips after ingesting the fixed file (-want +got):\n%s", diff)
			}
			// Trials of the failed run, now rerun, supersede its skip.
			rerun := genTrial(3)
			rerun.Source = trial.Source{Path: "x/tree/vllm/2/vllm-bench.log", Key: "tree/vllm/2/vllm-bench.log", Format: "vllm"}
			rerun.SetLabel("run", "vllm/2/0/#1")
			rerun.Finalize()
			if _, _, err := s.Ingest(ctx, study, rerun.Source.Path, []trial.Trial{rerun}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(again[2:], list()); diff != "" {
				t.Errorf("Skips after ingesting the rerun (-want +got):\n%s", diff)
			}
			// Skips of another study are apart.
			if _, _, err := s.RecordSkips(ctx, study+"-other", studySkips()[:1]); err != nil {
				t.Fatal(err)
			}
			if got := list(); len(got) != 1 {
				t.Errorf("Skips = %d skips after recording in another study; want 1", len(got))
			}
		})
	}
}
