package store_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// columnsTrials returns generated trials plus the edge cases of Columns:
// a trial with a Problem, one without the metric, one with it twice, one
// with a NaN value and one with an extra dimension besides the plain value.
func columnsTrials() []trial.Trial {
	ts := genTrials(0, 300)
	edge := genTrials(1000, 5)
	edge[0].Problem = trial.ProblemNoSuccess
	var kept []trial.Measurement
	for _, m := range edge[1].Measurements {
		if m.Metric != trial.TTFT {
			kept = append(kept, m)
		}
	}
	edge[1].Measurements = kept // no ttft
	edge[2].Measurements = append(edge[2].Measurements, trial.Measurement{Metric: trial.TTFT,
		Dims: trial.StatDims("p99"), Value: 1, Unit: trial.UnitMs}) // ttft.p99 twice: ambiguous
	for i := range edge[3].Measurements {
		if edge[3].Measurements[i].Metric == trial.OutputTokenThroughput {
			edge[3].Measurements[i].Value = math.NaN()
		}
	}
	edge[4].Measurements = append(edge[4].Measurements, trial.Measurement{Metric: trial.TTFT,
		Dims: trial.StatDims("p99").With(trial.DimPhase, "warmup"), Value: 1e6, Unit: trial.UnitMs})
	for i := range edge {
		edge[i].Sort()
		edge[i].ID = ""
	}
	return append(ts, edge...)
}

// TestColumns compares Columns with selectors resolved on the trials that
// Trials returns, with and without conditions of both kinds.
func TestColumns(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			if _, _, err := s.Ingest(ctx, study, "a", columnsTrials()); err != nil {
				t.Fatal(err)
			}
			// another study in between: its rows fall in the range of row ids
			if _, _, err := s.Ingest(ctx, study+"-other", "o", genTrials(5000, 50)); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Ingest(ctx, study, "b", genTrials(2000, 50)); err != nil {
				t.Fatal(err)
			}
			selectors := []string{"ttft.p99", trial.OutputTokenThroughput, "tpot.p50", "ttft.p99", "nosuch.p50"}
			var specs []store.ColumnSpec
			for _, name := range selectors {
				sel, err := trial.ParseSelector(name)
				if err != nil {
					t.Fatal(err)
				}
				var dims trial.Dims
				if sel.Statistic != "" {
					dims = trial.StatDims(sel.Statistic)
				}
				specs = append(specs, store.ColumnSpec{Metric: sel.Metric, Dims: dims})
			}
			for _, where := range [][]string{nil, {"engine=vllm"}, {"engine!=sglang", "gpu>=H1"},
				{"tensor_parallel_size=2"}, {"engine=vllm", "engine_version>0.8", "max_num_seqs<=128"}, {"host=x"}} {
				conds, err := trial.ParseConditions(where)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Columns(ctx, study, specs, conds)
				if err != nil {
					t.Fatalf("%v: %v", where, err)
				}
				ts, err := s.Trials(ctx, study, store.Query{Where: conds})
				if err != nil {
					t.Fatal(err)
				}
				checkColumns(t, where, selectors, ts, got)
			}
			if _, err := s.Columns(ctx, "no such study", specs, nil); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("Columns(missing study) = %v; want ErrNoStudy", err)
			}
		})
	}
}

func checkColumns(t *testing.T, where, selectors []string, ts []trial.Trial, got *store.Columns) {
	t.Helper()
	if len(got.IDs) != len(ts) {
		t.Fatalf("%v: %d trials; want %d", where, len(got.IDs), len(ts))
	}
	for i := range ts {
		if got.IDs[i] != ts[i].ID {
			t.Fatalf("%v: trial %d is %s; want %s", where, i, got.IDs[i], ts[i].ID)
		}
		if p := got.Problems[i]; p != ts[i].Problem {
			t.Errorf("%v: trial %d: problem %q; want %q", where, i, p, ts[i].Problem)
		}
	}
	if len(got.Problems) > 0 && len(where) == 0 && len(got.Problems) != 1 {
		t.Errorf("problems: %v", got.Problems)
	}
	for k, name := range selectors {
		sel, _ := trial.ParseSelector(name)
		for i := range ts {
			want := frontier.Missing
			if m, err := sel.Resolve(&ts[i]); err == nil {
				want = m.Value
			}
			g := got.Values[k][i]
			same := frontier.IsMissing(g) == frontier.IsMissing(want) && (g == want || math.IsNaN(g) && math.IsNaN(want))
			if !same {
				t.Errorf("%v: %s of trial %d (%s) = %v (missing %v); want %v (missing %v)", where, name, i, ts[i].ID,
					g, frontier.IsMissing(g), want, frontier.IsMissing(want))
			}
		}
	}
}

func TestColumnsEmpty(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			if err := s.CreateStudy(ctx, study); err != nil {
				t.Fatal(err)
			}
			specs := []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}
			got, err := s.Columns(ctx, study, specs, nil)
			if err != nil || len(got.IDs) != 0 || len(got.Values) != 1 || len(got.Values[0]) != 0 {
				t.Errorf("empty study: %+v, %v", got, err)
			}
			if _, _, err := s.Ingest(ctx, study, "a", genTrials(0, 3)); err != nil {
				t.Fatal(err)
			}
			got, err = s.Columns(ctx, study, nil, nil)
			if err != nil || len(got.IDs) != 3 || len(got.Values) != 0 {
				t.Errorf("no specs: %+v, %v", got, err)
			}
			if s := specs[0].String(); s != "ttft.p99" {
				t.Errorf("spec String = %q", s)
			}
		})
	}
}
