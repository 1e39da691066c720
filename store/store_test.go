package store_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

func TestIngestIdempotent(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			trials := genTrials(0, 250)
			check := func(name string, ts []trial.Trial, wantAdded, wantPresent int) {
				t.Helper()
				added, present, err := s.Ingest(ctx, study, name, ts)
				if err != nil {
					t.Fatalf("Ingest(%s): %v", name, err)
				}
				if added != wantAdded || present != wantPresent {
					t.Errorf("Ingest(%s) = %d added, %d present; want %d, %d", name, added, present, wantAdded, wantPresent)
				}
			}
			check("a.json", trials, 250, 0)
			check("a.json", trials, 0, 250)
			check("b.json", append(genTrials(200, 100), genTrial(300)), 51, 50) // 200..249 present, 300 twice
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 301 {
				t.Errorf("Trials: %d trials; want 301", len(got))
			}
		})
	}
}

// roundTripTrials covers every field, including awkward values.
func roundTripTrials() []trial.Trial {
	ts := genTrials(0, 20)
	odd := trial.Trial{
		Source: trial.Source{Path: "/abs/odd/'quoted\" path ✓.jsonl", Format: "jsonl", FormatVersion: "v2", Line: 7, Index: 3,
			Key: "odd/'quoted\" path ✓.jsonl"},
		Labels:    map[string]string{"k,=}{": "v \"quoted\" ✓", "cuda": "12.4", "driver": "550.54", "host": "node-1"},
		Params:    map[string]string{"a.b.c": "", "empty": ""},
		Workload:  trial.Workload{RequestRate: math.Inf(1), MeanInputTokens: 1e-300, Users: -0.5, Requests: math.MaxInt64},
		Succeeded: 0, Failed: -1,
		Problem:  trial.ProblemNoSuccess,
		Warnings: []string{"first", "second, with comma"},
		Measurements: []trial.Measurement{
			{Metric: "custom metric", Dims: trial.Dims{{Key: "gpu", Value: "0"}, {Key: "phase", Value: "warm,up"}, {Key: "statistic", Value: "p99.9"}},
				Value: 1.0000000000000002, Unit: "tokens/s", Native: "n", SourceUnit: "tokens/sec"},
			{Metric: "zero", Value: 0},
			{Metric: "big", Value: math.MaxFloat64},
			{Metric: "tiny", Value: -math.SmallestNonzeroFloat64},
		},
	}
	odd.Finalize()
	noID := genTrial(99)
	noID.ID = ""
	// CloudAI trials: a layout shared by two runs, an executed TOML kept
	// byte for byte (a NUL, invalid UTF-8, CRLF), and a run whose GPU
	// counts are unknown.
	layout := &trial.Layout{Workload: "ai_dynamo", Engine: "vllm", Disaggregated: true, Nodes: 2,
		Roles: []trial.LayoutRole{
			{Name: "prefill", Instances: 2, NodesPerInstance: 1, Nodes: 1, TP: 4, PP: 1, DP: 1, CP: 1, GPUsPerInstance: 4, GPUIDs: []string{"0", "1"}},
			{Name: "decode", Instances: 1, NodesPerInstance: 1, Nodes: 1, TP: 8, PP: 1, DP: 2, CP: 1, DPAttention: true, GPUsPerInstance: 8},
		}, Warnings: []string{"shared nodes"}}
	cloud := make([]trial.Trial, 3)
	for i := range cloud {
		cloud[i] = genTrial(200 + i)
	}
	cloud[0].Deployment = &trial.Deployment{Layout: layout, AllocatedGPUs: 16, ServingGPUs: 16,
		ConfigPath: "results/case/0/test-run.toml", Config: "name = \"x\"\r\nsecret = \"a\x00b\xff\xfe\"\n"}
	cloud[1].Deployment = &trial.Deployment{Layout: layout, AllocatedGPUs: 16, ServingGPUs: 16,
		ConfigPath: "results/case/1/test-run.toml", Config: "name = \"y\"\n"}
	cloud[2].Deployment = &trial.Deployment{AllocatedGPUsUnknown: "gpus_per_node unknown",
		ServingGPUsUnknown: "cannot determine serving layout: unsupported test template \"nccl\"",
		ConfigPath:         "results/case2/0/test-run.toml"}
	// Sessions (schema 11): two runs of one session, one of another.
	cloud[0].Source.Session, cloud[1].Source.Session, cloud[2].Source.Session = "s1", "s1", "s2 ✓"
	return append(append(ts, odd, noID), cloud...)
}

func TestRoundTrip(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			in := roundTripTrials()
			if _, _, err := s.Ingest(ctx, study, "src", in); err != nil {
				t.Fatal(err)
			}
			for i := range in {
				if in[i].ID == "" {
					in[i].ID = trial.ComputeID(&in[i])
				}
			}
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(in, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Trials differ from what was ingested (-in +got):\n%s", diff)
			}
			for i := range got {
				if id := trial.ComputeID(&got[i]); id != got[i].ID {
					t.Errorf("trial %d: ComputeID = %s; want stored %s", i, id, got[i].ID)
				}
			}
			// Exported trials re-ingested into a new study are the same.
			study2 := study + "-copy"
			if added, _, err := s.Ingest(ctx, study2, "export", got); err != nil || added != len(got) {
				t.Fatalf("re-ingest: %d added, %v", added, err)
			}
			again, err := s.Trials(ctx, study2, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, again, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("re-ingested trials differ (-first +second):\n%s", diff)
			}
		})
	}
}

