package tune_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// askStores are the stores the ask/tell tests run on: the queue's SQL
// differs (SQLite's BEGIN IMMEDIATE, PostgreSQL's row locks).
var askStores = []struct {
	name string
	loc  func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") }},
	{"postgres", freshPostgres},
}

// askStudy opens a store at loc and returns it with the spec of a study
// over testSpace (two objectives, 2 repeats, sobol).
func askStudy(t *testing.T, loc string, budget int) (store.Store, tune.AskSpec) {
	t.Helper()
	st, err := store.Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	space := filepath.Join(t.TempDir(), "space.toml")
	if err := os.WriteFile(space, []byte(testSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	return st, tune.AskSpec{Space: space, Objectives: []string{"output_token_throughput:max", "ttft.p99:min"}, Budget: budget,
		Sampler: "sobol", Seed: 1, Repeats: 2, MaxRuns: 2}
}

// values are complete --value measurements of a run.
func values(tput, ttft float64) []string {
	return []string{"output_token_throughput=" + strconv.FormatFloat(tput, 'g', -1, 64), "ttft.p99=" + strconv.FormatFloat(ttft, 'g', -1, 64)}
}

func askStatus(t *testing.T, st store.Store) tunequeue.Status {
	t.Helper()
	s, err := st.(tunequeue.Queue).TuneStatus(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAskLease: a run ask hands out is leased to its driver; the driver
// asking again gets it back (resumed, the same attempt); once the lease
// expired the next ask of another driver gets it (attempt 2), and tells
// of the driver that lost it, or of the old attempt, are refused; the
// loss of its last attempt (max attempts 2) fails it with that reason.
func TestAskLease(t *testing.T) {
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, spec := askStudy(t, b.loc(t), 6)
			spec.MaxAttempts = 2
			tu, err := tune.OpenSpec(ctx, st, "s", spec)
			if err != nil {
				t.Fatal(err)
			}
			const lease = 300 * time.Millisecond
			a1, err := tu.Ask(ctx, tune.AskOptions{Driver: "a", Lease: lease})
			if err != nil || a1.Run != 1 || a1.Attempt != 1 || a1.Driver != "a" || a1.Resumed || a1.Role != tune.RoleBaseline {
				t.Fatalf("first ask = %+v, %v", a1, err)
			}
			if time.Until(a1.LeaseUntil) > lease || time.Until(a1.LeaseUntil) < -time.Second {
				t.Errorf("lease until %s: want about %s from now", a1.LeaseUntil, lease)
			}
			again, err := tu.Ask(ctx, tune.AskOptions{Driver: "a", Lease: lease})
			if err != nil || again.Run != a1.Run || again.Attempt != 1 || !again.Resumed {
				t.Fatalf("ask of the driver holding run 1 = %+v, %v; want it back", again, err)
			}
			other, err := tu.Ask(ctx, tune.AskOptions{Driver: "other", Lease: time.Hour})
			if err != nil || other.Run != 2 || other.Resumed {
				t.Fatalf("ask of another driver = %+v, %v; want run 2", other, err)
			}
			if _, err := tu.Tell(ctx, a1.Run, tune.TellInput{Driver: "other", Values: values(1000, 100)}); !errors.Is(err, tunequeue.ErrLeaseLost) {
				t.Fatalf("tell of a run another driver holds: %v", err)
			}
			time.Sleep(lease + 100*time.Millisecond)
			b1, err := tu.Ask(ctx, tune.AskOptions{Driver: "b", Lease: lease})
			if err != nil || b1.Run != a1.Run || b1.Attempt != 2 || b1.Resumed {
				t.Fatalf("ask after run 1's lease expired = %+v, %v; want run 1, attempt 2", b1, err)
			}
			_, err = tu.Tell(ctx, a1.Run, tune.TellInput{Driver: "a", Attempt: 1, Values: values(1000, 100)})
			if !errors.Is(err, tunequeue.ErrLeaseLost) || !strings.Contains(err.Error(), "held by ask:b") {
				t.Fatalf("tell of the driver that lost run 1: %v", err)
			}
			_, err = tu.Tell(ctx, a1.Run, tune.TellInput{Driver: "b", Attempt: 1, Values: values(1000, 100)})
			if !errors.Is(err, tunequeue.ErrLeaseLost) || !strings.Contains(err.Error(), "handed out again (attempt 2)") {
				t.Fatalf("tell of attempt 1 of a run in its attempt 2: %v", err)
			}
			// b loses it too: its last attempt.
			time.Sleep(lease + 100*time.Millisecond)
			c1, err := tu.Ask(ctx, tune.AskOptions{Driver: "c"})
			if err != nil || c1.Run != 3 {
				t.Fatalf("ask after run 1's last lease expired = %+v, %v; want run 3", c1, err)
			}
			s := askStatus(t, st)
			if s.Failed != 1 || s.FailedRuns[0].ID != a1.Run || s.FailedRuns[0].Reason != "lost 2 times (the lease of ask:b expired): not retried" {
				t.Fatalf("status %+v: want run 1 failed, lost twice", s)
			}
			if _, err := tu.Tell(ctx, a1.Run, tune.TellInput{Driver: "b", Attempt: 2, Values: values(1000, 100)}); !errors.Is(err, tunequeue.ErrLeaseLost) {
				t.Fatalf("tell of a failed run: %v", err)
			}
			// The holders tell their runs.
			for _, a := range []tune.AskResult{other, c1} {
				if _, err := tu.Tell(ctx, a.Run, tune.TellInput{Driver: a.Driver, Attempt: a.Attempt, Values: values(1000, 100)}); err != nil {
					t.Fatalf("tell of run %d by its holder: %v", a.Run, err)
				}
			}
			if s := askStatus(t, st); s.Complete != 2 || s.Failed != 1 || s.Running != 0 {
				t.Fatalf("status %+v", s)
			}
			if _, err := tune.DriverWorker("bad\nid"); !isField(err) {
				t.Errorf("a driver ID with a newline: %v", err)
			}
		})
	}
}

// TestTellIncomplete: a tell missing an objective, or with one not
// finite, or with a trial lacking one, is refused naming it; nothing is
// recorded (the study's trials and runs are as before) and the run is
// still the driver's; the next complete tells are recorded and the
// candidate judged.
func TestTellIncomplete(t *testing.T) {
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, spec := askStudy(t, b.loc(t), 8)
			tu, err := tune.OpenSpec(ctx, st, "s", spec)
			if err != nil {
				t.Fatal(err)
			}
			a, err := tu.Ask(ctx, tune.AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			complete, err := tune.ValueTrial(tune.Run{ID: a.Run}, values(1000, 100))
			if err != nil {
				t.Fatal(err)
			}
			partial, err := tune.ValueTrial(tune.Run{ID: a.Run}, values(1000, 100)[:1])
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name    string
				in      tune.TellInput
				missing []string
			}{
				{"no ttft", tune.TellInput{Values: values(1000, 100)[:1]}, []string{"ttft.p99"}},
				{"nan", tune.TellInput{Values: []string{"output_token_throughput=NaN", "ttft.p99=100"}}, []string{"output_token_throughput"}},
				{"inf", tune.TellInput{Values: []string{"output_token_throughput=1000", "ttft.p99=+Inf"}}, []string{"ttft.p99"}},
				{"one trial of two", tune.TellInput{Trials: []trial.Trial{complete, partial}}, []string{"ttft.p99"}},
				{"nothing", tune.TellInput{Trials: []trial.Trial{}}, []string{"output_token_throughput", "ttft.p99"}},
			} {
				_, err := tu.Tell(ctx, a.Run, c.in)
				var inc *tune.IncompleteError
				if !errors.As(err, &inc) || !slices.Equal(inc.Missing, c.missing) || !strings.Contains(err.Error(), c.missing[0]) {
					t.Fatalf("%s: tell = %v, want missing %v", c.name, err, c.missing)
				}
			}
			if trials, err := st.Trials(ctx, "s", store.Query{}); err != nil || len(trials) != 0 {
				t.Fatalf("after the refused tells: %d trials, %v; want none", len(trials), err)
			}
			if s := askStatus(t, st); s.Running != 1 || s.Complete+s.Failed != 0 || s.RunningRuns[0].Attempts != 1 {
				t.Fatalf("after the refused tells: %+v; want run 1 still running", s)
			}
			// Complete tells: the baseline's two runs, the candidate's two.
			measure := map[string][2]float64{tune.RoleBaseline: {1000, 200}, tune.RoleCandidate: {1500, 150}}
			var last tune.TellResult
			for i := range 4 {
				if i > 0 {
					if a, err = tu.Ask(ctx, tune.AskOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				v := measure[a.Role]
				if last, err = tu.Tell(ctx, a.Run, tune.TellInput{Attempt: a.Attempt, Values: values(v[0]+float64(i), v[1])}); err != nil {
					t.Fatalf("complete tell of run %d: %v", a.Run, err)
				}
			}
			if last.Role != tune.RoleCandidate || last.Verdict == nil || last.Decision != "admit" {
				t.Fatalf("the candidate's last tell = %+v, want it admitted", last)
			}
			if trials, _ := st.Trials(ctx, "s", store.Query{}); len(trials) != 4 {
				t.Errorf("%d trials recorded, want 4", len(trials))
			}
		})
	}
}

