package tune_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
)

// askDriver is an external ask/tell driver as a user writes one: pareto
// ask, pareto simulate with the run's parameters (a random seed: a run
// measured twice would record two different trials), pareto tell of the
// result file with the run's attempt, until ask says the budget is
// spent. Every ask's answer is appended to asks.log.
const askDriver = `#!/bin/sh
set -u
store=$1
while :; do
	if ! pareto ask --store "$store" --study s --driver d1 --space space.toml -o output_token_throughput:max -o ttft.p99:min \
		--budget 80 --repeats 2 --max-runs 3 --sampler sobol --seed 3 >ask.json 2>ask.err; then
		grep -q 'budget is spent' ask.err && exit 0
		cat ask.err >&2
		exit 1
	fi
	cat ask.json >>asks.log
	echo >>asks.log
	run=$(sed -n 's/.*"trial":\([0-9]*\).*/\1/p' ask.json)
	attempt=$(sed -n 's/.*"attempt":\([0-9]*\).*/\1/p' ask.json)
	params=$(sed -n 's/.*"params":{\([^}]*\)}.*/\1/p' ask.json | sed 's/"\([^"]*\)":"\{0,1\}\([^",]*\)"\{0,1\}/--param \1=\2/g; s/,/ /g')
	pareto simulate $params --seed $(od -An -N4 -tu4 /dev/urandom) --out "r-$run.json" || exit 1
	if ! pareto tell --store "$store" --study s --driver d1 --attempt "$attempt" "$run" "r-$run.json" >tell.out 2>tell.err; then
		cat tell.err >&2
		exit 1
	fi
done
`

// TestAskTellKilled runs the ask/tell driver script, kills it (its whole
// process group, so that an ask, a simulate or a tell in flight dies
// too) with SIGKILL at random moments 10 times, restarts it each time,
// and lets it finish: the runs are exactly the budget, all complete, each
// recorded its trial once (none told twice, none lost), none was handed
// out to the driver more than once per attempt, and every candidate
// reached a verdict or a stated failure.
func TestAskTellKilled(t *testing.T) {
	bin := buildPareto(t)
	for _, b := range askStores {
		t.Run(b.name, func(t *testing.T) { askKillLoop(t, bin, b.loc(t)) })
	}
}

func askKillLoop(t *testing.T, bin, loc string) {
	const budget = 80 // the driver's script asks for this budget
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "space.toml"), []byte(testSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "driver.sh")
	if err := os.WriteFile(script, []byte(askDriver), 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 21))
	kills := 0
loop:
	for attempt := 0; ; attempt++ {
		cmd := exec.Command("/bin/sh", script, loc)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		logPath := filepath.Join(dir, fmt.Sprintf("driver-%d.log", attempt))
		out, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait(); out.Close() }()
		failed := func(err error) {
			t.Helper()
			b, _ := os.ReadFile(logPath)
			t.Fatalf("driver (start %d): %v\n%s", attempt, err, b)
		}
		if kills == 10 {
			select {
			case err := <-done:
				if err != nil {
					failed(err)
				}
			case <-time.After(5 * time.Minute):
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				failed(fmt.Errorf("not done in 5 minutes"))
			}
			break loop
		}
		// Kill at a random moment once the study exists (opening a
		// PostgreSQL store under load takes longer than the random wait).
		waitStudy(loc, done)
		select {
		case err := <-done:
			if err != nil {
				failed(err)
			}
			t.Fatalf("the driver finished after %d kills: the kills came too late", kills)
		case <-time.After(time.Duration(rng.IntN(250)) * time.Millisecond):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			kills++
		}
	}

	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := askStatus(t, st)
	if s.Complete != budget || s.Failed != 0 || s.Queued+s.Running != 0 || s.Budget != budget || s.BudgetLeft != 0 {
		t.Errorf("status %+v: want all %d runs complete", s, budget)
	}
	runs := tuneRunsOf(t, st)
	if len(runs) != budget {
		t.Errorf("%d runs, want the budget's %d", len(runs), budget)
	}
	for _, r := range runs {
		if r.State != tunequeue.RunComplete || r.Attempts != 1 || r.Worker != "ask:d1" {
			t.Errorf("run %d: %s, attempt %d, worker %s (%s); want complete by ask:d1 on its first attempt", r.ID, r.State, r.Attempts, r.Worker, r.Reason)
		}
	}
	trials, err := st.Trials(ctx, "s", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	perRun := map[string]int{}
	for _, tr := range trials {
		perRun[tr.Labels[tune.LabelRun]]++
	}
	if len(trials) != budget || len(perRun) != budget {
		t.Errorf("%d trials of %d runs recorded, want %d of %d", len(trials), len(perRun), budget, budget)
	}
	for run, n := range perRun {
		if n != 1 {
			t.Errorf("run %s recorded %d trials, want 1", run, n)
		}
	}
	// The kills landed inside runs: some asks gave a run back.
	asks, _ := os.ReadFile(filepath.Join(dir, "asks.log"))
	resumed := strings.Count(string(asks), `"resumed":true`)
	t.Logf("%d kills, %d asks, %d of them gave the driver its run back", kills, strings.Count(string(asks), `"trial":`), resumed)
	if resumed == 0 {
		t.Errorf("10 kills and no ask gave a run back: the kills missed every run")
	}
	sum, err := openSummary(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, tr := range sum.Trials {
		if tr.Role != tune.RoleCandidate {
			continue
		}
		switch {
		case tr.Decision != "":
			judged++
		case tr.State == "failed" && len(tr.Reasons) > 0:
		default:
			t.Errorf("candidate %d: %s, decision %q, reasons %v: no verdict, no stated failure", tr.Number, tr.State, tr.Decision, tr.Reasons)
		}
	}
	if judged == 0 {
		t.Errorf("no candidate judged: %+v", sum.Trials)
	}
}

// waitStudy returns when study s exists, or the driver ended (done then
// still holds its result), or after 30 s.
func waitStudy(loc string, done chan error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := readStatus(loc); ok {
			return
		}
		select {
		case err := <-done:
			done <- err
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}
