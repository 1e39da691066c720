package tune_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// screenConfigs is the number of configurations of the screen's study,
// screenSeeds the studies compared, screenRepeats the runs in all of a
// configuration the screen keeps.
const (
	screenConfigs = 40
	screenSeeds   = 5
	screenRepeats = 3
)

// screenTruth is configuration k's true throughput and p99 TTFT: a
// quarter on a trade-off curve, the others behind it by 2 to 50% on
// TTFT (seeded by seed).
func screenTruth(seed uint64, k int) [2]float64 {
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	u := rng.Float64()
	gap := 0.0
	if rng.IntN(4) != 0 {
		gap = 0.02 + 0.48*rng.Float64()
	}
	return [2]float64{1000 * (1 + u), 200 * math.Pow(1+u, 1.5) * (1 + gap)}
}

// onFrontier reports, for each configuration, whether v (throughput,
// TTFT) puts it on the strict frontier.
func onFrontier(v [][2]float64) []bool {
	data := make([]float64, 0, 2*len(v))
	for _, p := range v {
		data = append(data, -p[0], p[1])
	}
	by := frontier.StrictFront(data, 2)
	out := make([]bool, len(v))
	for i, b := range by {
		out[i] = b < 0
	}
	return out
}

// screenStudy tunes the grid of screenConfigs configurations (CV 5% on
// both objectives) with opts within budget and returns its membership
// errors (configurations whose frontier membership, from the medians of
// their runs, differs from the truth's) and the candidate runs spent.
func screenStudy(t *testing.T, opts tune.Options, budget int, seed uint64) (errs, spent int) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	space, err := search.ParseSpace("screen.toml", []byte(fmt.Sprintf("[params.k]\nlow = 0\nhigh = %d\ndefault = 0\n", screenConfigs)))
	if err != nil {
		t.Fatal(err)
	}
	opts.Sampler, opts.Seed, opts.NoLabel = search.Grid, seed, true
	opts.Objectives = []frontier.Objective{
		{Name: "output_token_throughput", Direction: frontier.Maximize, MinImprove: 0.03, Noise: 0.05},
		{Name: "ttft.p99", Direction: frontier.Minimize, MinImprove: 0.03, Noise: 0.05},
	}
	tu, err := tune.Open(ctx, st, "screen", space, opts, budget)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tu.StartSession(ctx); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	measured, baseRuns := map[int][][]float64{}, 0
	for {
		r, err := tu.Next(ctx, "screen", 0)
		if errors.Is(err, tune.ErrBudget) || errors.Is(err, tune.ErrExhausted) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		k := kOf(r.Config)
		truth := screenTruth(seed, k)
		var v [2]float64
		s := math.Sqrt(math.Log1p(0.05 * 0.05))
		for i := range v {
			v[i] = truth[i] * math.Exp(s*rng.NormFloat64()-s*s/2)
		}
		if r.Role != tune.RoleCandidate {
			baseRuns++
		}
		if r.Role == tune.RoleCandidate {
			spent++
			m := measured[k]
			if m == nil {
				m = make([][]float64, 2)
			}
			measured[k] = [][]float64{append(m[0], v[0]), append(m[1], v[1])}
		}
		path := fmt.Sprintf("run-%d.json", r.ID)
		tr := trial.Trial{
			Source: trial.Source{Path: path, Format: "jsonl", Line: 1}, Params: map[string]string{"k": r.Config["k"].String()},
			Workload: trial.Workload{Concurrency: 8}, Succeeded: 500,
			Measurements: []trial.Measurement{
				{Metric: "output_token_throughput", Value: v[0], Unit: "tokens/s"},
				{Metric: "ttft", Dims: trial.StatDims("p99"), Value: v[1], Unit: "ms"},
			},
		}
		tr.Finalize()
		if _, err := tu.Record(ctx, r, path, []trial.Trial{tr}); err != nil {
			t.Fatal(err)
		}
	}
	// The study's answer: a screened configuration is off the frontier;
	// the others' membership is from the medians of their runs.
	sum, err := tu.Summarize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	screened := map[int]bool{}
	for _, tr := range sum.Trials {
		if tr.Decision == tune.DecisionScreened {
			screened[kOf(tr.Params)] = true
		}
	}
	var truths, estimates [][2]float64
	var kept []int
	for k := 0; k <= screenConfigs; k++ { // k = 0 is the baseline's configuration
		truths = append(truths, screenTruth(seed, k))
		if screened[k] {
			continue
		}
		kept = append(kept, k)
		m, ok := measured[k]
		if !ok {
			st, _ := tu.Summarize(ctx)
			t.Fatalf("seed %d: configuration k=%d was not measured (%d measured, %d baseline runs, %d candidate runs, status %+v)", seed, k, len(measured), baseRuns, spent, st.Status)
		}
		estimates = append(estimates, [2]float64{medianOf(m[0]), medianOf(m[1])})
	}
	want, got := onFrontier(truths), make([]bool, len(truths))
	for i, on := range onFrontier(estimates) {
		got[kept[i]] = on
	}
	clear := clearMembership(truths, want, opts.Objectives)
	for i := 1; i < len(want); i++ { // the baseline's is not counted
		if clear[i] && want[i] != got[i] {
			errs++
		}
	}
	return errs, spent
}

