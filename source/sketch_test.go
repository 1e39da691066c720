package source

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
)

// sketchStudy returns trials that exercise what the rows of a query of
// repeats hold: repeats of server configurations under several
// workloads and environments, runs that record no configuration, table
// rows, trials named by their "id" or "run" label, files of one trial and
// of many, and unusable trials.
func sketchStudy(seed uint64) []trial.Trial {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []trial.Trial
	for i := range 400 {
		tp := []string{"1", "2", "4"}[rng.IntN(3)]
		seqs := strconv.Itoa(64 << rng.IntN(3))
		conc := float64(int(8) << rng.IntN(3))
		t := trial.Trial{
			Source:   trial.Source{Path: fmt.Sprintf("runs/batch%d.jsonl", i%5), Format: "vllm", Line: i + 1},
			Labels:   map[string]string{"engine": "vllm", "engine_version": []string{"0.8.5", "0.9.0"}[rng.IntN(2)]},
			Params:   map[string]string{"tensor_parallel_size": tp, "max_num_seqs": seqs, "seed": strconv.Itoa(i)},
			Workload: trial.Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: conc, Requests: 100},
			Measurements: []trial.Measurement{
				{Metric: "ttft", Dims: trial.StatDims("p99"), Value: 50 + 400*rng.Float64(), Unit: "ms"},
				{Metric: "output_token_throughput", Value: 1000 + 9000*rng.Float64(), Unit: "tokens/s"},
			},
		}
		switch i % 11 {
		case 1: // a client run that records no server configuration
			t.Params = map[string]string{"num_prompts": "100", "seed": strconv.Itoa(i)}
		case 2: // one file, one trial
			t.Source = trial.Source{Path: fmt.Sprintf("single/run%d.json", i), Format: "sglang"}
		case 3:
			t.Labels["id"] = "cfg-" + tp + "-" + seqs
		case 4:
			t.Labels["run"] = strconv.Itoa(i % 3)
		case 5:
			t.Source = trial.Source{Path: "mine.csv", Format: "table", Index: i}
		case 6:
			t.Problem = "the benchmark failed"
			t.Measurements = nil
		case 7:
			t.Measurements[0].Value = math.NaN()
		case 8: // usable, and no ttft column: read whole for the reason
			t.Measurements = t.Measurements[1:]
		}
		t.ID = trial.ComputeID(&t)
		out = append(out, t)
	}
	return out
}

// TestSketchesEqualTrials checks that the rows of a stored study read
// column by column with their sketches (the fast path of a query of
// repeats) give the result that the trials streamed give, point for
// point: names, values, spreads, members and reasons, on both stores,
// after relabelling changes repeat keys and names, and under conditions
// (ReadStudy reads whole the usable trials on which a column has no value).
func TestSketchesEqualTrials(t *testing.T) {
	ctx := context.Background()
	backends := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "pareto.db") },
		"postgres": func(t *testing.T) string { return testenv.PostgresDatabase(t) },
	}
	objs := []frontier.Objective{{Name: "ttft.p99", Direction: frontier.Minimize}, {Name: "output_token_throughput", Direction: frontier.Maximize}}
	slo, err := frontier.ParseSLO("ttft.p99<=300")
	if err != nil {
		t.Fatal(err)
	}
	queries := map[string]query.Query{
		"median":     {Objectives: objs, Aggregate: repeat.Median},
		"mean+slo":   {Objectives: objs, SLOs: []frontier.SLO{slo}, Aggregate: repeat.Mean},
		"median+slo": {Objectives: objs, SLOs: []frontier.SLO{slo}, Aggregate: repeat.Median},
	}
	wheres := map[string][]string{"all": nil, "engine_version": {"engine_version=0.9.0"}, "param": {"tensor_parallel_size>=2"}}
	for name, loc := range backends {
		t.Run(name, func(t *testing.T) {
			where := loc(t)
			s, err := store.Open(ctx, where)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			trials := sketchStudy(1)
			for start := 0; start < len(trials); start += 150 {
				if _, _, err := s.Ingest(ctx, "s", "batch"+strconv.Itoa(start), trials[start:min(start+150, len(trials))]); err != nil {
					t.Fatal(err)
				}
			}
			if _, _, err := s.Ingest(ctx, "other", "x", sketchStudy(2)[:50]); err != nil {
				t.Fatal(err)
			}
			// Relabelling moves trials to another scope (a new repeat key)
			// and renames others.
			var moved, named []string
			for i := 0; i < len(trials); i += 13 {
				moved = append(moved, trials[i].ID)
			}
			for i := 8; i < len(trials); i += 17 {
				named = append(named, trials[i].ID)
			}
			if _, err := s.SetLabels(ctx, "s", moved, map[string]string{"engine_version": "0.10.1"}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.SetLabels(ctx, "s", named, map[string]string{"id": "renamed"}); err != nil {
				t.Fatal(err)
			}
			checks, err := s.Check(ctx, "s")
			if err != nil || len(checks) != 1 || len(checks[0].Damage) > 0 {
				t.Fatalf("Check after relabelling = %+v, %v", checks, err)
			}
			for qn, q := range queries {
				for wn, w := range wheres {
					t.Run(qn+"/where="+wn, func(t *testing.T) {
						conds, err := trial.ParseConditions(w)
						if err != nil {
							t.Fatal(err)
						}
						spec := Spec{Store: where, Study: "s", Where: conds}
						specs, ok := columnSpecs(&q)
						if !ok || !q.Sketchable() {
							t.Fatal("the query cannot be read column by column")
						}
						cols, err := s.Columns(ctx, "s", specs, conds)
						if err != nil {
							t.Fatal(err)
						}
						if len(cols.Sketches) != len(cols.IDs) || len(cols.IDs) == 0 {
							t.Fatalf("columns of %d trials, %d sketches: not every trial has a sketch", len(cols.IDs), len(cols.Sketches))
						}
						fast := query.NewRows(&q)
						if err := addStudyRows(ctx, s, spec, &q, fast); err != nil {
							t.Fatal(err)
						}
						slow := query.NewRows(&q)
						stream := slow.StreamTrials()
						if _, err := ReadStudy(ctx, s, StudyRead{Study: "s", Query: store.Query{Where: conds}}, StudySink{Trial: stream.AddTrial}); err != nil {
							t.Fatal(err)
						}
						stream.Done()
						a, err := query.Run(&q, fast)
						if err != nil {
							t.Fatal(err)
						}
						b, err := query.Run(&q, slow)
						if err != nil {
							t.Fatal(err)
						}
						ga, gb := a.Groups(), b.Groups()
						if len(gb) == 0 || len(gb[0].Frontier) == 0 || len(gb[0].Invalid) == 0 {
							t.Fatalf("the study should have a frontier and invalid points: %+v", gb)
						}
						repeats := 0
						for _, p := range gb[0].Dominated {
							if len(p.Members) > 1 {
								repeats++
							}
						}
						if repeats == 0 {
							t.Fatal("no point aggregates repeats")
						}
						opts := []cmp.Option{cmpopts.EquateNaNs(), cmpopts.IgnoreFields(query.Group{}, "Analysis")}
						if diff := cmp.Diff(gb, ga, opts...); diff != "" {
							t.Errorf("sketches (+) differ from trials (-):\n%s", diff)
						}
					})
				}
			}
		})
	}
}
