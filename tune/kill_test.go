package tune_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
)

// buildPareto builds the pareto command into a temporary folder and
// returns the folder (for PATH).
func buildPareto(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "pareto"), "github.com/pareto-llm/pareto/cmd/pareto")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building pareto: %v\n%s", err, out)
	}
	return dir
}

const testSpace = `
[params.max_num_seqs]
values = [64, 128, 256, 512]
default = 256

[params.enable_chunked_prefill]
values = [true, false]
default = true

[params.max_num_batched_tokens]
values = [2048, 8192]
default = 8192
`

// simCommand runs the simulator with the run's parameters; the sleep
// gives the kills a moment inside a run. Its seed is random, not
// PARETO_SEED: a run measured twice would record two different trials.
const simCommand = `sleep 0.05; pareto simulate --param max_num_seqs={max_num_seqs} --param enable_chunked_prefill={enable_chunked_prefill} ` +
	`--param max_num_batched_tokens={max_num_batched_tokens} --seed $(od -An -N4 -tu4 /dev/urandom) --out result.json`

// TestTuneKilled runs pareto tune on the simulator, kills it with
// SIGKILL at random moments, and runs it again until it finishes: every
// run of the budget is complete exactly once, none is lost, and each
// complete run recorded its trial once.
func TestTuneKilled(t *testing.T) {
	bin := buildPareto(t)
	t.Run("sqlite", func(t *testing.T) { killLoop(t, bin, filepath.Join(t.TempDir(), "t.db")) })
	t.Run("postgres", func(t *testing.T) { killLoop(t, bin, freshPostgres(t)) })
}

func killLoop(t *testing.T, bin, loc string) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(testSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	const budget = 24
	args := []string{"tune", "--store", loc, "--study", "s", "--space", space, "--command", simCommand, "--budget", strconv.Itoa(budget),
		"--repeats", "2", "--max-runs", "3", "-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "sobol", "--seed", "3",
		"--work-dir", filepath.Join(dir, "runs")}
	rng := rand.New(rand.NewPCG(7, 7))
	kills := 0
	for attempt := 0; ; attempt++ {
		if attempt > 12 {
			t.Fatal("tune did not finish in 12 attempts")
		}
		cmd := exec.Command(filepath.Join(bin, "pareto"), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		out, err := os.Create(filepath.Join(dir, fmt.Sprintf("out-%d.log", attempt)))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if attempt < 10 {
			// Kill at a random moment after this tune has started a run
			// (opening a PostgreSQL store under load can take longer than
			// the whole random wait).
			waitRunning(t, loc, done)
			select {
			case err := <-done:
				out.Close()
				if err != nil {
					b, _ := os.ReadFile(out.Name())
					t.Fatalf("tune: %v\n%s", err, b)
				}
				goto finished
			case <-time.After(time.Duration(rng.IntN(250)) * time.Millisecond):
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				out.Close()
				kills++
				continue
			}
		}
		if err := <-done; err != nil {
			b, _ := os.ReadFile(out.Name())
			t.Fatalf("tune: %v\n%s", err, b)
		}
		out.Close()
		break
	}
finished:
	t.Logf("%d kills", kills)
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.(tunequeue.Queue).TuneStatus(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if s.Complete+s.Failed != budget || s.Queued != 0 || s.Running != 0 || s.BudgetLeft != 0 {
		t.Errorf("status %+v: want %d runs ended, none queued or running", s, budget)
	}
	retried := 0
	st.(tunequeue.Queue).UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
		runs, err := tx.Runs()
		for _, r := range runs {
			if r.Attempts > 1 {
				retried++
			}
		}
		return err
	})
	t.Logf("%d runs complete, %d failed, %d claimed again after a kill", s.Complete, s.Failed, retried)
	if kills > 3 && retried == 0 {
		t.Errorf("%d kills and no run claimed again: the kills missed every run", kills)
	}
	trials, err := st.Trials(ctx, "s", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	perRun := map[string]int{}
	for _, tr := range trials {
		perRun[tr.Labels[tune.LabelRun]]++
	}
	if len(perRun) != s.Complete {
		t.Errorf("%d runs recorded trials, %d runs complete", len(perRun), s.Complete)
	}
	for run, n := range perRun {
		if n != 1 {
			t.Errorf("run %s recorded %d trials, want 1", run, n)
		}
	}
	// The sampler was told every configuration once: none still running.
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

// waitRunning returns when the study has a running run, or the tune
// ended (done then still holds its result), or after 10 s.
func waitRunning(t *testing.T, loc string, done chan error) {
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			done <- err
			return
		case <-time.After(10 * time.Millisecond):
		}
		r, err := store.OpenReadOnly(ctx, loc)
		if err != nil {
			continue // not created or migrated yet
		}
		s, err := r.(tunequeue.Queue).TuneStatus(ctx, "s")
		r.Close()
		if err == nil && s.Running > 0 {
			return
		}
	}
}

func openSummary(ctx context.Context, st store.Store) (tune.Summary, error) {
	tu, err := tune.OpenExisting(ctx, st, "s")
	if err != nil {
		return tune.Summary{}, err
	}
	return tu.Summarize(ctx)
}

// freshPostgres creates an empty database for the test.
func freshPostgres(t *testing.T) string {
	base := testenv.PostgresURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("pareto_tune_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, base); err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name)
}

// TestTuneInterrupt sends SIGINT to a tune whose run takes long: it
// cancels the job, queues its run again, prints the summary and exits 0
// promptly; a tune started again completes the study.
func TestTuneInterrupt(t *testing.T) {
	bin := buildPareto(t)
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(testSpace), 0o644)
	loc := filepath.Join(dir, "t.db")
	args := func(command string) []string {
		return []string{"tune", "--store", loc, "--study", "s", "--space", space, "--command", command, "--budget", "4",
			"--repeats", "2", "-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "random", "--work-dir", filepath.Join(dir, "runs")}
	}
	cmd := exec.Command(filepath.Join(bin, "pareto"), args("sleep 60")...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("interrupted tune: %v\n%s", err, stderr.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s to stop", d)
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stdout.String(), "study s:") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.(tunequeue.Queue).TuneStatus(ctx, "s")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if s.Running != 0 || s.Queued != 2 || s.Complete+s.Failed != 0 {
		t.Errorf("after SIGINT: %+v, want the 2 baseline runs queued", s)
	}
	// The next tune (with a command that finishes) resumes the study.
	cmd = exec.Command(filepath.Join(bin, "pareto"), args(simCommand)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("resumed tune: %v\n%s", err, out)
	}
	st, err = store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s, err = st.(tunequeue.Queue).TuneStatus(ctx, "s"); err != nil || s.Complete != 4 || s.Queued+s.Running != 0 {
		t.Errorf("after the resumed tune: %+v, %v; want 4 complete", s, err)
	}
}
