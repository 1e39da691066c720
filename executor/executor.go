// Package executor runs the trials a tuning loop proposes: one command per
// trial, on this machine (Local) or as a batch job of a cluster scheduler
// (Slurm), behind one interface so that pareto tune and its workers do not
// know where a trial runs.
//
// An Executor starts a Job and returns a Handle, a string the caller
// records in its store before waiting, so that a restarted driver can wait
// for (Wait) or cancel (Cancel) a job a previous process started, where
// the executor supports it (a Slurm job outlives its submitter; a local
// process does not, and Wait on a handle from another process says so
// with ErrLost). Wait returns when the job has ended, with its final
// Status; the result files are then in Job.Dir.
package executor

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"
)

// Job is one trial to run.
type Job struct {
	// ID names the trial in its study; it is stable across restarts and
	// unique within the study.
	ID string
	// Command is the shell command line to run (already expanded from
	// the template), run by /bin/sh -c in Dir.
	Command string
	// Dir is the job's own folder: its working directory, where its
	// result files and its stdout/stderr logs are written.
	Dir string
	// Env holds extra environment variables as NAME=VALUE, such as the
	// trial's parameters (PARETO_PARAM_<NAME>) and PARETO_TRIAL.
	Env []string
	// Resources is what a scheduler allocates to the job; Local ignores
	// what it cannot enforce and applies TimeLimit.
	Resources Resources
}

// Resources is what a job asks of a scheduler.
type Resources struct {
	Nodes       int           // nodes (0: the scheduler's default)
	GPUsPerNode int           // GPUs on each node (0: none requested)
	TimeLimit   time.Duration // wall-clock limit (0: none)
	Partition   string        // scheduler partition ("" default)
	Account     string        // account to charge ("" default)
}

// Handle identifies a started job to its executor: a process ID for
// Local, a job ID for Slurm. It is what a driver records to resume.
type Handle string

// State is how a job ended, or that it has not yet.
type State string

// The states of a job. Every state but Pending and Running is final.
const (
	Pending     State = "pending"
	Running     State = "running"
	Completed   State = "completed" // exit status 0
	Failed      State = "failed"    // non-zero exit status or a scheduler failure
	TimedOut    State = "timeout"   // over Resources.TimeLimit
	Cancelled   State = "cancelled" // cancelled by Cancel, scancel or a signal
	OutOfMemory State = "out_of_memory"
	NodeFail    State = "node_fail"
	Preempted   State = "preempted"
)

// Final reports whether s is a state a job does not leave.
func (s State) Final() bool { return s != Pending && s != Running && s != "" }

// Status is a job's state with the detail a failure is recorded with.
type Status struct {
	State State
	// ExitCode is the command's exit status when it ran to an end.
	ExitCode int
	// Reason says why a job did not complete, in words a user can act
	// on (the scheduler's state and reason, the signal, the time limit).
	Reason string
	// Native is the executor's own name for the state (Slurm's
	// "OUT_OF_MEMORY"), empty for Local.
	Native string
}

// ErrLost is returned by Wait and Cancel for a handle this executor can
// no longer follow (a local process started by a process that ended).
var ErrLost = errors.New("executor: job lost: it was started by a process that ended")

// Executor starts jobs and waits for them.
type Executor interface {
	// Start starts j and returns its handle without waiting for it.
	Start(ctx context.Context, j Job) (Handle, error)
	// Wait blocks until the job of h has ended, or ctx is done.
	Wait(ctx context.Context, h Handle) (Status, error)
	// Cancel stops the job of h; Wait then returns Cancelled.
	Cancel(ctx context.Context, h Handle) error
}

// Follower is an Executor whose jobs outlive the process that started
// them (Slurm), so that another process can follow a job by its handle:
// Status says whether the executor knows the job of h (known) and how it
// stands. A driver that takes over the run of a lost worker (or of a
// killed tune) waits for that job instead of starting it again when
// Status knows it.
type Follower interface {
	Executor
	Status(ctx context.Context, h Handle) (st Status, known bool, err error)
}

var _ Follower = (*Slurm)(nil)

// IsOwnFile reports whether name, a file at the top of a job's folder,
// is one an executor writes there (Local's stdout.log and stderr.log,
// Slurm's batch scripts and slurm-*.out and .err logs) rather than a
// result of the job's command.
func IsOwnFile(name string) bool {
	switch {
	case name == StdoutFile, name == StderrFile, name == ScriptName, name == "slurm-array.sh":
		return true
	case strings.HasPrefix(name, "slurm-") && (strings.HasSuffix(name, ".out") || strings.HasSuffix(name, ".err")):
		return true
	}
	return false
}

// ErrorLog returns the path of the stderr log of the job of h in its
// folder dir: Slurm's slurm-<job ID>.err for a Slurm handle, Local's
// stderr.log otherwise.
func ErrorLog(dir string, h Handle) string {
	if isJobID(string(h)) {
		return filepath.Join(dir, "slurm-"+string(h)+".err")
	}
	return filepath.Join(dir, StderrFile)
}