// TestAskBudget: a study's budget comes from the store: a budget below 1
// is refused creating or changing it; a later ask with the budget alone
// raises it (no "budget spent"), and so does one with the max attempts.
func TestAskBudget(t *testing.T) {
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, spec := askStudy(t, b.loc(t), 0)
			for _, n := range []int{0, -3} {
				spec.Budget = n
				if _, err := tune.OpenSpec(ctx, st, "s", spec); !isField(err) {
					t.Fatalf("creating with budget %d: %v, want a usage error", n, err)
				}
			}
			if _, err := st.(tunequeue.Queue).TuneStatus(ctx, "s"); !errors.Is(err, tunequeue.ErrNoTune) {
				t.Fatalf("a refused budget created the study: %v", err)
			}
			spec.Budget = 2
			tu, err := tune.OpenSpec(ctx, st, "s", spec)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				a, err := tu.Ask(ctx, tune.AskOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tu.Tell(ctx, a.Run, tune.TellInput{Values: values(1000, 100)}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := tu.Ask(ctx, tune.AskOptions{}); !errors.Is(err, tune.ErrBudget) {
				t.Fatalf("ask with the budget spent: %v", err)
			}
			if _, err := tune.OpenSpec(ctx, st, "s", tune.AskSpec{Budget: -1}); !isField(err) {
				t.Fatalf("changing the budget to -1: %v", err)
			}
			tu, err = tune.OpenSpec(ctx, st, "s", tune.AskSpec{Budget: 5, MaxAttempts: 4})
			if err != nil {
				t.Fatalf("raising the budget alone: %v", err)
			}
			a, err := tu.Ask(ctx, tune.AskOptions{})
			if err != nil || a.Role != tune.RoleCandidate {
				t.Fatalf("ask after raising the budget = %+v, %v", a, err)
			}
			if s := askStatus(t, st); s.Budget != 5 || s.BudgetLeft != 1 {
				t.Fatalf("status %+v: want budget 5, 1 left", s)
			}
			var max int
			st.(tunequeue.Queue).UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error { max = tx.Study().MaxAttempts; return nil })
			if max != 4 {
				t.Errorf("max attempts %d, want 4", max)
			}
		})
	}
}

