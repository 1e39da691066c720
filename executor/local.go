package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Local runs each job as a process of this machine: /bin/sh -c Command in
// Dir, with the environment of this process (without the store's
// settings, StoreEnv) plus Job.Env, its standard
// output and error written to Dir/stdout.log and Dir/stderr.log. It
// applies Resources.TimeLimit and ignores the other resources. Each job
// runs in a process group of its own, which Cancel and the time limit
// stop (SIGTERM, then SIGKILL after Grace).
//
// A local process belongs to the process that started it: Wait and
// Cancel on a handle that another Local (another process, or a process
// that ended) returned are ErrLost. The zero Local is ready to use; it is
// safe for concurrent use.
type Local struct {
	// Environ is the environment every job starts from, before its
	// Job.Env; nil is Environ(nil, nil): this process's without the
	// store's settings (StoreEnv).
	Environ []string
	// Grace is how long a stopped job has between SIGTERM and SIGKILL
	// (DefaultGrace when zero).
	Grace time.Duration

	mu   sync.Mutex
	jobs map[Handle]*localJob
}

// DefaultGrace is the time a stopped local job has to exit on SIGTERM.
const DefaultGrace = 5 * time.Second

// The files Local writes a job's output to, in Job.Dir.
const (
	StdoutFile = "stdout.log"
	StderrFile = "stderr.log"
)

type localJob struct {
	cmd  *exec.Cmd
	done chan struct{}
	// Set before done is closed.
	status Status
	// Why the job was stopped, if it was (Cancelled or TimedOut).
	mu      sync.Mutex
	stopped State
	timer   *time.Timer
}

var _ Executor = (*Local)(nil)

// Start starts j and returns its handle ("pid:N"). A job ended by a
// signal has ExitCode -1.
func (l *Local) Start(ctx context.Context, j Job) (Handle, error) {
	if j.Dir == "" {
		return "", fmt.Errorf("executor: job %s: no directory", j.ID)
	}
	if err := os.MkdirAll(j.Dir, 0o755); err != nil {
		return "", fmt.Errorf("executor: job %s: %w", j.ID, err)
	}
	stdout, err := os.Create(filepath.Join(j.Dir, StdoutFile))
	if err != nil {
		return "", fmt.Errorf("executor: job %s: %w", j.ID, err)
	}
	stderr, err := os.Create(filepath.Join(j.Dir, StderrFile))
	if err != nil {
		stdout.Close()
		return "", fmt.Errorf("executor: job %s: %w", j.ID, err)
	}
	cmd := exec.Command("/bin/sh", "-c", j.Command)
	cmd.Dir = j.Dir
	base := l.Environ
	if base == nil {
		base = Environ(nil, nil)
	}
	cmd.Env = append(slices.Clip(base), j.Env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	stdout.Close()
	stderr.Close()
	if err != nil {
		return "", fmt.Errorf("executor: job %s: starting %q: %w", j.ID, j.Command, err)
	}
	job := &localJob{cmd: cmd, done: make(chan struct{})}
	h := Handle("pid:" + strconv.Itoa(cmd.Process.Pid))
	if lim := j.Resources.TimeLimit; lim > 0 {
		job.timer = time.AfterFunc(lim, func() { l.stop(job, TimedOut) })
	}
	l.mu.Lock()
	if l.jobs == nil {
		l.jobs = map[Handle]*localJob{}
	}
	l.jobs[h] = job
	l.mu.Unlock()
	go func() {
		err := cmd.Wait()
		if job.timer != nil {
			job.timer.Stop()
		}
		job.status = job.end(err, j.Resources.TimeLimit)
		close(job.done)
	}()
	return h, nil
}

// end turns the process's exit into a Status.
func (job *localJob) end(err error, limit time.Duration) Status {
	job.mu.Lock()
	stopped := job.stopped
	job.mu.Unlock()
	code := job.cmd.ProcessState.ExitCode()
	switch {
	case stopped == TimedOut:
		return Status{State: TimedOut, ExitCode: code, Reason: fmt.Sprintf("over its time limit of %s", limit)}
	case stopped == Cancelled:
		return Status{State: Cancelled, ExitCode: code, Reason: "cancelled"}
	case err == nil:
		return Status{State: Completed}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return Status{State: Cancelled, ExitCode: code, Reason: "killed by signal " + ws.Signal().String()}
		}
		return Status{State: Failed, ExitCode: code, Reason: fmt.Sprintf("exit status %d", code)}
	}
	return Status{State: Failed, ExitCode: code, Reason: err.Error()}
}

// stop ends the job's process group: SIGTERM, then SIGKILL after the
// grace period.
func (l *Local) stop(job *localJob, why State) {
	job.mu.Lock()
	if job.stopped == "" {
		job.stopped = why
	}
	job.mu.Unlock()
	pid := job.cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGTERM)
	grace := l.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	go func() {
		select {
		case <-job.done:
		case <-time.After(grace):
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}()
}

func (l *Local) job(h Handle) (*localJob, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	job, ok := l.jobs[h]
	if !ok {
		if !strings.HasPrefix(string(h), "pid:") {
			return nil, fmt.Errorf("executor: %q is not a local job handle", h)
		}
		return nil, fmt.Errorf("%w (handle %s)", ErrLost, h)
	}
	return job, nil
}

// Wait blocks until the job of h has ended, or ctx is done.
func (l *Local) Wait(ctx context.Context, h Handle) (Status, error) {
	job, err := l.job(h)
	if err != nil {
		return Status{}, err
	}
	select {
	case <-job.done:
		return job.status, nil
	case <-ctx.Done():
		return Status{State: Running}, ctx.Err()
	}
}

// Cancel stops the job of h (SIGTERM to its process group, SIGKILL after
// Grace); Wait then returns Cancelled. Cancelling a job that has ended
// does nothing.
func (l *Local) Cancel(ctx context.Context, h Handle) error {
	job, err := l.job(h)
	if err != nil {
		return err
	}
	select {
	case <-job.done:
		return nil
	default:
	}
	l.stop(job, Cancelled)
	return nil
}
