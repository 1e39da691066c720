package search_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/optunadriver"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/simulate"
)

// The comparison with Optuna's NSGAIISampler (issue 13's acceptance):
// both samplers tune the simulator over examples/search/vllm.toml with the
// same budget, population, noise and reference point, for the same seeds,
// and the median hypervolume of what each found is compared.
//
// Objectives: output throughput per GPU (max; the run's output throughput
// over tp·pp·dp), p99 TTFT and p99 TPOT (min), as a run reports them (noisy: simulate.DefaultNoise, the noise of trial i of
// seed s drawn from seed 1000·s + i on both sides). The hypervolume is
// taken over the noise-free model values of every configuration measured
// (what was found, not the luck of its noise), with the reference point
// 0 tokens/s/GPU, 1000 ms, 100 ms. A configuration the engine refuses or that
// does not fit is a failed trial; one that violates the space's
// constraints is one too for Optuna, which cannot express them (ours
// never proposes it).
const (
	compareBudget     = 200
	comparePopulation = 50
	compareSeeds      = 10
)

var (
	compareObjectives = []frontier.Objective{
		{Name: "output_token_throughput_per_gpu", Direction: frontier.Maximize},
		{Name: "ttft.p99", Direction: frontier.Minimize},
		{Name: "tpot.p99", Direction: frontier.Minimize},
	}
	compareRef = []float64{0, 1000, 100} // minimised: -throughput, ms, ms
)

// evaluation is one measured trial: what the sampler is told and the
// model's noise-free values (minimised), or a failure.
type evaluation struct {
	told   []float64
	truth  []float64
	failed bool
}

// evaluate runs the simulator on c with the noise of (seed, i).
func evaluate(space *search.Space, c search.Config, seed uint64, i int) evaluation {
	if space.Check(c) != nil {
		return evaluation{failed: true}
	}
	cfg := simulate.DefaultConfig
	for k, v := range c {
		if err := cfg.Set(k, v.String()); err != nil {
			panic(err)
		}
	}
	r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, 1000*seed+uint64(i))
	if err != nil {
		return evaluation{failed: true}
	}
	s, gpus := r.Steady, float64(cfg.GPUs())
	return evaluation{
		told:  []float64{r.OutputThroughput / gpus, r.TTFT.P99, r.TPOT.P99},
		truth: []float64{-s.OutputThroughput / gpus, 1e3 * s.TTFT.P99(), 1e3 * s.TPOT.P99()},
	}
}

// hypervolume of the noise-free values of the evaluations that did not
// fail.
func hypervolume(evals []evaluation) float64 {
	var data []float64
	for _, e := range evals {
		if !e.failed {
			data = append(data, e.truth...)
		}
	}
	return frontier.Hypervolume(data, 3, compareRef)
}

// runOurs tunes with one of our samplers.
func runOurs(t testing.TB, space *search.Space, sampler string, seed uint64) []evaluation {
	st, err := search.NewStudy(space, search.Options{Sampler: sampler, Seed: seed, Objectives: compareObjectives, Population: comparePopulation})
	if err != nil {
		t.Fatal(err)
	}
	var out []evaluation
	for i := range compareBudget {
		tr, err := st.Ask()
		if err != nil {
			t.Fatal(err)
		}
		e := evaluate(space, tr.Config, seed, i)
		if err := st.Tell(tr.ID, search.Result{Values: e.told, Failed: e.failed}); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// runOptuna tunes with Optuna's NSGAIISampler in a Python process.
func runOptuna(t testing.TB, python string, space *search.Space, seed uint64) []evaluation {
	var out []evaluation
	opts := optunadriver.Options{Seed: seed, Budget: compareBudget, Population: comparePopulation, Objectives: compareObjectives}
	optunadriver.Run(t, python, space, opts, func(i int, c search.Config) ([]float64, bool) {
		e := evaluate(space, c, seed, i)
		out = append(out, e)
		return e.told, !e.failed
	})
	return out
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

// TestCompareOptuna runs the comparison and requires our NSGA-II's
// median hypervolume to be at least Optuna's. The figures go to the test
// log (go test ./search -run CompareOptuna -v); docs/PERFORMANCE.md
// records them.
func TestCompareOptuna(t *testing.T) {
	if testing.Short() {
		t.Skip("the Optuna comparison takes about half a minute")
	}
	python := testenv.Optuna(t)
	for _, file := range []string{filepath.Join("..", "examples", "search", "vllm.toml"), filepath.Join("testdata", "unconstrained.toml")} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			space, err := search.ReadSpace(file)
			if err != nil {
				t.Fatal(err)
			}
			compareOptuna(t, python, space)
		})
	}
}

func compareOptuna(t *testing.T, python string, space *search.Space) {
	start := time.Now()
	hv := map[string][]float64{}
	fails := map[string]int{}
	for seed := uint64(1); seed <= compareSeeds; seed++ {
		runs := map[string][]evaluation{"optuna-nsga2": runOptuna(t, python, space, seed)}
		for _, s := range []string{search.NSGA2, search.Sobol, search.Random} {
			runs[s] = runOurs(t, space, s, seed)
		}
		for name, evals := range runs {
			hv[name] = append(hv[name], hypervolume(evals))
			for _, e := range evals {
				if e.failed {
					fails[name]++
				}
			}
		}
	}
	t.Logf("%d seeds × %d evaluations, population %d, reference %v (%s)", compareSeeds, compareBudget, comparePopulation, compareRef, time.Since(start).Round(time.Second))
	for _, name := range []string{search.NSGA2, "optuna-nsga2", search.Sobol, search.Random} {
		t.Logf("%-13s median hypervolume %.4g (min %.4g, max %.4g), failed trials %d of %d",
			name, median(hv[name]), slices.Min(hv[name]), slices.Max(hv[name]), fails[name], compareSeeds*compareBudget)
	}
	if ours, theirs := median(hv[search.NSGA2]), median(hv["optuna-nsga2"]); ours < theirs {
		t.Errorf("NSGA-II median hypervolume %.4g < Optuna NSGAIISampler's %.4g", ours, theirs)
	}
}
