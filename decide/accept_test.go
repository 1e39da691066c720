package decide_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
)

// The acceptance loop of the gate (issue 13): a driver proposes
// candidates, measures them with seeded log-normal noise and asks
// RunGate, on a real SQLite store, adding the runs each verdict asks for
// until it decides or --max-runs stops it.

// acceptObjs are the loop's objectives: minimum improvements 3% and 5%,
// noise bands the same.
var acceptObjs = []frontier.Objective{
	{Name: "output_token_throughput", Direction: frontier.Maximize, MinImprove: 0.03, Noise: 0.03},
	{Name: "ttft.p99", Direction: frontier.Minimize, MinImprove: 0.05, Noise: 0.05},
}

// acceptCV is the run-to-run noise: CV 1.5% throughput, 4% p99 TTFT.
var acceptCV = []float64{0.015, 0.04}

// acceptLoop drives RunGate on one study.
type acceptLoop struct {
	t     *testing.T
	ctx   context.Context
	st    store.Selecting
	study string
	rng   *rand.Rand
	// files numbers the result files so that every run has its own ID.
	files int
	// verdicts keeps one verdict per code, for the schema check.
	verdicts map[string]decide.Verdict
}

func newAcceptLoop(t *testing.T, study string, seed uint64) *acceptLoop {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pareto.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &acceptLoop{t: t, ctx: context.Background(), st: store.Selecting{Store: st}, study: study,
		rng: rand.New(rand.NewPCG(seed, 13)), verdicts: map[string]decide.Verdict{}}
}

// runs returns one source of n runs of configuration cfg whose true
// values are truth (throughput, p99 TTFT), as a harness would read them.
func (l *acceptLoop) runs(cfg string, truth []float64, n int) decide.Source {
	l.files++
	src := decide.Source{Path: fmt.Sprintf("%s/batch-%d.jsonl", cfg, l.files)}
	vals := decide.SimMeasure(l.rng, truth, acceptCV, n)
	for k := range n {
		t := trial.Trial{
			Source:    trial.Source{Path: src.Path, Format: "jsonl", Line: k + 1, Index: k},
			Labels:    map[string]string{"engine": "vllm", "engine_version": "0.9.0"},
			Params:    map[string]string{"cfg": cfg},
			Workload:  trial.Workload{Concurrency: 8},
			Succeeded: 500,
			Measurements: []trial.Measurement{
				{Metric: "output_token_throughput", Value: vals[0][k], Unit: "tokens/s"},
				{Metric: "ttft", Dims: trial.StatDims("p99"), Value: vals[1][k], Unit: "ms"},
			},
		}
		t.Finalize()
		src.Trials = append(src.Trials, t)
	}
	return src
}

// seed records n baseline runs at truth in session.
func (l *acceptLoop) seed(truth []float64, n int, session string) {
	src := l.runs("base", truth, n)
	for i := range src.Trials {
		src.Trials[i].Source.Session = session
	}
	if _, _, err := l.st.Ingest(l.ctx, l.study, src.Path, src.Trials); err != nil {
		l.t.Fatal(err)
	}
}

// judge gates candidate cfg (true values truth) from 3 runs, adding the
// runs each verdict asks for (baseline runs at baseTruth, in
// baseSession) until a decision; it returns the verdict and the
// candidate's runs.
func (l *acceptLoop) judge(cfg string, truth, baseTruth []float64, baseSession string, change func(*decide.GateRequest)) (decide.Verdict, int) {
	sel, err := repeat.ParseSelection("cfg=base")
	if err != nil {
		l.t.Fatal(err)
	}
	req := decide.GateRequest{Study: l.study, ConfigKeys: []string{"cfg"}, Baseline: decide.GateSide{Selection: sel},
		Gate:    decide.GateConfig{Objectives: acceptObjs, MinRepeats: 3, MaxRuns: 10},
		NoLabel: true, Session: baseSession}
	if change != nil {
		change(&req)
	}
	add, n := 3, 0
	for {
		req.Candidate = decide.GateSide{Name: cfg, Sources: []decide.Source{l.runs(cfg, truth, add)}}
		n += add
		v, err := decide.RunGate(l.ctx, l.st, req)
		if err != nil {
			l.t.Fatalf("RunGate(%s): %v", cfg, err)
		}
		l.verdicts[v.Code] = v
		if v.Decision != decide.Inconclusive {
			return v, n
		}
		if v.MoreRuns.Baseline > 0 {
			src := l.runs("base", baseTruth, v.MoreRuns.Baseline)
			for i := range src.Trials {
				src.Trials[i].Source.Session = baseSession
			}
			if _, _, err := l.st.Ingest(l.ctx, l.study, src.Path, src.Trials); err != nil {
				l.t.Fatal(err)
			}
		}
		if add = v.MoreRuns.Candidate; add == 0 && v.MoreRuns.Baseline == 0 {
			l.t.Fatalf("RunGate(%s): inconclusive asking for no run: %+v", cfg, v.MoreRuns)
		}
	}
}