// clearMembership reports the configurations whose frontier membership
// the noise bands leave clear: the true frontier members, and those a
// true member beats under the noise-aware relation (frontier.Beats with
// the objectives' bands); the others, dominated by less than the band,
// are as good as the frontier under the noise and counted neither way.
func clearMembership(truths [][2]float64, member []bool, objs []frontier.Objective) []bool {
	out := make([]bool, len(truths))
	for i, p := range truths {
		out[i] = member[i]
		for j, q := range truths {
			if member[j] && frontier.Beats(q[:], p[:], objs) {
				out[i] = true
			}
		}
	}
	return out
}

func medianOf(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestScreenBeatsUniform: the screen (--screen 1) against uniform repeats
// within the same budget, on simulated studies of 40 configurations (a
// quarter on a trade-off curve, the rest behind it by 2 to 50%) at CV 5%
// with 5% bands: uniform gives each configuration 3 runs; the screen
// gives each 1, then 3 in all to those whose frontier membership is
// still uncertain. Over 5 seeds the screen makes fewer frontier
// membership errors (counted on the configurations whose membership the
// bands leave clear) and spends fewer runs.
func TestScreenBeatsUniform(t *testing.T) {
	const repeats = 3
	budget := repeats * (screenConfigs + 2) // the baseline's runs and the baseline configuration's own
	uniformErrs, screenErrs, uniformRuns, screenRuns := 0, 0, 0, 0
	for seed := uint64(1); seed <= screenSeeds; seed++ {
		e, n := screenStudy(t, tune.Options{Repeats: repeats, MaxRuns: repeats}, budget, seed)
		uniformErrs, uniformRuns = uniformErrs+e, uniformRuns+n
		e, n = screenStudy(t, tune.Options{Repeats: screenRepeats, MaxRuns: screenRepeats, Screen: 1}, budget, seed)
		screenErrs, screenRuns = screenErrs+e, screenRuns+n
	}
	t.Logf("frontier membership errors over %d seeds × %d configurations, budget %d runs each: uniform repeats (%d each) %d errors in %d candidate runs; --screen 1 (then up to %d) %d errors in %d candidate runs",
		screenSeeds, screenConfigs, budget, repeats, uniformErrs, uniformRuns, screenRepeats, screenErrs, screenRuns)
	if screenErrs >= uniformErrs {
		t.Errorf("the screen made %d membership errors, uniform repeats %d: want fewer", screenErrs, uniformErrs)
	}
	if float64(screenRuns) > 0.9*float64(uniformRuns) {
		t.Errorf("the screen spent %d runs, uniform repeats %d: want 10%% fewer at least", screenRuns, uniformRuns)
	}
}
