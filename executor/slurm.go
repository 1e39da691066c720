package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"text/template"
	"time"
)

// SlurmConfig configures a Slurm executor. Its zero value submits with
// the built-in template, the commands found on PATH and the cluster's
// defaults for every resource.
type SlurmConfig struct {
	// Sbatch, Squeue, Sacct, Scontrol and Scancel are the paths of
	// Slurm's commands; an empty one is looked up on PATH by its name.
	Sbatch, Squeue, Sacct, Scontrol, Scancel string
	// Template is the path of a batch script template (a Go
	// text/template over SlurmScript, see DefaultSlurmTemplate); empty
	// for the built-in one.
	Template string
	// Defaults are the resources of a job whose Job.Resources leaves a
	// field zero (pareto tune's --partition, --account, --nodes,
	// --gpus-per-node, --time-limit).
	Defaults Resources
	// GPUOption says how GPUs are asked for: "gpus-per-node" (the
	// default, --gpus-per-node=N) or "gres" (--gres=gpu:N, for clusters
	// configured with generic resources only).
	GPUOption string
	// JobNamePrefix starts every Slurm job name (then Job.ID); empty is
	// "pareto-".
	JobNamePrefix string
	// SbatchArgs are extra arguments for every sbatch call, before the
	// script (such as --qos=normal or --exclusive).
	SbatchArgs []string
	// Environ is the environment of the Slurm commands, and so of every
	// job (sbatch exports its own environment to the job, --export=ALL);
	// nil is Environ(nil, nil): this process's without the store's
	// settings (StoreEnv).
	Environ []string
	// PollInterval is how often Wait asks Slurm about a job; 0 is 10 s.
	PollInterval time.Duration
	// LostAfter is how long Wait keeps asking about a job that no Slurm
	// command knows (sacct records a job some time after squeue drops
	// it; slurmctld may be restarting) before it returns ErrLost; 0 is
	// 5 minutes.
	LostAfter time.Duration
}

// Slurm runs each job as a Slurm batch job: Start writes its batch script
// into Job.Dir and submits it with sbatch; Wait follows it with squeue,
// then sacct (or scontrol while slurmctld remembers the job); Cancel
// calls scancel. Its Handle is the Slurm job ID, so that any process on a
// submit host can wait for or cancel a job another process started.
//
// When the cluster keeps no accounting (sacct says "Slurm accounting
// storage is disabled"), Slurm reads the job completion log instead (sacct
// --completion, JobCompType=jobcomp/filetxt).
type Slurm struct {
	cfg  SlurmConfig
	tmpl *template.Template
	// completion is set once sacct said accounting is disabled.
	completion atomic.Bool
}

// commandTimeout bounds one call of a Slurm command.
const commandTimeout = 2 * time.Minute

// ScriptName is the name of the batch script Start writes into Job.Dir.
const ScriptName = "slurm-job.sh"

// NewSlurm returns a Slurm executor for cfg, after finding its commands
// and parsing its template.
func NewSlurm(cfg SlurmConfig) (*Slurm, error) {
	for _, c := range []struct {
		path *string
		name string
	}{{&cfg.Sbatch, "sbatch"}, {&cfg.Squeue, "squeue"}, {&cfg.Sacct, "sacct"}, {&cfg.Scontrol, "scontrol"}, {&cfg.Scancel, "scancel"}} {
		if *c.path == "" {
			*c.path = c.name
		}
		p, err := exec.LookPath(*c.path)
		if err != nil {
			return nil, fmt.Errorf("executor: slurm: %w", err)
		}
		*c.path = p
	}
	switch cfg.GPUOption {
	case "", "gpus-per-node", "gres":
	default:
		return nil, fmt.Errorf("executor: slurm: GPU option %q is neither gpus-per-node nor gres", cfg.GPUOption)
	}
	if cfg.JobNamePrefix == "" {
		cfg.JobNamePrefix = "pareto-"
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 10 * time.Second
	}
	if cfg.LostAfter <= 0 {
		cfg.LostAfter = 5 * time.Minute
	}
	if cfg.Environ == nil {
		cfg.Environ = Environ(nil, nil)
	}
	t, err := parseScriptTemplate(cfg.Template)
	if err != nil {
		return nil, err
	}
	return &Slurm{cfg: cfg, tmpl: t}, nil
}

