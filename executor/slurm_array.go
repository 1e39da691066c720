package executor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A Batcher is an Executor that can start several jobs at once: a
// generation of a sampler's proposals (NSGA-II) as one Slurm job array.
// Each job keeps its own handle, waited for and cancelled alone.
type Batcher interface {
	Executor
	// StartBatch starts jobs and returns their handles in the same
	// order, without waiting for them.
	StartBatch(ctx context.Context, jobs []Job) ([]Handle, error)
}

// ArrayScriptName is the name of the job array's script StartBatch writes
// into the first job's Dir.
const ArrayScriptName = "slurm-array.sh"

// StartBatch submits jobs as one job array (sbatch --array=0-N): the
// template's script, written to the first job's Dir as slurm-array.sh,
// runs task I's command in its own Dir with its own environment; its
// stdout and stderr go to slurm-<array ID>_<I>.out and .err there, and
// Slurm's own messages about the task to slurm-array-<array ID>_<I>.out
// in the first job's Dir. The handles are the tasks' IDs (array ID_I).
// Every job must ask for the same resources (after the defaults): a job
// array has one set.
//
// Where the cluster keeps no accounting database, a task's final state is
// known only while slurmctld remembers it (MinJobAge): the job completion
// log does not record array tasks as such.
func (s *Slurm) StartBatch(ctx context.Context, jobs []Job) ([]Handle, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	res := s.resources(jobs[0].Resources)
	var body strings.Builder
	body.WriteString("case \"$SLURM_ARRAY_TASK_ID\" in\n")
	for i, j := range jobs {
		if r := s.resources(j.Resources); r != res {
			return nil, fmt.Errorf("executor: slurm: a job array has one set of resources: job %s asks for %+v, job %s for %+v",
				jobs[0].ID, res, j.ID, r)
		}
		d, err := s.script(j, res)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(d.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("executor: slurm: job %s: %w", j.ID, err)
		}
		log := ShellQuote(d.Dir+"/slurm-") + `"$SLURM_ARRAY_JOB_ID"` + ShellQuote("_"+strconv.Itoa(i))
		fmt.Fprintf(&body, "%d)\n", i)
		for _, e := range d.Env {
			fmt.Fprintf(&body, "\texport %s=%s\n", e.Name, ShellQuote(e.Value))
		}
		fmt.Fprintf(&body, "\tcd %s || exit 1\n\texec /bin/sh -c %s >%s.out 2>%s.err\n\t;;\n",
			ShellQuote(d.Dir), ShellQuote(d.Command), log, log)
	}
	body.WriteString("*)\n\techo \"pareto: no job for array task $SLURM_ARRAY_TASK_ID\" >&2\n\texit 2\n\t;;\nesac\n")

	d, err := s.script(Job{ID: jobs[0].ID, Command: body.String(), Dir: jobs[0].Dir}, res)
	if err != nil {
		return nil, err
	}
	d.ID = fmt.Sprintf("%s and %d more, as a job array", jobs[0].ID, len(jobs)-1)
	d.Output = d.Dir + "/slurm-array-%A_%a.out"
	d.Error = d.Dir + "/slurm-array-%A_%a.err"
	script, err := s.render(d)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(d.Dir, ArrayScriptName)
	if err := os.WriteFile(path, script, 0o755); err != nil {
		return nil, fmt.Errorf("executor: slurm: job array: %w", err)
	}
	args := append([]string{"--parsable", fmt.Sprintf("--array=0-%d", len(jobs)-1)}, s.cfg.SbatchArgs...)
	out, err := s.run(ctx, d.Dir, s.cfg.Sbatch, append(args, path)...)
	if err != nil {
		return nil, fmt.Errorf("executor: slurm: job array of %d jobs from %s: %w", len(jobs), jobs[0].ID, err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	if !isDigits(id) {
		return nil, fmt.Errorf("executor: slurm: job array: sbatch printed %q, not a job ID", out)
	}
	hs := make([]Handle, len(jobs))
	for i := range jobs {
		hs[i] = Handle(id + "_" + strconv.Itoa(i))
	}
	return hs, nil
}

var _ Batcher = (*Slurm)(nil)
