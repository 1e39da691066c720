package tune_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// The gate's acceptance of issue 13 through the tuning loop: candidates
// whose true effect is known (a random sampler over a parameter k, the
// effect a seeded function of k), every run a measurement with seeded
// log-normal noise recorded through Tuning.Record on a real SQLite
// store, the loop running the candidate and baseline runs the gate asks
// for within --max-runs.

// acceptSpace is one integer parameter; the baseline is k = 0.
const acceptSpace = "[params.k]\nlow = 0\nhigh = 1000000\ndefault = 0\n"

var acceptObjectives = []frontier.Objective{
	{Name: "output_token_throughput", Direction: frontier.Maximize, MinImprove: 0.03, Noise: 0.03},
	{Name: "ttft.p99", Direction: frontier.Minimize, MinImprove: 0.05, Noise: 0.05},
}

// acceptLoop measures the runs of one tuning study.
type acceptLoop struct {
	t   *testing.T
	ctx context.Context
	tu  *tune.Tuning
	rng *rand.Rand
	cv  [2]float64
}

func newAcceptLoop(t *testing.T, opts tune.Options, budget int, seed uint64) *acceptLoop {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	space, err := search.ParseSpace("accept.toml", []byte(acceptSpace))
	if err != nil {
		t.Fatal(err)
	}
	tu, err := tune.Open(ctx, st, "accept", space, opts, budget)
	if err != nil {
		t.Fatal(err)
	}
	return &acceptLoop{t: t, ctx: ctx, tu: tu, rng: rand.New(rand.NewPCG(seed, 13))}
}

// record measures run r at truth (throughput, p99 TTFT) and records it.
func (l *acceptLoop) record(r tune.Run, truth [2]float64) {
	var v [2]float64
	for i := range v {
		s := math.Sqrt(math.Log1p(l.cv[i] * l.cv[i]))
		v[i] = truth[i] * math.Exp(s*l.rng.NormFloat64()-s*s/2)
	}
	path := fmt.Sprintf("run-%d.json", r.ID)
	tr := trial.Trial{
		Source:    trial.Source{Path: path, Format: "jsonl", Line: 1},
		Labels:    map[string]string{"engine": "vllm", "engine_version": "0.9.0"},
		Params:    map[string]string{"k": r.Config["k"].String()},
		Workload:  trial.Workload{Concurrency: 8},
		Succeeded: 500,
		Measurements: []trial.Measurement{
			{Metric: "output_token_throughput", Value: v[0], Unit: "tokens/s"},
			{Metric: "ttft", Dims: trial.StatDims("p99"), Value: v[1], Unit: "ms"},
		},
	}
	tr.Finalize()
	if _, err := l.tu.Record(l.ctx, r, path, []trial.Trial{tr}); err != nil {
		l.t.Fatal(err)
	}
}

// session starts a driver session and runs it until n new candidates
// have been proposed and every one decided: each run is measured at
// truth(k) (the baseline at base). It returns the candidates' runs by
// configuration number.
func (l *acceptLoop) session(n int, base [2]float64, truth func(k int) [2]float64) map[int]int {
	if _, err := l.tu.StartSession(l.ctx); err != nil {
		l.t.Fatal(err)
	}
	runs := map[int]int{}
	for {
		r, err := l.tu.Next(l.ctx, "accept", 0)
		if errors.Is(err, tune.ErrBudget) {
			l.t.Fatalf("the budget was spent before %d candidates were decided", n)
		}
		if err != nil {
			l.t.Fatal(err)
		}
		if r.Role == tune.RoleBaseline {
			l.record(r, base)
			continue
		}
		if _, seen := runs[r.Trial]; !seen && len(runs) == n {
			// A new proposal: nothing was queued, so every candidate of
			// the session is decided. This one is not measured.
			if err := l.tu.Fail(l.ctx, r, "the session is over"); err != nil {
				l.t.Fatal(err)
			}
			return runs
		}
		runs[r.Trial]++
		l.record(r, truth(kOf(r.Config)))
	}
}

// decisions returns the gate's decision of every candidate.
func (l *acceptLoop) decisions() map[int]tune.TrialSummary {
	s, err := l.tu.Summarize(l.ctx)
	if err != nil {
		l.t.Fatal(err)
	}
	out := map[int]tune.TrialSummary{}
	for _, tr := range s.Trials {
		if tr.Role == tune.RoleCandidate {
			out[tr.Number] = tr
		}
	}
	return out
}