// resources returns r with the config's defaults in its zero fields.
func (s *Slurm) resources(r Resources) Resources {
	d := s.cfg.Defaults
	if r.Nodes == 0 {
		r.Nodes = d.Nodes
	}
	if r.GPUsPerNode == 0 {
		r.GPUsPerNode = d.GPUsPerNode
	}
	if r.TimeLimit == 0 {
		r.TimeLimit = d.TimeLimit
	}
	if r.Partition == "" {
		r.Partition = d.Partition
	}
	if r.Account == "" {
		r.Account = d.Account
	}
	return r
}

// Script returns the batch script Start would submit for j.
func (s *Slurm) Script(j Job) ([]byte, error) {
	d, err := s.script(j, s.resources(j.Resources))
	if err != nil {
		return nil, err
	}
	return s.render(d)
}

// Start writes j's batch script to Job.Dir/slurm-job.sh (creating the
// folder) and submits it; the handle is the job ID sbatch prints.
func (s *Slurm) Start(ctx context.Context, j Job) (Handle, error) {
	d, err := s.script(j, s.resources(j.Resources))
	if err != nil {
		return "", err
	}
	script, err := s.render(d)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(d.Dir, 0o755); err != nil {
		return "", fmt.Errorf("executor: slurm: job %s: %w", j.ID, err)
	}
	path := filepath.Join(d.Dir, ScriptName)
	if err := os.WriteFile(path, script, 0o755); err != nil {
		return "", fmt.Errorf("executor: slurm: job %s: %w", j.ID, err)
	}
	args := append([]string{"--parsable"}, s.cfg.SbatchArgs...)
	out, err := s.run(ctx, d.Dir, s.cfg.Sbatch, append(args, path)...)
	if err != nil {
		return "", fmt.Errorf("executor: slurm: job %s: %w", j.ID, err)
	}
	// --parsable prints "ID" or "ID;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	if !isJobID(id) {
		return "", fmt.Errorf("executor: slurm: job %s: sbatch printed %q, not a job ID", j.ID, out)
	}
	return Handle(id), nil
}

// isJobID reports whether id is a Slurm job ID: digits, or an array
// element's ID_INDEX.
func isJobID(id string) bool {
	a, b, arr := strings.Cut(id, "_")
	return isDigits(a) && (!arr || isDigits(b))
}

// jobID returns the job ID of h, or an error if h is not one.
func jobID(h Handle) (string, error) {
	if !isJobID(string(h)) {
		return "", fmt.Errorf("executor: slurm: handle %q is not a job ID", h)
	}
	return string(h), nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Wait polls Slurm every PollInterval until the job of h has ended.
func (s *Slurm) Wait(ctx context.Context, h Handle) (Status, error) {
	id, err := jobID(h)
	if err != nil {
		return Status{}, err
	}
	var unknownSince time.Time
	var lastErr error
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		st, known, err := s.Status(ctx, h)
		switch {
		case ctx.Err() != nil:
			return Status{}, ctx.Err()
		case err == nil && known && st.State.Final():
			return st, nil
		case err == nil && known:
			unknownSince, lastErr = time.Time{}, nil
		default:
			if err != nil {
				lastErr = err
			}
			if unknownSince.IsZero() {
				unknownSince = time.Now()
			} else if time.Since(unknownSince) >= s.cfg.LostAfter {
				if lastErr != nil {
					return Status{}, fmt.Errorf("%w: slurm job %s unknown for %s (last error: %v)", ErrLost, id, s.cfg.LostAfter, lastErr)
				}
				return Status{}, fmt.Errorf("%w: slurm job %s unknown to squeue, sacct and scontrol for %s", ErrLost, id, s.cfg.LostAfter)
			}
		}
		select {
		case <-ctx.Done():
			return Status{}, ctx.Err()
		case <-tick.C:
		}
	}
}

