package tune_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
)

// TestWorkerProcesses runs pareto tune --worker processes of the built
// binary on one study, pareto simulate as their command: 4 workers on a
// PostgreSQL study, 3 on a SQLite file, each once undisturbed and once
// with one worker killed (SIGKILL) while it holds a run. The budget's 200
// runs are all complete, each recorded its trial once (no run measured
// twice to completion, none lost), the killed worker's run was queued
// again after its lease expired and completed once, and the sampler was
// told every configuration.
func TestWorkerProcesses(t *testing.T) {
	bin := buildPareto(t)
	for _, b := range []struct {
		name    string
		workers int
		loc     func(t *testing.T) string
	}{
		{"postgres", 4, func(t *testing.T) string { return testenv.PostgresDatabase(t) }},
		{"sqlite", 3, func(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") }},
	} {
		for _, kill := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/workers=%d/kill=%v", b.name, b.workers, kill), func(t *testing.T) {
				workerProcesses(t, bin, b.loc(t), b.workers, kill)
			})
		}
	}
}

// workerProc is one pareto tune --worker process.
type workerProc struct {
	cmd  *exec.Cmd
	log  string
	done chan error
}

func startWorker(t *testing.T, bin, dir string, n int, args []string) *workerProc {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "pareto"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	w := &workerProc{cmd: cmd, log: filepath.Join(dir, fmt.Sprintf("worker-%d.log", n)), done: make(chan error, 1)}
	out, err := os.Create(w.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- cmd.Wait(); out.Close() }()
	return w
}

// name is the worker's name in the store (tune.WorkerName).
func (w *workerProc) name() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(w.cmd.Process.Pid)
}

func (w *workerProc) output() string {
	b, _ := os.ReadFile(w.log)
	return string(b)
}

// tuneRuns reads the study's runs.
func tuneRuns(t *testing.T, loc string) []tunequeue.Run {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var runs []tunequeue.Run
	if err := st.(tunequeue.Queue).UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
		var err error
		runs, err = tx.Runs()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return runs
}

// readStatus reads the study's status (ok false before the study exists).
func readStatus(loc string) (tunequeue.Status, bool) {
	ctx := context.Background()
	r, err := store.OpenReadOnly(ctx, loc)
	if err != nil {
		return tunequeue.Status{}, false
	}
	defer r.Close()
	s, err := r.(tunequeue.Queue).TuneStatus(ctx, "s")
	return s, err == nil
}

func workerProcesses(t *testing.T, bin, loc string, n int, kill bool) {
	const budget = 200
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(testSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	command := strings.TrimPrefix(simCommand, "sleep 0.05; ")
	common := []string{"tune", "--worker", "--store", loc, "--study", "s", "--lease", "5s", "--work-dir", filepath.Join(dir, "runs")}
	// The first worker creates the study; the others join it with only
	// the store and the study.
	first := append(append([]string{}, common...), "--space", space, "--command", command, "--budget", strconv.Itoa(budget),
		"--repeats", "2", "--max-runs", "3", "-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "nsga2",
		"--population", "8", "--seed", "11")
	workers := []*workerProc{startWorker(t, bin, dir, 0, first)}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ok := readStatus(loc); ok {
			break
		}
		select {
		case err := <-workers[0].done:
			t.Fatalf("the first worker ended before the study existed: %v\n%s", err, workers[0].output())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no study after 30 s:\n%s", workers[0].output())
		}
	}
	for i := 1; i < n; i++ {
		workers = append(workers, startWorker(t, bin, dir, i, common))
	}
	victim := -1
	var victimRuns []int64 // the runs the killed worker held when it died
	if kill {
		victim = 1 + rand.IntN(n-1)
		w := workers[victim]
		// Kill it at a random moment once the study is under way and the
		// victim holds a run.
		after := 20 + rand.IntN(budget/2)
		deadline := time.Now().Add(60 * time.Second)
		for victimRuns == nil {
			if time.Now().After(deadline) {
				t.Fatalf("worker %d held no run after the %dth run in 60 s", victim, after)
			}
			time.Sleep(time.Duration(rand.IntN(15)) * time.Millisecond)
			s, ok := readStatus(loc)
			if !ok || s.Complete < after {
				continue
			}
			for _, r := range s.RunningRuns {
				if r.Worker == w.name() {
					w.cmd.Process.Signal(syscall.SIGKILL)
					<-w.done
					break
				}
			}
			if w.cmd.ProcessState == nil {
				continue
			}
			victimRuns = []int64{}
			for _, r := range tuneRuns(t, loc) {
				if r.State == tunequeue.RunRunning && r.Worker == w.name() {
					victimRuns = append(victimRuns, r.ID)
				}
			}
		}
		t.Logf("worker %d killed after %d runs, holding runs %v", victim, after, victimRuns)
	}
	for i, w := range workers {
		if i == victim {
			continue
		}
		select {
		case err := <-w.done:
			if err != nil {
				t.Fatalf("worker %d: %v\n%s", i, err, w.output())
			}
		case <-time.After(3 * time.Minute):
			w.cmd.Process.Kill()
			t.Fatalf("worker %d did not finish in 3 minutes:\n%s", i, w.output())
		}
	}

	s, ok := readStatus(loc)
	if !ok || s.Complete != budget || s.Failed != 0 || s.Queued+s.Running != 0 || s.BudgetLeft != 0 {
		t.Fatalf("status %+v: want all %d runs complete", s, budget)
	}
	ran := map[string]int{} // workers and the runs they completed
	perConfig := map[int]int{}
	for _, r := range tuneRuns(t, loc) {
		perConfig[r.Number]++
		if r.State != tunequeue.RunComplete {
			t.Errorf("run %d is %s (%s)", r.ID, r.State, r.Reason)
		}
		ran[r.Worker]++
		if kill && victimRuns != nil && slices.Contains(victimRuns, r.ID) {
			if r.Attempts != 2 || r.Worker == workers[victim].name() {
				t.Errorf("the killed worker's run %d: attempts %d, worker %s; want completed by another worker on its 2nd attempt",
					r.ID, r.Attempts, r.Worker)
			}
		} else if r.Attempts != 1 {
			t.Errorf("run %d was claimed %d times (%s)", r.ID, r.Attempts, r.Reason)
		}
	}
	t.Logf("runs completed per worker: %v", ran)
	// One session (workers join it), --max-runs 3: a configuration with
	// more runs was proposed twice (a generation bred twice) or had the
	// gate's request for more runs doubled by two workers.
	for n, k := range perConfig {
		if k > 3 {
			t.Errorf("configuration %d has %d runs, more than --max-runs 3", n, k)
		}
	}
	for i, w := range workers {
		if i != victim && ran[w.name()] == 0 {
			t.Errorf("worker %d completed no run: %v", i, ran)
		}
	}
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
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
	for run, k := range perRun {
		if k != 1 {
			t.Errorf("run %s recorded %d trials, want 1", run, k)
		}
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
