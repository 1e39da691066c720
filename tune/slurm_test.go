package tune_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// The tests below run pareto tune --executor slurm on the one-node test
// cluster (executor/testdata/ci-slurm.sh). They run in parallel: the one
// with a job over its time limit lasts a little over a minute (Slurm's
// smallest limit), the others end while it runs.

// slurmTune returns the arguments of a pareto tune of study s on the
// Slurm cluster, in dir, with a space file there.
func slurmTune(t *testing.T, dir, loc, command string, budget, repeats int, extra ...string) []string {
	t.Helper()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(testSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "--executor", "slurm", "--slurm-poll", "1s", "--store", loc, "--study", "s", "--space", space,
		"--command", command, "--budget", strconv.Itoa(budget), "--repeats", strconv.Itoa(repeats),
		"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "random", "--seed", "4",
		"--work-dir", filepath.Join(dir, "runs")}
	return append(args, extra...)
}

// absSim is the simulator's command with the binary's absolute path (the
// job's shell need not have the test's PATH).
func absSim(bin string) string {
	return strings.ReplaceAll(strings.TrimPrefix(simCommand, "sleep 0.05; "), "pareto simulate", filepath.Join(bin, "pareto")+" simulate")
}

func runTune(t *testing.T, bin, dir string, args []string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "pareto"), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pareto %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestTuneSlurm runs a small tune whose runs are Slurm jobs of the
// simulator: every run completes, with its Slurm job ID as its handle,
// and its batch script and Slurm logs in its folder.
func TestTuneSlurm(t *testing.T) {
	testenv.Slurm(t)
	t.Parallel()
	bin := buildPareto(t)
	dir := t.TempDir()
	loc := filepath.Join(dir, "t.db")
	runTune(t, bin, dir, slurmTune(t, dir, loc, absSim(bin), 4, 2, "--time-limit", "5m"))
	runs := tuneRuns(t, loc)
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	for _, r := range runs {
		if r.State != tunequeue.RunComplete || !isDigits(r.Handle) {
			t.Errorf("run %d: %s (%s), handle %q; want complete with a Slurm job ID", r.ID, r.State, r.Reason, r.Handle)
			continue
		}
		for _, f := range []string{"slurm-job.sh", "slurm-" + r.Handle + ".out", "result.json"} {
			if _, err := os.Stat(filepath.Join(r.Dir, f)); err != nil {
				t.Errorf("run %d: %v", r.ID, err)
			}
		}
	}
}

// TestTuneSlurmFailures: the first run's job is cancelled with scancel
// by someone else, the second one runs past its time limit (one minute,
// Slurm's smallest); both are recorded as failed with Slurm's state.
func TestTuneSlurmFailures(t *testing.T) {
	testenv.Slurm(t)
	t.Parallel()
	bin := buildPareto(t)
	dir := t.TempDir()
	loc := filepath.Join(dir, "t.db")
	cmd := exec.Command(filepath.Join(bin, "pareto"), slurmTune(t, dir, loc, "sleep 600", 2, 2, "--time-limit", "1m")...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	h := waitHandle(t, loc, done, 60*time.Second)
	if b, err := exec.Command("scancel", h).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v\n%s", h, err, b)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tune: %v\n%s", err, out.String())
		}
	case <-time.After(4 * time.Minute):
		t.Fatalf("tune did not end in 4 minutes:\n%s", out.String())
	}
	runs := tuneRuns(t, loc)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2\n%s", len(runs), out.String())
	}
	for i, want := range []string{"CANCELLED", "TIMEOUT"} {
		r := runs[i]
		if r.State != tunequeue.RunFailed || !strings.Contains(r.Reason, want) {
			t.Errorf("run %d: %s, reason %q; want failed with Slurm's %s", r.ID, r.State, r.Reason, want)
		}
	}
	if !strings.HasPrefix(runs[0].Reason, "cancelled:") || runs[0].Handle != h || !strings.HasPrefix(runs[1].Reason, "timeout:") {
		t.Errorf("reasons %q (handle %s), %q; want cancelled: (job %s), timeout:", runs[0].Reason, runs[0].Handle, runs[1].Reason, h)
	}
	st := status(t, bin, loc)
	if st.Failed != 2 || len(st.FailedRuns) != 2 || !strings.Contains(st.FailedRuns[1].Reason, "TIMEOUT") || st.BudgetLeft != 0 {
		t.Errorf("--status %+v; want 2 failed runs with their Slurm states", st)
	}
}