// TestSessionBaselineReserved: a new session of a study whose budget is
// all queued still re-measures its baseline: the newest queued candidate
// runs never handed out give their budget back (a candidate left with
// none is failed, saying why), the runs never exceed the budget, and the
// candidates are judged against the new session's baseline.
func TestSessionBaselineReserved(t *testing.T) {
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, spec := askStudy(t, b.loc(t), 6)
			tu, err := tune.OpenSpec(ctx, st, "s", spec)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tu.StartSession(ctx); err != nil {
				t.Fatal(err)
			}
			// Session 1: the baseline's two runs, then candidate 0's two
			// (claimed) and candidate 1's two (queued): the budget is all
			// queued.
			var held []tune.Run
			for range 4 {
				r, err := tu.Next(ctx, "w", time.Hour)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, r)
			}
			for _, r := range held[:2] {
				tr, _ := tune.ValueTrial(r, values(1000, 200))
				if _, err := tu.Record(ctx, r, "base", []trial.Trial{tr}); err != nil {
					t.Fatal(err)
				}
			}
			// Candidate 1's first run is claimed and released: both its
			// runs are queued, never started.
			c1, err := tu.Next(ctx, "w", time.Hour)
			if err != nil || c1.Trial != 1 {
				t.Fatalf("Next = %+v, %v; want candidate 1", c1, err)
			}
			if err := tu.Release(ctx, c1, "test"); err != nil {
				t.Fatal(err)
			}
			s := askStatus(t, st)
			if s.BudgetLeft != 0 || s.Queued != 2 {
				t.Fatalf("session 1: %+v; want the budget all queued", s)
			}
			n, err := tu.StartSession(ctx)
			if err != nil || n != 2 {
				t.Fatalf("StartSession = %d, %v", n, err)
			}
			runs := tuneRunsOf(t, st)
			base2, cand1 := 0, 0
			for _, r := range runs {
				if r.Number == tunequeue.BaselineTrial && r.Session == 2 {
					base2++
				}
				if r.Number == 1 {
					cand1++
				}
			}
			if len(runs) != 6 || base2 != 2 || cand1 != 0 {
				t.Fatalf("session 2: %d runs, %d baseline runs of session 2, %d of candidate 1: want 6, 2, 0\n%+v", len(runs), base2, cand1, runs)
			}
			// Everything runs to the end: the budget is exact.
			record := func(r tune.Run) {
				t.Helper()
				v := values(1010, 200)
				if r.Role == tune.RoleCandidate {
					v = values(1600, 120)
				}
				tr, _ := tune.ValueTrial(r, v)
				if _, err := tu.Record(ctx, r, "run", []trial.Trial{tr}); err != nil {
					t.Fatal(err)
				}
			}
			record(held[2])
			record(held[3])
			for {
				r, err := tu.Next(ctx, "w", time.Hour)
				if errors.Is(err, tune.ErrBudget) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				record(r)
			}
			if s := askStatus(t, st); s.Complete != 6 || s.Budget != 6 || s.BudgetLeft != 0 || s.Queued+s.Running != 0 {
				t.Fatalf("at the end: %+v", s)
			}
			sum, err := tu.Summarize(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range sum.Trials {
				switch tr.Number {
				case 0:
					if tr.Decision != "admit" {
						t.Errorf("candidate 0: %+v, want admitted", tr)
					}
				case 1:
					if tr.State != "failed" || len(tr.Reasons) != 1 || !strings.Contains(tr.Reasons[0], "given back to the baseline of session 2") {
						t.Errorf("candidate 1: %+v, want failed, its runs given back", tr)
					}
				}
			}
		})
	}
}