// TestAcceptance is the gate's acceptance loop of issue 13, through
// RunGate on a real SQLite store: 200 candidates, half no change within
// ±1%, half a real win of 2 to 3 times the minimum improvement on one
// objective, at CV 4% (p99 TTFT) and 1.5% (throughput), with --max-runs
// 10: at most 1% false admits, at least 95% true admits, at most 10 runs
// per candidate. Then a baseline re-benchmarked 6% faster (a new session)
// never lets a no-change candidate measured on the faster machine in.
func TestAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("the acceptance loop runs 200 candidates")
	}
	l := newAcceptLoop(t, "accept", 1)
	baseTruth := []float64{1000, 200}
	l.seed(baseTruth, 10, "base")
	const candidates = 200
	admitted, counted := [2]int{}, [2]int{}
	runs, maxRuns, capped := 0, 0, 0
	for k := range candidates {
		tr, better := decide.SimTruth(l.rng, k, baseTruth, acceptObjs)
		v, n := l.judge(fmt.Sprintf("cand-%03d", k), tr, baseTruth, "base", nil)
		counted[decide.SimB2i(better)]++
		if v.Decision == decide.Admit {
			admitted[decide.SimB2i(better)]++
		}
		if v.Code == decide.CodeRejectedMaxRuns {
			capped++
		}
		runs += n
		maxRuns = max(maxRuns, n)
	}
	falseAdmit := float64(admitted[0]) / float64(counted[0])
	trueAdmit := float64(admitted[1]) / float64(counted[1])
	mean := float64(runs) / candidates
	t.Logf("acceptance (CV 1.5%% throughput, 4%% p99 TTFT, --max-runs 10, %d candidates): false admits %.1f%% (%d/%d), true admits %.1f%% (%d/%d), %.2f runs per candidate (at most %d), %d rejected_max_runs",
		candidates, 100*falseAdmit, admitted[0], counted[0], 100*trueAdmit, admitted[1], counted[1], mean, maxRuns, capped)
	if falseAdmit > 0.01 {
		t.Errorf("false admits %.3f; want <= 0.01", falseAdmit)
	}
	if trueAdmit < 0.95 {
		t.Errorf("true admits %.3f; want >= 0.95", trueAdmit)
	}
	if mean > 10 || maxRuns > 10 {
		t.Errorf("%.2f runs per candidate, at most %d; want <= 10", mean, maxRuns)
	}

	// The baseline re-benchmarked on a 6% faster machine, in a new
	// session: no-change candidates measured there are compared with it,
	// not with the pooled stale runs.
	fast := []float64{baseTruth[0] * 1.06, baseTruth[1] / 1.06}
	l.seed(fast, 10, "rebench")
	const nochange = 100
	rebenchAdmits, staleAdmits := 0, 0
	for k := range nochange {
		tr, _ := decide.SimTruth(l.rng, 2*k, fast, acceptObjs) // even: within ±1% of the fast baseline
		v, _ := l.judge(fmt.Sprintf("fast-%03d", k), tr, fast, "rebench", nil)
		if v.Decision == decide.Admit {
			rebenchAdmits++
			t.Errorf("no-change candidate %d admitted against the re-benchmarked baseline: %q", k, v.Reasons)
		}
		if len(v.BaselineSessions) != 1 || v.BaselineSessions[0] != "rebench" {
			t.Fatalf("baseline sessions %q; want [rebench]", v.BaselineSessions)
		}
		if k < 20 { // what comparing with the stale session would say
			if v, _ := l.judge(fmt.Sprintf("stale-%03d", k), tr, baseTruth, "base",
				func(r *decide.GateRequest) { r.BaselineSession = "base" }); v.Decision == decide.Admit {
				staleAdmits++
			}
		}
	}
	t.Logf("re-benchmarked baseline 6%% faster: %d of %d no-change candidates admitted (against the stale session: %d of 20)",
		rebenchAdmits, nochange, staleAdmits)
	if staleAdmits == 0 {
		t.Errorf("against the stale baseline session no candidate was admitted: the check cannot tell sessions apart")
	}
	// Every kind of verdict the loop met satisfies the published schema.
	for code, v := range l.verdicts {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("schema/"+code, func(t *testing.T) { schematest.Validate(t, "gate", b) })
	}
}