// TestTuneSlurmInterrupt: SIGINT stops a tune whose Slurm job runs: the
// job is cancelled (scancel) and its run queued again.
func TestTuneSlurmInterrupt(t *testing.T) {
	testenv.Slurm(t)
	t.Parallel()
	bin := buildPareto(t)
	dir := t.TempDir()
	loc := filepath.Join(dir, "t.db")
	cmd := exec.Command(filepath.Join(bin, "pareto"), slurmTune(t, dir, loc, "sleep 600", 1, 1)...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	h := waitHandle(t, loc, done, 60*time.Second)
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("interrupted tune: %v\n%s", err, out.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("tune did not stop in a minute after SIGINT:\n%s", out.String())
	}
	// scontrol remembers the ended job for MinJobAge (30 s).
	b, err := exec.Command("scontrol", "show", "job", "-o", h).CombinedOutput()
	if err != nil || !strings.Contains(string(b), "JobState=CANCELLED") {
		t.Errorf("scontrol show job %s: %v\n%s; want CANCELLED", h, err, b)
	}
	if runs := tuneRuns(t, loc); len(runs) != 1 || runs[0].State != tunequeue.RunQueued || runs[0].Attempts != 0 {
		t.Errorf("runs %+v; want the run queued again, no attempt counted", runs)
	}
}

// status runs pareto tune --status --format json, checks it against its
// schema and decodes it.
func status(t *testing.T, bin, loc string) (st struct {
	Failed, BudgetLeft int
	Running            []struct{ Worker, Handle string } `json:"running_runs"`
	FailedRuns         []struct{ Reason, Handle string } `json:"failed_runs"`
}) {
	t.Helper()
	out, err := exec.Command(filepath.Join(bin, "pareto"), "tune", "--status", "--store", loc, "--study", "s", "--format", "json").Output()
	if err != nil {
		t.Fatalf("tune --status: %v", err)
	}
	schematest.Validate(t, "tune-status", out)
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// TestTuneSlurmResume kills a tune (SIGKILL) while its Slurm job runs,
// and starts it again: the new tune waits for that job by its ID instead
// of submitting the run again, and records its result.
func TestTuneSlurmResume(t *testing.T) {
	testenv.Slurm(t)
	t.Parallel()
	bin := buildPareto(t)
	dir := t.TempDir()
	loc := filepath.Join(dir, "t.db")
	args := slurmTune(t, dir, loc, "sleep 8; "+absSim(bin), 1, 1)
	cmd := exec.Command(filepath.Join(bin, "pareto"), args...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	h := waitHandle(t, loc, done, 60*time.Second)
	// --status names the running run's worker and Slurm job.
	st := status(t, bin, loc)
	if len(st.Running) != 1 || st.Running[0].Handle != h || st.Running[0].Worker != fmt.Sprintf("%s:%d", hostname(), cmd.Process.Pid) {
		t.Errorf("--status running_runs %+v; want job %s of worker %d", st.Running, h, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	// The job runs on without its tune.
	if b, err := exec.Command("squeue", "-h", "-j", h, "-o", "%T").Output(); err != nil || strings.TrimSpace(string(b)) == "" {
		t.Fatalf("squeue -j %s: %q, %v; want the job still there", h, b, err)
	}
	second := runTune(t, bin, dir, args)
	if !strings.Contains(second, "waiting for job "+h) {
		t.Errorf("the restarted tune does not say it waits for job %s:\n%s", h, second)
	}
	runs := tuneRuns(t, loc)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	r := runs[0]
	if r.State != tunequeue.RunComplete || r.Handle != h || r.Attempts != 2 {
		t.Errorf("run %d: %s (%s), handle %s, attempts %d; want complete by job %s on the 2nd attempt", r.ID, r.State, r.Reason, r.Handle, r.Attempts, h)
	}
	logs, _ := filepath.Glob(filepath.Join(r.Dir, "slurm-*.out"))
	if len(logs) != 1 || filepath.Base(logs[0]) != "slurm-"+h+".out" {
		t.Errorf("Slurm logs %v; want only job %s's: the run was submitted again", logs, h)
	}
}

// waitHandle returns the Slurm job ID of the study's first running run
// once it has one; the tune must not end first.
func waitHandle(t *testing.T, loc string, done chan error, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("tune ended before its job ran: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
		if s, ok := readStatus(loc); ok && len(s.RunningRuns) > 0 && isDigits(s.RunningRuns[0].Handle) {
			return s.RunningRuns[0].Handle
		}
	}
	t.Fatalf("no running Slurm job after %s", d)
	return ""
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