// Status asks Slurm once about the job of h: squeue for a job it lists
// as pending or running; for one that ended, scontrol (what slurmctld
// remembers for MinJobAge: state, reason, exit code), then sacct (the
// accounting record, once slurmctld has forgotten the job; it may lag),
// then squeue's state without an exit code. sacct is asked only after
// scontrol, so that waiting jobs do not load the accounting database.
// known is false when no command knows the job.
func (s *Slurm) Status(ctx context.Context, h Handle) (st Status, known bool, err error) {
	id, err := jobID(h)
	if err != nil {
		return Status{}, false, err
	}
	out, qerr := s.run(ctx, "", s.cfg.Squeue, "-h", "--states=all", "-j", id, "-o", "%i|%T|%r")
	q, inQueue := parseSqueue(out, id)
	if qerr != nil && !isInvalidJobID(qerr) {
		return Status{}, false, fmt.Errorf("executor: slurm job %s: %w", id, qerr)
	}
	if inQueue && !q.state().Final() {
		st, err := q.status(id)
		return st, err == nil, err
	}
	out, cerr := s.run(ctx, "", s.cfg.Scontrol, "show", "job", "-o", id)
	if cerr != nil && !isInvalidJobID(cerr) {
		return Status{}, false, fmt.Errorf("executor: slurm job %s: %w", id, cerr)
	}
	if rec, ok := parseScontrol(out, id); ok && rec.state().Final() {
		st, err := rec.status(id)
		return st, err == nil, err
	}
	if rec, ok, err := s.sacct(ctx, id); err != nil {
		return Status{}, false, err
	} else if ok && rec.state().Final() {
		st, err := rec.status(id)
		return st, err == nil, err
	}
	if inQueue {
		st, err := q.status(id)
		return st, err == nil, err
	}
	return Status{}, false, nil
}

// sacct asks the accounting database, or the job completion log where
// the cluster keeps no accounting, for the job's record.
func (s *Slurm) sacct(ctx context.Context, id string) (slurmRecord, bool, error) {
	args := []string{"-n", "-P", "-X", "-j", id, "-o", "JobID,State,ExitCode,Reason"}
	if !s.completion.Load() {
		out, err := s.run(ctx, "", s.cfg.Sacct, args...)
		if err == nil {
			rec, ok := parseSacct(out, id)
			return rec, ok, nil
		}
		if !strings.Contains(err.Error(), "accounting storage is disabled") {
			return slurmRecord{}, false, fmt.Errorf("executor: slurm job %s: %w", id, err)
		}
		s.completion.Store(true)
	}
	if strings.Contains(id, "_") {
		// The completion log does not record array tasks as such
		// (sacct --completion -j A_I answers for another task): an
		// array task is followed through squeue and scontrol only.
		return slurmRecord{}, false, nil
	}
	out, err := s.run(ctx, "", s.cfg.Sacct, append([]string{"--completion"}, args...)...)
	if err != nil {
		return slurmRecord{}, false, fmt.Errorf("executor: slurm job %s: %w", id, err)
	}
	rec, ok := parseSacct(out, id)
	return rec, ok, nil
}

// Cancel cancels the job of h with scancel; cancelling a job that has
// ended does nothing.
func (s *Slurm) Cancel(ctx context.Context, h Handle) error {
	id, err := jobID(h)
	if err != nil {
		return err
	}
	if _, err := s.run(ctx, "", s.cfg.Scancel, id); err != nil && !isInvalidJobID(err) {
		return fmt.Errorf("executor: slurm job %s: %w", id, err)
	}
	return nil
}

// isInvalidJobID reports whether a Slurm command failed because it does
// not know the job (any more).
func isInvalidJobID(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Invalid job id")
}

// run runs a Slurm command and returns its stdout; its error holds the
// command's stderr.
// A Slurm command that has not answered in commandTimeout is stopped (a
// hung slurmctld or slurmdbd must not hang Wait: it asks again).
func (s *Slurm) run(ctx context.Context, dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = s.cfg.Environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && msg != "" {
			return stdout.String(), fmt.Errorf("%s %s: %s", filepath.Base(name), strings.Join(args, " "), msg)
		}
		return stdout.String(), fmt.Errorf("%s %s: %w", filepath.Base(name), strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}

var _ Executor = (*Slurm)(nil)