// tuneRunsOf reads the runs of study s.
func tuneRunsOf(t *testing.T, st store.Store) []tunequeue.Run {
	t.Helper()
	var runs []tunequeue.Run
	if err := st.(tunequeue.Queue).UpdateTune(context.Background(), "s", func(tx *tunequeue.Tx) error {
		var err error
		runs, err = tx.Runs()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestTellAfterKilledTell: a tell killed after recording its trials but
// before completing the run leaves the run the driver's; the driver's
// next tell of it completes it with the trials recorded, not with a
// second measurement (the run is counted once).
func TestTellAfterKilledTell(t *testing.T) {
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, spec := askStudy(t, b.loc(t), 4)
			tu, err := tune.OpenSpec(ctx, st, "s", spec)
			if err != nil {
				t.Fatal(err)
			}
			a, err := tu.Ask(ctx, tune.AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// What Record ingests before it completes the run.
			tr, err := tune.ValueTrial(tune.Run{ID: a.Run}, values(1000, 100))
			if err != nil {
				t.Fatal(err)
			}
			tr.Labels = map[string]string{tune.LabelRun: strconv.FormatInt(a.Run, 10), tune.LabelTrial: strconv.Itoa(a.Number),
				tune.LabelRole: a.Role, tune.LabelSession: strconv.Itoa(a.Session)}
			tr.Source.Session = tune.SessionName(a.Session)
			tr.ID = trial.ComputeID(&tr)
			if _, _, err := st.Ingest(ctx, "s", "killed tell", []trial.Trial{tr}); err != nil {
				t.Fatal(err)
			}
			again, err := tu.Ask(ctx, tune.AskOptions{})
			if err != nil || again.Run != a.Run || !again.Resumed {
				t.Fatalf("ask after the killed tell = %+v, %v; want run %d back", again, err, a.Run)
			}
			if _, err := tu.Tell(ctx, a.Run, tune.TellInput{Attempt: again.Attempt, Values: values(2000, 50)}); err != nil {
				t.Fatal(err)
			}
			trials, err := st.Trials(ctx, "s", store.Query{})
			if err != nil || len(trials) != 1 || trials[0].ID != tr.ID {
				t.Fatalf("%d trials (%v), want the one the killed tell recorded", len(trials), err)
			}
			if s := askStatus(t, st); s.Complete != 1 || s.Running != 0 {
				t.Fatalf("status %+v", s)
			}
		})
	}
}

// isField reports whether err is a library field error (field.Error).
func isField(err error) bool {
	_, ok := field.As(err)
	return ok
}
