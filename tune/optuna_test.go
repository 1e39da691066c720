package tune_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/optunadriver"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// Issue 13's acceptance through the tuning loop: NSGA-II driven by
// package tune (a real SQLite store, every run a vLLM result file read
// through source and recorded, the gate consulted after every run, the
// baseline measured first) against Optuna's NSGAIISampler, on the
// simulator over examples/search/vllm.toml, 200 evaluations, population
// 50, 10 seeds, measured in one run. The setting is search's
// comparison's (search/optuna_test.go): objectives output throughput per
// GPU (max), p99 TTFT and p99 TPOT (min); the noise of trial i of seed s
// drawn from seed 1000·s + i on both sides; the hypervolume taken over
// the noise-free values of every configuration measured, reference 0
// tokens/s/GPU, 1000 ms, 100 ms. One run per configuration (--repeats 1,
// --max-runs 1): evaluations are configurations, as for Optuna.
const (
	loopBudget     = 200
	loopPopulation = 50
	loopSeeds      = 10
)

var (
	loopObjectives = []frontier.Objective{
		{Name: "output_token_throughput_per_gpu", Direction: frontier.Maximize},
		{Name: "ttft.p99", Direction: frontier.Minimize},
		{Name: "tpot.p99", Direction: frontier.Minimize},
	}
	loopRef = []float64{0, 1000, 100}
)

// simConfig is the simulator's configuration of c.
func simConfig(c search.Config) (simulate.Config, error) {
	cfg := simulate.DefaultConfig
	for k, v := range c {
		if err := cfg.Set(k, v.String()); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// truth is the noise-free objective values of c, minimised; ok is false
// when the simulator refuses it.
func truth(space *search.Space, c search.Config) ([]float64, bool) {
	if space.Check(c) != nil {
		return nil, false
	}
	cfg, err := simConfig(c)
	if err != nil {
		return nil, false
	}
	r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, 0)
	if err != nil {
		return nil, false
	}
	s, gpus := r.Steady, float64(cfg.GPUs())
	return []float64{-s.OutputThroughput / gpus, 1e3 * s.TTFT.P99(), 1e3 * s.TPOT.P99()}, true
}

func hypervolume(points [][]float64) float64 {
	var data []float64
	for _, p := range points {
		data = append(data, p...)
	}
	return frontier.Hypervolume(data, 3, loopRef)
}

// runLoop tunes one seed through package tune and returns the noise-free
// values of the configurations measured.
func runLoop(t *testing.T, space *search.Space, seed uint64) [][]float64 {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tu, err := tune.Open(ctx, st, "s", space, tune.Options{Sampler: search.NSGA2, Seed: seed, Population: loopPopulation,
		Objectives: loopObjectives, Repeats: 1, MaxRuns: 1}, loopBudget+1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tu.StartSession(ctx); err != nil {
		t.Fatal(err)
	}
	var found [][]float64
	for {
		r, err := tu.Next(ctx, "loop", 0)
		if errors.Is(err, tune.ErrBudget) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		noise := 1000*seed + uint64(r.Trial)
		if r.Role == tune.RoleBaseline {
			noise = 1000*seed + 999
		}
		cfg, err := simConfig(r.Config)
		var res simulate.Result
		if err == nil {
			res, err = simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, noise)
		}
		if err != nil {
			if err := tu.Fail(ctx, r, err.Error()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("run-%d.json", r.ID))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := simulate.WriteVLLM(f, &res); err != nil {
			t.Fatal(err)
		}
		f.Close()
		set, err := source.Trials(ctx, source.Spec{Paths: []string{path}, Load: ingest.LoadOptions{}})
		if err != nil || len(set.Trials) != 1 {
			t.Fatalf("reading %s: %v", path, err)
		}
		// The per-GPU throughput, as a harness that knows the GPUs writes it.
		tr := &set.Trials[0]
		tr.Measurements = append(tr.Measurements, trial.Measurement{Metric: "output_token_throughput_per_gpu",
			Value: res.OutputThroughput / float64(cfg.GPUs()), Unit: "tokens/s"})
		if _, err := tu.Record(ctx, r, path, set.Trials); err != nil {
			t.Fatal(err)
		}
		if r.Role == tune.RoleCandidate {
			if v, ok := truth(space, r.Config); ok {
				found = append(found, v)
			}
		}
	}
	s, err := tu.Summarize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status.Complete+s.Status.Failed != loopBudget+1 {
		t.Fatalf("seed %d: status %+v, want %d runs", seed, s.Status, loopBudget+1)
	}
	return found
}

// runOptuna tunes one seed with Optuna's NSGAIISampler in a Python
// process (optunadriver, the driver of search's comparison) and returns
// the noise-free values of what it measured.
func runOptuna(t *testing.T, python string, space *search.Space, seed uint64) [][]float64 {
	var found [][]float64
	opts := optunadriver.Options{Seed: seed, Budget: loopBudget, Population: loopPopulation, Objectives: loopObjectives}
	optunadriver.Run(t, python, space, opts, func(i int, c search.Config) ([]float64, bool) {
		cfg, err := simConfig(c)
		if space.Check(c) != nil || err != nil {
			return nil, false
		}
		r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, 1000*seed+uint64(i))
		if err != nil {
			return nil, false
		}
		if v, ok := truth(space, c); ok {
			found = append(found, v)
		}
		return []float64{r.OutputThroughput / float64(cfg.GPUs()), r.TTFT.P99, r.TPOT.P99}, true
	})
	return found
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// TestLoopCompareOptuna requires the loop's median hypervolume to be at
// least Optuna's; the figures go to the test log (go test ./tune -run
// LoopCompareOptuna -v) and docs/PERFORMANCE.md.
func TestLoopCompareOptuna(t *testing.T) {
	if testing.Short() {
		t.Skip("the comparison through the loop takes about a minute")
	}
	python := testenv.Optuna(t)
	space, err := search.ReadSpace(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var ours, theirs []float64
	for seed := uint64(1); seed <= loopSeeds; seed++ {
		ours = append(ours, hypervolume(runLoop(t, space, seed)))
		theirs = append(theirs, hypervolume(runOptuna(t, python, space, seed)))
	}
	t.Logf("%d seeds × %d evaluations, population %d, reference %v (%s)", loopSeeds, loopBudget, loopPopulation, loopRef, time.Since(start).Round(time.Second))
	t.Logf("tune loop (NSGA-II)  median hypervolume %.4g (min %.4g, max %.4g)", median(ours), slices.Min(ours), slices.Max(ours))
	t.Logf("optuna NSGAIISampler median hypervolume %.4g (min %.4g, max %.4g)", median(theirs), slices.Min(theirs), slices.Max(theirs))
	if median(ours) < median(theirs) {
		t.Errorf("the tune loop's median hypervolume %.4g < Optuna NSGAIISampler's %.4g", median(ours), median(theirs))
	}
}