// effect is candidate k's true values: even k within ±1% of base, odd k
// better by 2 to 3 times the minimum improvement on one objective.
func effect(k int, base [2]float64) ([2]float64, bool) {
	rng := rand.New(rand.NewPCG(uint64(k), 7))
	t := base
	if k%2 == 0 {
		for i := range t {
			t[i] *= 0.99 + 0.02*rng.Float64()
		}
		return t, false
	}
	j := rng.IntN(2)
	gain := acceptObjectives[j].MinImprove * (2 + rng.Float64())
	if j == 0 {
		t[0] *= 1 + gain
	} else {
		t[1] *= 1 - gain
	}
	return t, true
}

// TestAcceptanceNoisyTTFT: at CV 10% p99 TTFT (1.5% throughput), 200
// candidates, half no change and half a real win, with the loop adding
// the baseline runs the gate asks for: at most 1% false admits, at least
// 55% true admits. Then a second session whose baseline is 6% faster (the
// machine changed): no no-change candidate is admitted. 4 to 9 minutes
// on a loaded 2-core machine: skipped with -short.
func TestAcceptanceNoisyTTFT(t *testing.T) {
	if testing.Short() {
		t.Skip("the acceptance loop runs 300 candidates")
	}
	const maxRuns = 20
	// NoLabel: each candidate is judged against the baseline alone (as
	// decide's acceptance loop does), not against the wins admitted
	// before it.
	l := newAcceptLoop(t, tune.Options{Sampler: search.Random, Seed: 1, Objectives: acceptObjectives, Repeats: 3, MaxRuns: maxRuns,
		NoLabel: true},
		100_000, 1)
	l.cv = [2]float64{0.015, 0.10}
	base := [2]float64{1000, 200}
	wins := map[int]bool{}
	const candidates = 200
	runs := l.session(candidates, base, func(k int) [2]float64 {
		tr, better := effect(k, base)
		wins[k] = better
		return tr
	})
	dec := l.decisions()
	admitted, counted, total, most := [2]int{}, [2]int{}, 0, 0
	for number, n := range runs {
		d := dec[number]
		if d.Decision == "baseline" {
			continue
		}
		k := kOf(d.Params)
		i := 0
		if wins[k] {
			i = 1
		}
		counted[i]++
		if d.Decision == "admit" {
			admitted[i]++
		}
		if d.Decision != "admit" && d.Decision != "reject" {
			t.Errorf("candidate %d (k=%d) left %q", number, k, d.Decision)
		}
		total += n
		most = max(most, n)
	}
	st, err := l.tu.Summarize(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	baseRuns := st.Status.Complete - total
	falseAdmit := float64(admitted[0]) / float64(counted[0])
	trueAdmit := float64(admitted[1]) / float64(counted[1])
	t.Logf("tune loop (CV 1.5%% throughput, 10%% p99 TTFT, --repeats 3, --max-runs %d, %d candidates): false admits %.1f%% (%d/%d), true admits %.1f%% (%d/%d), %.2f runs per candidate (at most %d), %d baseline runs",
		maxRuns, candidates, 100*falseAdmit, admitted[0], counted[0], 100*trueAdmit, admitted[1], counted[1],
		float64(total)/float64(len(runs)), most, baseRuns)
	if falseAdmit > 0.01 {
		t.Errorf("false admits %.3f; want <= 0.01", falseAdmit)
	}
	// The gate bounds false admits by 1% over every look and objective
	// (decide's spending): wins on p99 TTFT at CV 10% are rarely shown
	// within 20 runs (63% of all wins admitted; 95% was the power of 95%
	// intervals at every look, uncorrected, with 0.9% false admits).
	if trueAdmit < 0.55 {
		t.Errorf("true admits %.3f; want >= 0.55", trueAdmit)
	}

	// Session 2: the machine got 6% faster; the baseline is re-measured
	// there and every candidate is within ±1% of the faster baseline. The
	// noise is CV 4% p99 TTFT, the setting for this failure (at
	// 10% about 1% of no-change candidates are admitted by chance, as in
	// session 1): pooled with the stale runs, each would look 6% better
	// on both objectives.
	l.cv = [2]float64{0.015, 0.04}
	fast := [2]float64{base[0] * 1.06, base[1] / 1.06}
	runs = l.session(100, fast, func(k int) [2]float64 {
		tr, _ := effect(2*k, fast) // even: no change
		return tr
	})
	dec = l.decisions()
	admits := 0
	for number := range runs {
		d := dec[number]
		if d.Decision == "admit" {
			admits++
			t.Errorf("no-change candidate %d admitted against the re-benchmarked baseline: %q", number, d.Reasons)
		}
	}
	t.Logf("session 2, baseline re-benchmarked 6%% faster (CV 4%% p99 TTFT): %d of %d no-change candidates admitted", admits, len(runs))
}

// kOf is the parameter k of c.
func kOf(c search.Config) int {
	f, _ := c["k"].Float()
	return int(f)
}
