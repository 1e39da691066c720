package tune_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
)

// TestWorkers has 3 workers, each with its own connection to the store,
// share one study through the Tuning API (what issue 16's workers build
// on): the budget's runs end exactly once, each complete run recorded its
// trial once, and the sampler was told every configuration once.
func TestWorkers(t *testing.T) {
	for _, b := range []struct {
		name string
		loc  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") }},
		{"postgres", freshPostgres},
	} {
		t.Run(b.name, func(t *testing.T) { workers(t, b.loc(t)) })
	}
}

func workers(t *testing.T, loc string) {
	ctx := context.Background()
	space, err := search.ParseSpace("space.toml", []byte(testSpace))
	if err != nil {
		t.Fatal(err)
	}
	const budget = 30
	opts := tune.Options{Sampler: search.NSGA2, Seed: 5, Population: 6, Objectives: loopObjectives[1:], Repeats: 2, MaxRuns: 3,
		SpaceFile: "space.toml", SpaceText: testSpace}
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- worker(ctx, loc, dir, fmt.Sprintf("w%d", w), space, opts, budget, w == 0)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.(tunequeue.Queue).TuneStatus(ctx, "s")
	if err != nil || s.Complete+s.Failed != budget || s.Queued+s.Running != 0 {
		t.Fatalf("status %+v, %v", s, err)
	}
	trials, err := st.Trials(ctx, "s", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	perRun := map[string]int{}
	for _, tr := range trials {
		perRun[tr.Labels[tune.LabelRun]]++
	}
	if len(perRun) != s.Complete || len(trials) != s.Complete {
		t.Errorf("%d trials of %d runs recorded, %d runs complete", len(trials), len(perRun), s.Complete)
	}
	sum, err := openSummary(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range sum.Trials {
		if tr.State == "running" {
			t.Errorf("configuration %d still running in the sampler", tr.Number)
		}
	}
}

// worker runs the study's runs with the simulator in-process until the
// budget is spent.
func worker(ctx context.Context, loc, dir, name string, space *search.Space, opts tune.Options, budget int, first bool) error {
	st, err := store.Open(ctx, loc)
	if err != nil {
		return err
	}
	defer st.Close()
	tu, err := tune.Open(ctx, st, "s", space, opts, budget)
	if err != nil {
		return err
	}
	if first {
		if _, err := tu.StartSession(ctx); err != nil {
			return err
		}
	}
	for {
		r, err := tu.Next(ctx, name, time.Minute)
		if errors.Is(err, tune.ErrBudget) {
			return nil
		}
		if errors.Is(err, tune.ErrPending) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		cfg, err := simConfig(r.Config)
		var res simulate.Result
		if err == nil {
			res, err = simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, uint64(r.ID))
		}
		if err != nil {
			if err := tu.Fail(ctx, r, err.Error()); err != nil {
				return err
			}
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("run-%d.json", r.ID))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		simulate.WriteVLLM(f, &res)
		f.Close()
		set, err := source.Trials(ctx, source.Spec{Paths: []string{path}, Load: ingest.LoadOptions{}})
		if err != nil {
			return err
		}
		if _, err := tu.Record(ctx, r, path, set.Trials); err != nil {
			return fmt.Errorf("%s: recording run %d: %w", name, r.ID, err)
		}
	}
}