func TestAtomicPerSource(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := openT(t, b.location(t))
			study := studyName(t)
			if _, _, err := s.Ingest(context.Background(), study, "ok", genTrials(0, 10)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			setAfterBatch(s, cancel) // the first batch is written, then everything fails
			_, _, err := s.Ingest(ctx, study, "big", genTrials(10, 3000))
			if err == nil {
				t.Fatal("Ingest with a cancelled transaction succeeded")
			}
			setAfterBatch(s, nil)
			got, err := s.Trials(context.Background(), study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 10 {
				t.Errorf("after a failed source: %d trials; want the 10 of the first source", len(got))
			}
			if added, _, err := s.Ingest(context.Background(), study, "big", genTrials(10, 3000)); err != nil || added != 3000 {
				t.Errorf("retry: %d added, %v; want 3000", added, err)
			}
		})
	}
}

// setAfterBatch installs a hook run after every written batch.
func setAfterBatch(s store.Store, fn func()) {
	s.(interface{ SetAfterBatch(func()) }).SetAfterBatch(fn)
}

func TestQuery(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			all := genTrials(0, 120)
			if _, _, err := s.Ingest(ctx, study, "src", all); err != nil {
				t.Fatal(err)
			}
			for _, tt := range []struct {
				where []string
				want  int
			}{
				{nil, 120},
				{[]string{"engine_version=0.8.5"}, 40},
				{[]string{"engine=vllm", "engine_version=0.8.5"}, 20},
				{[]string{"concurrency>=16"}, 120 * 5 / 9},
				{[]string{"tensor_parallel_size!=1"}, 90},
				{[]string{"params.seed<10"}, 10},
				{[]string{"label.engine=sglang"}, 60},
				{[]string{"nope=1"}, 0},
			} {
				conds, err := trial.ParseConditions(tt.where)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Trials(ctx, study, store.Query{Where: conds})
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				for i := range all {
					if trial.MatchAll(&all[i], conds) {
						want++
					}
				}
				if len(got) != want || (tt.want != want && tt.where != nil && tt.where[0] != "concurrency>=16") {
					t.Errorf("where %v: %d trials; want %d (expected %d)", tt.where, len(got), want, tt.want)
				}
				for i := range got {
					if len(got[i].Measurements) != 6 {
						t.Errorf("where %v: trial %s has %d measurements; want 6", tt.where, got[i].ID, len(got[i].Measurements))
					}
				}
			}
			got, err := s.Trials(ctx, study, store.Query{Metrics: []string{trial.TTFT, "request_throughput"}, Limit: 7})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 7 || len(got[6].Measurements) != 3 {
				t.Errorf("Metrics+Limit: %d trials, last with %d measurements; want 7 with 3", len(got), len(got[len(got)-1].Measurements))
			}
			if _, err := s.Trials(ctx, study+"-missing", store.Query{}); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("Trials(missing study) = %v; want ErrNoStudy", err)
			}
			studies, err := s.Studies(ctx)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, st := range studies {
				if st.Name == study {
					found = true
					if st.Trials != 120 || st.Sources != 1 || st.First.IsZero() || st.Last.Before(st.First) {
						t.Errorf("Studies: %+v; want 120 trials, 1 source, a time range", st)
					}
				}
			}
			if !found {
				t.Errorf("Studies does not list %s", study)
			}
		})
	}
}

// TestSessions: the session a trial is recorded in is read back and
// selects it (--where session=NAME); recording the same trial again in
// another session keeps its first session.
func TestSessions(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			first, second := genTrials(0, 3), genTrials(3, 2)
			for i := range first {
				first[i].Source.Session = "monday"
			}
			for i := range second {
				second[i].Source.Session = "tuesday"
			}
			if _, _, err := s.Ingest(ctx, study, "a", first); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Ingest(ctx, study, "b", second); err != nil {
				t.Fatal(err)
			}
			again := genTrials(0, 1)
			again[0].Source.Session = "tuesday"
			if added, present, err := s.Ingest(ctx, study, "a", again); err != nil || added != 0 || present != 1 {
				t.Fatalf("re-ingest = %d added, %d present, %v; want 0, 1", added, present, err)
			}
			for _, tt := range []struct {
				where string
				want  int
			}{{"session=monday", 3}, {"session=tuesday", 2}, {"session!=monday", 2}, {"session=wednesday", 0}} {
				c, err := trial.ParseCondition(tt.where)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Trials(ctx, study, store.Query{Where: []store.Condition{c}})
				if err != nil || len(got) != tt.want {
					t.Errorf("Trials(%s) = %d trials, %v; want %d", tt.where, len(got), err, tt.want)
				}
				for _, g := range got {
					if !c.Match(&g) {
						t.Errorf("Trials(%s) returned %s of session %q", tt.where, g.ID, g.Source.Session)
					}
				}
			}
		})
	}
}
