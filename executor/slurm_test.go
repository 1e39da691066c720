package executor_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/testenv"
)

// The tests below submit real jobs to the one-node test cluster
// (executor/testdata/ci-slurm.sh, started by scripts/deps.sh). They run in
// parallel: the time-limit test lasts a little over a minute, Slurm's
// smallest limit, and the others end while it runs.

// newSlurm returns a Slurm executor that polls every second.
func newSlurm(t *testing.T, cfg executor.SlurmConfig) *executor.Slurm {
	t.Helper()
	testenv.Slurm(t)
	if cfg.PollInterval == 0 {
		cfg.PollInterval = time.Second
	}
	s, err := executor.NewSlurm(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// slurmCtx bounds a test's waiting.
func slurmCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// run starts j and waits for it.
func run(t *testing.T, s *executor.Slurm, j executor.Job, d time.Duration) (executor.Handle, executor.Status) {
	t.Helper()
	ctx := slurmCtx(t, d)
	h, err := s.Start(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Cancel(context.Background(), h) })
	st, err := s.Wait(ctx, h)
	if err != nil {
		t.Fatalf("Wait(%s): %v", h, err)
	}
	t.Logf("job %s: %+v", h, st)
	return h, st
}

var (
	paretoOnce sync.Once
	paretoBin  string
	paretoErr  error
)

// pareto builds the pareto command once for the tests of this package.
func pareto(t *testing.T) string {
	t.Helper()
	paretoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pareto-slurm-bin-")
		if err != nil {
			paretoErr = err
			return
		}
		paretoBin = filepath.Join(dir, "pareto")
		out, err := exec.Command("go", "build", "-o", paretoBin, "github.com/pareto-llm/pareto/cmd/pareto").CombinedOutput()
		if err != nil {
			paretoErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if paretoErr != nil {
		t.Fatal(paretoErr)
	}
	return paretoBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if paretoBin != "" {
		os.RemoveAll(filepath.Dir(paretoBin))
	}
	os.Exit(code)
}

// TestSlurmSimulate runs pareto simulate as a Slurm job: it completes, its
// parameters reach it as environment variables and its result file and
// logs are in Job.Dir, which Start creates.
func TestSlurmSimulate(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	bin := pareto(t)
	dir := filepath.Join(t.TempDir(), "trials", "sim-1") // Start creates it
	h, st := run(t, s, executor.Job{
		ID:      "sim-1",
		Command: `"$PARETO_BIN" simulate --param tp="$PARETO_PARAM_TP" --param concurrency="$PARETO_PARAM_CONCURRENCY" --seed 1 --out result.json && echo "trial $PARETO_TRIAL done"`,
		Dir:     dir,
		Env:     []string{"PARETO_BIN=" + bin, "PARETO_PARAM_TP=2", "PARETO_PARAM_CONCURRENCY=16", "PARETO_TRIAL=sim 1 'quoted'"},
	}, 2*time.Minute)
	if st.State != executor.Completed || st.ExitCode != 0 || st.Native != "COMPLETED" || st.Reason != "" {
		t.Fatalf("status = %+v; want completed, exit code 0, native COMPLETED, no reason", st)
	}
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatalf("the job's result file: %v", err)
	}
	var res struct {
		Label       string         `json:"label"`
		Concurrency int            `json:"max_concurrency"`
		ServerArgs  map[string]any `json:"server_args"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("result.json: %v", err)
	}
	if res.Label != "simulated" || res.Concurrency != 16 {
		t.Errorf("result.json: label %q, max_concurrency %d; want simulated, 16 (from PARETO_PARAM_CONCURRENCY)", res.Label, res.Concurrency)
	}
	if tp, _ := res.ServerArgs["tensor_parallel_size"].(float64); tp != 2 {
		t.Errorf("result.json: server_args.tensor_parallel_size = %v; want 2 (from PARETO_PARAM_TP)", res.ServerArgs["tensor_parallel_size"])
	}
	out, err := os.ReadFile(filepath.Join(dir, "slurm-"+string(h)+".out"))
	if err != nil {
		t.Fatalf("the job's stdout log: %v", err)
	}
	if want := "trial sim 1 'quoted' done"; !strings.Contains(string(out), want) {
		t.Errorf("stdout log = %q; want it to contain %q", out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, executor.ScriptName)); err != nil {
		t.Errorf("the batch script is not kept in Job.Dir: %v", err)
	}
}

// TestSlurmFailed: a command exiting 3 is a failed job with exit code 3
// and its stderr in the job's error log.
func TestSlurmFailed(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	dir := t.TempDir()
	h, st := run(t, s, executor.Job{ID: "fail", Command: "echo broken >&2; exit 3", Dir: dir}, 2*time.Minute)
	if st.State != executor.Failed || st.ExitCode != 3 || st.Native != "FAILED" {
		t.Errorf("status = %+v; want failed, exit code 3, native FAILED", st)
	}
	if !strings.Contains(st.Reason, "FAILED") || !strings.Contains(st.Reason, "exit code 3") {
		t.Errorf("reason = %q; want Slurm's state and the exit code", st.Reason)
	}
	errLog, err := os.ReadFile(filepath.Join(dir, "slurm-"+string(h)+".err"))
	if err != nil || !strings.Contains(string(errLog), "broken") {
		t.Errorf("stderr log = %q, %v; want the command's stderr", errLog, err)
	}
}

// waitRunning polls until Slurm runs the job of h.
func waitRunning(t *testing.T, ctx context.Context, s *executor.Slurm, h executor.Handle) {
	t.Helper()
	for {
		st, known, err := s.Status(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		if known && st.State == executor.Running {
			return
		}
		if known && st.State.Final() {
			t.Fatalf("job %s ended before it was cancelled: %+v", h, st)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s did not start: %v", h, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// TestSlurmCancel: a running job cancelled with scancel (Cancel) is
// Cancelled, with Slurm's state; cancelling it again does nothing.
func TestSlurmCancel(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	ctx := slurmCtx(t, 2*time.Minute)
	h, err := s.Start(ctx, executor.Job{ID: "cancel", Command: "sleep 300", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, ctx, s, h)
	if err := s.Cancel(ctx, h); err != nil {
		t.Fatal(err)
	}
	st, err := s.Wait(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != executor.Cancelled || !strings.HasPrefix(st.Native, "CANCELLED") || !strings.Contains(st.Reason, "CANCELLED") {
		t.Errorf("status = %+v; want cancelled with Slurm's state CANCELLED", st)
	}
	if err := s.Cancel(ctx, h); err != nil {
		t.Errorf("Cancel of an ended job: %v; want nil", err)
	}
}

// TestSlurmTimeLimit: a job sleeping past its time limit (30 s, rounded
// up to Slurm's one minute) is TimedOut.
func TestSlurmTimeLimit(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	_, st := run(t, s, executor.Job{
		ID: "timeout", Command: "sleep 600", Dir: t.TempDir(),
		Resources: executor.Resources{TimeLimit: 30 * time.Second},
	}, 4*time.Minute)
	if st.State != executor.TimedOut || st.Native != "TIMEOUT" || !strings.Contains(st.Reason, "TIMEOUT") {
		t.Errorf("status = %+v; want timeout, native TIMEOUT", st)
	}
}

// TestSlurmResume: a new executor (a restarted driver) waits for a job
// another one submitted, by its handle alone.
func TestSlurmResume(t *testing.T) {
	t.Parallel()
	first := newSlurm(t, executor.SlurmConfig{})
	dir := t.TempDir()
	ctx := slurmCtx(t, 2*time.Minute)
	h, err := first.Start(ctx, executor.Job{ID: "resume", Command: "sleep 2; echo 42 > answer; exit 7", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	second := newSlurm(t, executor.SlurmConfig{})
	st, err := second.Wait(ctx, executor.Handle(string(h)))
	if err != nil {
		t.Fatal(err)
	}
	if st.State != executor.Failed || st.ExitCode != 7 {
		t.Errorf("status = %+v; want failed with exit code 7", st)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "answer")); err != nil || strings.TrimSpace(string(b)) != "42" {
		t.Errorf("answer = %q, %v; want 42", b, err)
	}
	// Once more, after the job ended: the same final status.
	again, err := newSlurm(t, executor.SlurmConfig{}).Wait(ctx, h)
	if err != nil || again != st {
		t.Errorf("Wait after the end = %+v, %v; want %+v", again, err, st)
	}
}

// TestSlurmForgotten: once slurmctld has forgotten a job (MinJobAge, 30 s
// on the test cluster, then its purge a minute at most later), squeue and
// scontrol no longer know it and its status comes from sacct (here the job
// completion log, the cluster keeps no accounting database).
func TestSlurmForgotten(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	h, st := run(t, s, executor.Job{ID: "forgotten", Command: "exit 5", Dir: t.TempDir()}, 2*time.Minute)
	ctx := slurmCtx(t, 3*time.Minute)
	for {
		out, err := exec.CommandContext(ctx, "scontrol", "show", "job", "-o", string(h)).CombinedOutput()
		if err != nil && strings.Contains(string(out), "Invalid job id") {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("slurmctld still remembers job %s after 3 minutes: %s", h, out)
		}
		time.Sleep(2 * time.Second)
	}
	got, err := newSlurm(t, executor.SlurmConfig{}).Wait(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != executor.Failed || got.ExitCode != 5 || got.Native != "FAILED" {
		t.Errorf("status from sacct = %+v; want failed, exit code 5, native FAILED (scontrol said %+v)", got, st)
	}
}

// TestSlurmUnknownJob: a job ID no Slurm command knows is lost after
// LostAfter; a handle that is not a job ID is an error at once.
func TestSlurmUnknownJob(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{LostAfter: 2 * time.Second, PollInterval: 500 * time.Millisecond})
	ctx := slurmCtx(t, time.Minute)
	if _, err := s.Wait(ctx, "999999"); !errors.Is(err, executor.ErrLost) {
		t.Errorf("Wait(999999) = %v; want ErrLost", err)
	}
	if _, err := s.Wait(ctx, "12; rm -rf /"); err == nil || errors.Is(err, executor.ErrLost) {
		t.Errorf("Wait of a bad handle = %v; want an error saying it is no job ID", err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Wait(done, "999999"); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait with a cancelled context = %v; want context.Canceled", err)
	}
}

// TestSlurmTemplate runs a job from a user template file (a partition
// named by the config's defaults, a line of its own).
func TestSlurmTemplate(t *testing.T) {
	t.Parallel()
	tmpl := filepath.Join(t.TempDir(), "job.sh.tmpl")
	if err := os.WriteFile(tmpl, []byte(`#!/bin/bash
#SBATCH --job-name={{.JobName}}
#SBATCH --output="{{.Output}}"
#SBATCH --error="{{.Error}}"
{{if .Partition}}#SBATCH --partition={{.Partition}}{{end}}
#SBATCH --time={{.TimeLimitMinutes}}
{{range .Env}}export {{.Name}}={{quote .Value}}
{{end}}cd {{quote .Dir}}
echo "site template for $PARETO_TRIAL" > template.txt
/bin/sh -c {{quote .Command}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSlurm(t, executor.SlurmConfig{
		Template: tmpl,
		Defaults: executor.Resources{Partition: "debug", TimeLimit: 5 * time.Minute},
	})
	dir := t.TempDir()
	_, st := run(t, s, executor.Job{ID: "tmpl", Command: "echo ok > out.txt", Dir: dir, Env: []string{"PARETO_TRIAL=t7"}}, 2*time.Minute)
	if st.State != executor.Completed {
		t.Fatalf("status = %+v; want completed", st)
	}
	for name, want := range map[string]string{"template.txt": "site template for t7", "out.txt": "ok"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || strings.TrimSpace(string(b)) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

// TestSlurmBatch submits four jobs as one job array: each task runs in its
// own folder with its own environment and ends in its own state; one is
// cancelled alone; a new executor waits on a task by its handle.
func TestSlurmBatch(t *testing.T) {
	t.Parallel()
	s := newSlurm(t, executor.SlurmConfig{})
	ctx := slurmCtx(t, 2*time.Minute)
	root := t.TempDir()
	var jobs []executor.Job
	for i, cmd := range []string{`echo "$PARETO_TRIAL" > trial.txt`, "exit 2", `echo "$PARETO_TRIAL" > trial.txt; echo to stdout`, "sleep 300"} {
		id := "gen1-" + string(rune('a'+i))
		jobs = append(jobs, executor.Job{ID: id, Command: cmd, Dir: filepath.Join(root, id), Env: []string{"PARETO_TRIAL=" + id}})
	}
	hs, err := s.StartBatch(ctx, jobs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, h := range hs {
			s.Cancel(context.Background(), h)
		}
	})
	if len(hs) != len(jobs) {
		t.Fatalf("StartBatch returned %d handles for %d jobs", len(hs), len(jobs))
	}
	waitRunning(t, ctx, s, hs[3])
	if err := s.Cancel(ctx, hs[3]); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		state executor.State
		code  int
	}{{executor.Completed, 0}, {executor.Failed, 2}, {executor.Completed, 0}, {executor.Cancelled, -1}}
	for i, h := range hs {
		st, err := newSlurm(t, executor.SlurmConfig{}).Wait(ctx, h)
		if err != nil {
			t.Fatalf("Wait(%s): %v", h, err)
		}
		t.Logf("task %s: %+v", h, st)
		if st.State != want[i].state || st.ExitCode != want[i].code {
			t.Errorf("task %s (%s): %+v; want %s, exit code %d", h, jobs[i].ID, st, want[i].state, want[i].code)
		}
	}
	for _, i := range []int{0, 2} {
		b, err := os.ReadFile(filepath.Join(jobs[i].Dir, "trial.txt"))
		if err != nil || strings.TrimSpace(string(b)) != jobs[i].ID {
			t.Errorf("%s/trial.txt = %q, %v; want %s", jobs[i].ID, b, err, jobs[i].ID)
		}
	}
	if b, err := os.ReadFile(filepath.Join(jobs[2].Dir, "slurm-"+string(hs[2])+".out")); err != nil || strings.TrimSpace(string(b)) != "to stdout" {
		t.Errorf("task 2's stdout log = %q, %v; want %q", b, err, "to stdout")
	}
}

// TestSlurmEnviron: a Slurm job inherits the environment of the
// submitting process (sbatch --export=ALL) without the store's settings
// (PARETO_STORE, PGPASSWORD) and without the variables holding the
// store's password, but for those kept.
func TestSlurmEnviron(t *testing.T) {
	testenv.Slurm(t)
	const pw = "s3cretPW-4242"
	t.Setenv("PARETO_STORE", "postgres://u:"+pw+"@db/p")
	t.Setenv("PGPASSWORD", pw)
	t.Setenv("DATABASE_URL", "postgres://u:"+pw+"@db/other")
	t.Setenv("HF_TOKEN", "hf_kept")
	for _, tt := range []struct {
		name      string
		environ   []string
		gone, has []string
	}{
		{"default", nil, []string{"PARETO_STORE", "PGPASSWORD"}, []string{"DATABASE_URL", "HF_TOKEN"}},
		{"store password hidden, one kept", executor.Environ([]string{"PGPASSWORD"}, []string{pw}), []string{"PARETO_STORE", "DATABASE_URL"}, []string{"PGPASSWORD", "HF_TOKEN"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSlurm(t, executor.SlurmConfig{Environ: tt.environ})
			dir := t.TempDir()
			_, st := run(t, s, executor.Job{ID: "env", Command: "env > env.txt", Dir: dir, Env: []string{"PARETO_RUN=1"}}, 2*time.Minute)
			if st.State != executor.Completed {
				t.Fatalf("status %+v", st)
			}
			b, err := os.ReadFile(filepath.Join(dir, "env.txt"))
			if err != nil {
				t.Fatal(err)
			}
			env := "\n" + string(b)
			for _, name := range tt.gone {
				if strings.Contains(env, "\n"+name+"=") {
					t.Errorf("the job has %s", name)
				}
			}
			for _, name := range append(tt.has, "PARETO_RUN") {
				if !strings.Contains(env, "\n"+name+"=") {
					t.Errorf("the job lacks %s", name)
				}
			}
		})
	}
}
