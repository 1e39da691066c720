package tune_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// The runs the gate asks of archive members: a candidate compared with
// an admitted member whose own runs are too noisy to tell the two apart
// gets its verdict from the member's further runs, which the loop
// queues, instead of waiting for runs that never come.

// memberObjectives is the one objective of these tests.
var memberObjectives = []frontier.Objective{
	{Name: "output_token_throughput", Direction: frontier.Maximize, MinImprove: 0.03, Noise: 0.03},
}

// memberSpread are the relative deviations of a configuration's runs, in
// turn: their mean is exactly the configuration's value and their
// standard deviation exactly its spread.
var memberSpread = [3]float64{-1, 0, 1}

// memberLoop measures the runs of one tuning study on a real SQLite
// store: every configuration has a value and a spread, its i-th run
// measures value·(1 + spread·memberSpread[i mod 3]).
type memberLoop struct {
	t     *testing.T
	ctx   context.Context
	st    store.Store
	tu    *tune.Tuning
	runs  map[int]int // measured, by configuration number
	fbs   map[int]tune.Feedback
	order []int // the candidates, in the order they were proposed
	// fail, when set, tells which runs fail instead (by the index of
	// their configuration among the candidates and the runs it has had).
	fail func(i, runs int) bool
}

// memberStores are the stores the tests run on: the queue's SQL is one
// for both, its transactions are each store's.
var memberStores = []struct {
	name string
	loc  func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") }},
	{"postgres", func(t *testing.T) string { return testenv.PostgresDatabase(t) }},
}

func newMemberLoop(t *testing.T, loc string, budget int) *memberLoop {
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	space, err := search.ParseSpace("member.toml", []byte(acceptSpace))
	if err != nil {
		t.Fatal(err)
	}
	tu, err := tune.Open(ctx, st, "member", space, tune.Options{Sampler: search.Random, Seed: 1, Objectives: memberObjectives,
		Repeats: 3, MaxRuns: 10}, budget)
	if err != nil {
		t.Fatal(err)
	}
	return &memberLoop{t: t, ctx: ctx, st: st, tu: tu, runs: map[int]int{}, fbs: map[int]tune.Feedback{}}
}

// memberTrial is the i-th run of a configuration measured at value with
// spread, with params.
func memberTrial(path string, params map[string]string, i int, value, spread float64) trial.Trial {
	tr := trial.Trial{
		Source:       trial.Source{Path: path, Format: "jsonl", Line: 1},
		Labels:       map[string]string{"engine": "vllm", "engine_version": "0.9.0"},
		Params:       params,
		Workload:     trial.Workload{Concurrency: 8},
		Succeeded:    500,
		Measurements: []trial.Measurement{{Metric: "output_token_throughput", Value: value * (1 + spread*memberSpread[i%3]), Unit: "tokens/s"}},
	}
	tr.Finalize()
	return tr
}

// session starts a driver session and measures its runs until a
// candidate beyond the first n is proposed (every one of the n is then
// decided, or waits for nothing this study can run): the baseline at
// 1000 ± 0.5%, the i-th candidate proposed at value(i), spread(i).
func (l *memberLoop) session(n int, value func(i int) (float64, float64)) {
	if _, err := l.tu.StartSession(l.ctx); err != nil {
		l.t.Fatal(err)
	}
	for {
		r, err := l.tu.Next(l.ctx, "member", 0)
		if errors.Is(err, tune.ErrBudget) {
			l.t.Fatalf("the budget was spent before %d candidates were decided (%v)", n, l.runs)
		}
		if err != nil {
			l.t.Fatal(err)
		}
		v, spread := 1000.0, 0.005
		if r.Role == tune.RoleCandidate {
			i := indexOf(l.order, r.Trial)
			if i < 0 {
				if len(l.order) == n {
					if err := l.tu.Fail(l.ctx, r, "the session is over"); err != nil {
						l.t.Fatal(err)
					}
					return
				}
				i, l.order = len(l.order), append(l.order, r.Trial)
			}
			v, spread = value(i)
			if l.fail != nil && l.fail(i, l.runs[r.Trial]) {
				if err := l.tu.Fail(l.ctx, r, "the job exited with status 1"); err != nil {
					l.t.Fatal(err)
				}
				continue
			}
		}
		path := fmt.Sprintf("run-%d.json", r.ID)
		tr := memberTrial(path, map[string]string{"k": r.Config["k"].String()}, l.runs[r.Trial], v, spread)
		l.runs[r.Trial]++
		fb, err := l.tu.Record(l.ctx, r, path, []trial.Trial{tr})
		if err != nil {
			l.t.Fatal(err)
		}
		if fb.Verdict != nil || fb.GateError != "" {
			l.fbs[r.Trial] = fb
		}
	}
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// verdict returns the summary of configuration number.
func (l *memberLoop) verdict(number int) tune.TrialSummary {
	s, err := l.tu.Summarize(l.ctx)
	if err != nil {
		l.t.Fatal(err)
	}
	for _, tr := range s.Trials {
		if tr.Number == number {
			return tr
		}
	}
	l.t.Fatalf("no configuration %d in %+v", number, s.Trials)
	return tune.TrialSummary{}
}

// hasReason reports whether a reason of s contains part.
func hasReason(s tune.TrialSummary, part string) bool {
	for _, r := range s.Reasons {
		if strings.Contains(r, part) {
			return true
		}
	}
	return false
}

// TestMemberRuns: the first candidate, 15% better than the baseline but
// measured with a 3% spread, is admitted on its 3 runs; the second,
// measured with a 0.5% spread, cannot be told apart from it (its
// intervals are the member's) until the member is measured again. The
// loop queues the member's runs the gate asks for, and the second is
// decided on them: rejected as equivalent to the member when equal,
// admitted when 8% better. Without the member's runs it would wait at
// its --max-runs with nothing left to run.
func TestMemberRuns(t *testing.T) {
	for _, tc := range []struct {
		name     string
		gain     float64 // the second candidate's value over the member's
		decision string
		reason   string // part of a reason of the decision
	}{
		{name: "equivalent", gain: 1, decision: "reject", reason: "indistinguishable from archive member key:"},
		{name: "better", gain: 1.08, decision: "admit", reason: "better than the baseline"},
	} {
		for _, b := range memberStores {
			t.Run(b.name+"/"+tc.name, func(t *testing.T) {
				l := newMemberLoop(t, b.loc(t), 200)
				l.session(2, func(i int) (float64, float64) {
					if i == 0 {
						return 1150, 0.03
					}
					return 1150 * tc.gain, 0.005
				})
				member, cand := l.order[0], l.order[1]
				if s := l.verdict(member); s.Decision != "admit" {
					t.Fatalf("the member %d: %s %q", member, s.Decision, s.Reasons)
				}
				s := l.verdict(cand)
				if s.Decision != tc.decision || !hasReason(s, tc.reason) || hasReason(s, "--max-runs") {
					t.Errorf("the candidate %d: %s %q; want %s, %q", cand, s.Decision, s.Reasons, tc.decision, tc.reason)
				}
				if l.runs[member] <= 3 || l.runs[member] > 10 {
					t.Errorf("the member was measured %d times; want more than its 3 and at most --max-runs 10", l.runs[member])
				}
				if l.runs[cand] > 10 {
					t.Errorf("the candidate was measured %d times; want at most --max-runs 10", l.runs[cand])
				}
				// The member's new runs are recorded as its configuration's.
				ts, err := l.st.Trials(l.ctx, "member", store.Query{Where: []trial.Condition{{Key: tune.LabelTrial, Op: trial.OpEq, Value: strconv.Itoa(member)}}})
				if err != nil {
					t.Fatal(err)
				}
				if len(ts) != l.runs[member] {
					t.Errorf("%d trials of the member stored; want %d", len(ts), l.runs[member])
				}
				t.Logf("member %d measured %d times, candidate %d %d times: %s %q", member, l.runs[member], cand, l.runs[cand], s.Decision, s.Reasons)
			})
		}
	}
}

// TestMemberNotTuned: the archive member the gate asks runs of was
// ingested (its runs labelled admitted, as pareto gate labels them), not
// tuned, so the loop cannot run it: the candidate is left inconclusive
// with the reason (in the feedback and the summary), and no run is
// queued for it. Once the member is revoked, the next session judges it
// again, against the baseline alone: admitted.
func TestMemberNotTuned(t *testing.T) {
	for _, b := range memberStores {
		t.Run(b.name, func(t *testing.T) { memberNotTuned(t, b.loc(t)) })
	}
}

func memberNotTuned(t *testing.T, loc string) {
	l := newMemberLoop(t, loc, 200)
	var ingested []trial.Trial
	for i := range 3 {
		tr := memberTrial("member.jsonl", map[string]string{"k": "999999"}, i, 1150, 0.03)
		tr.Source.Line = i + 1
		tr.Labels[decide.AdmittedLabel] = decide.AdmittedValue
		ingested = append(ingested, tr)
	}
	if _, _, err := l.st.Ingest(l.ctx, "member", "member.jsonl", ingested); err != nil {
		t.Fatal(err)
	}
	l.session(1, func(int) (float64, float64) { return 1150 * 1.08, 0.005 })
	cand := l.order[0]
	fb := l.fbs[cand]
	if fb.Verdict == nil || fb.Verdict.Decision != decide.Inconclusive || len(fb.Verdict.MoreRuns.Members) == 0 {
		t.Fatalf("the candidate's verdict: %+v; want inconclusive asking runs of the member", fb.Verdict)
	}
	key := ""
	for k := range fb.Verdict.MoreRuns.Members {
		key = k
	}
	if !strings.Contains(fb.Stalled, key) || !strings.Contains(fb.Stalled, "not measured by this tune study") || fb.Queued != 0 {
		t.Errorf("feedback: stalled %q, %d queued; want the member %s named as not tuned, nothing queued", fb.Stalled, fb.Queued, key)
	}
	if l.runs[cand] != 3 {
		t.Errorf("the candidate was measured %d times; want its 3 (nothing spent on it)", l.runs[cand])
	}
	s := l.verdict(cand)
	if s.Decision != "inconclusive" || len(s.Reasons) == 0 || !strings.HasPrefix(s.Reasons[0], "stalled: archive member "+key) {
		t.Errorf("summary of the candidate: %s %q; want inconclusive, stalled first", s.Decision, s.Reasons)
	}
	st, err := l.tu.Summarize(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status.Queued != 0 {
		t.Errorf("%d runs queued; want none", st.Status.Queued)
	}

	sel, err := repeat.ParseSelection(key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decide.Revoke(l.ctx, store.Selecting{Store: l.st}, "member", nil, nil, sel); err != nil {
		t.Fatal(err)
	}
	l.session(1, func(int) (float64, float64) { return 1150 * 1.08, 0.005 })
	if s := l.verdict(cand); s.Decision != "admit" {
		t.Errorf("after revoking the member: %s %q; want admit", s.Decision, s.Reasons)
	}
}

// TestMemberRunFails: the member's first run the gate asked for fails, so
// its other queued runs are dropped (as for any configuration whose run
// fails) and it is not measured again: the candidate, 5% better than the
// member (within what the member's runs can tell), once its own runs are
// done, is left inconclusive, stalled on the member's failed run, with no
// run queued for it.
func TestMemberRunFails(t *testing.T) {
	l := newMemberLoop(t, filepath.Join(t.TempDir(), "t.db"), 200)
	value := func(i int) (float64, float64) {
		if i == 0 {
			return 1150, 0.03
		}
		return 1150 * 1.05, 0.005
	}
	// Session 1 admits the member, from the runs its own gate asks for
	// (the gate's first looks need more than 3 noisy runs); in session 2
	// every run of it fails.
	l.session(1, value)
	member := l.order[0]
	if s := l.verdict(member); s.Decision != "admit" {
		t.Fatalf("the member %d: %s %q; want admit", member, s.Decision, s.Reasons)
	}
	measured := l.runs[member]
	l.fail = func(i, runs int) bool { return i == 0 }
	l.session(2, value)
	cand := l.order[1]
	s := l.verdict(cand)
	want := fmt.Sprintf("the newest run of its configuration %d failed (the job exited with status 1)", member)
	if s.Decision != "inconclusive" || len(s.Reasons) == 0 || !strings.Contains(s.Reasons[0], want) {
		t.Errorf("the candidate %d: %s %q; want inconclusive, stalled: %q", cand, s.Decision, s.Reasons, want)
	}
	if l.runs[member] != measured {
		t.Errorf("the member was measured %d times; want its %d of session 1 (the failed run not counted)", l.runs[member], measured)
	}
	st, err := l.tu.Summarize(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The member's run failed, and each session's end (the first run of
	// the candidate after the last).
	if st.Status.Queued != 0 || st.Status.Failed != 3 {
		t.Errorf("%d runs queued, %d failed; want none queued, the member's and the two sessions' ends failed", st.Status.Queued, st.Status.Failed)
	}
	t.Logf("candidate measured %d times: %s %q", l.runs[cand], s.Decision, s.Reasons)
}
