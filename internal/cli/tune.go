package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/progress"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
	"github.com/spf13/cobra"
)

const tuneLong = `Tune runs the closed loop: a sampler (NSGA-II by default, or Sobol, random,
grid) proposes configurations of the search space (--space, TOML: go doc
github.com/pareto-llm/pareto/search), each is measured --repeats times by
running --command, the result files each run leaves in its folder are read
and recorded in the study, and the gate judges every candidate against the
baseline (the space's defaults, re-measured --repeats times every session,
that is every pareto tune that starts), queueing the extra runs an
inconclusive verdict asks for, up to --max-runs per configuration. --budget
is the number of runs of the study in all, baseline and repeats included.

--screen N spends repeats where frontier membership is still uncertain,
not uniformly: each configuration is first run N times (N < --repeats);
then one clearly dominated by another configuration's medians (the
baseline's included) gets no further runs and is reported "screened" (not
gated, not on the frontier), while every other one gets its --repeats
runs and the gate's when the budget left is theirs (or the sampler has no
more), so the runs saved go to more configurations first. Clearly
dominated is the noise-aware frontier's relation with the estimates'
uncertainty u = 2·σ·√(1/na + 1/nc) held against the beater: its noise
band shrinks to σ−u and its minimum improvement grows to δ+u (σ is
--noise, taken as the run-to-run noise; pareto noise suggests it).

--command is run by /bin/sh -c in the run's own folder (DIR/run-ID, DIR
from --work-dir; DIR/run-ID.N for its Nth attempt after a lost worker),
with {NAME} replaced by the value of parameter NAME as one shell-quoted
word (a value is never shell code), and the environment variables
PARETO_PARAM_<NAME> (upper case; the raw value), PARETO_RUN,
PARETO_TRIAL, PARETO_ROLE and PARETO_SEED (the run's ID, the same if the
run is retried); its output goes to stdout.log and stderr.log there. A
placeholder stands outside quotes, as a word ({model}) or part of one
(--tp={tp}); one inside '...', "...", backquotes, $((...)), a comment or
a here-document is refused with its line and column. ${NAME} is the
shell's. A run that exits non-zero, exceeds --time-limit or leaves no
readable result is recorded as failed with the reason (for no result,
the files it left).

A run's environment is this process's without the store's settings
(PARETO_STORE, PGPASSWORD, any variable holding the store's password).
Keep secrets out of --command: a literal one (HF_TOKEN=hf_..., a bearer
token) draws a warning, and the study keeps the command with <redacted>
in its place. Export the secret, write $NAME in the command and give
--pass-env NAME: every worker then needs NAME set, takes the value from
its own environment, and nothing stores it. Failure reasons, labels and
log lines are redacted before they are stored or printed.

The run's folder is read as pareto ingest reads a folder: only files a
reader recognises as benchmark results are trials (the server logs, GPU
telemetry CSVs, per-request records and inputs a benchmark client leaves
beside them are not); --result GLOB (repeatable, relative to the run's
folder; or result = [...] in the space) names the result files exactly
instead. A run that writes several results (a sweep over concurrency) is
one configuration measured on several workloads, and one run of the
budget. Every trial a run records has the run's parameters, whatever the
result file holds (a vllm bench serve file records no server settings);
a parameter the file records with another value is kept as the label
tune_file.NAME and reported on stderr.

Every change is in the store, so a tune that was killed resumes where it
stopped when started again (its runs in progress are queued again; a run
handed out --max-attempts times, default 3, fails on its last loss);
SIGINT or SIGTERM cancels the running job, queues its run again and stops. A study is
resumed with --store and --study alone: it keeps its space, command,
objectives and budget (--budget N changes it; a budget below 1 is refused).
Every session (every pareto tune that starts) re-measures the baseline:
its runs are reserved first, and when the budget is all queued, the newest
queued candidate runs that were never started give their budget back to
it (a candidate left with no run is failed, saying so), so that the runs
started never exceed the budget. A progress line is shown when standard error is a terminal; the
summary (configurations, frontier, admitted and rejected with the gate's
reasons) goes to standard output at the end.

--worker joins a study as one more worker: any number of pareto tune
--worker processes, on any hosts sharing a PostgreSQL store (or on one host
sharing a SQLite file), claim its runs until the budget is spent. A worker
needs only --store and --study (the study keeps its space, command,
objectives and budget); given --space and the rest, the first one creates
the study. A claimed run is held under a --lease the worker renews; a run
whose worker died is queued again when its lease expires (a run handed out
--max-attempts times fails on its last loss), never completed twice.

--executor slurm submits each run as a Slurm batch job (sbatch, from
--slurm-template or the built-in template) with --partition, --account,
--nodes, --gpus-per-node and --time-limit; the job ID is recorded with the
run, so that a tune restarted after it was killed waits for the job by its
ID instead of submitting it again. SIGINT cancels the job (scancel). Slurm's
final states (FAILED, TIMEOUT, CANCELLED, OUT_OF_MEMORY, NODE_FAIL,
PREEMPTED) are recorded as the run's failure with Slurm's words.

--status prints the study's runs by state (queued, running with its worker
and handle, complete, failed) and the budget left, from the store alone
(read only).`

const tuneExample = `  # (docs/TUNING.md runs a whole tune on the simulator)
  pareto ask --store tune.db --study agent --space examples/search/vllm.toml -o output_token_throughput:max -o ttft.p99:min --budget 20 && \
    pareto tune --status --store tune.db --study agent --format json`

// tuneHelp is the help of pareto tune.
var tuneHelp = commandSpec{
	use:     "tune --space SPACE.toml --study NAME --command TEMPLATE --budget N -o OBJECTIVE... [flags] | tune --status --study NAME",
	short:   "Tune a configuration: propose, run, record and gate within a budget",
	long:    tuneLong,
	example: tuneExample,
	args:    noArgs,
}

type tuneOptions struct {
	db                                                     storeFlags // --store, --study
	space, command, sampler, workDir                       string
	format                                                 formatFlag
	results                                                []string
	budget, repeats, maxRuns, population, screen, attempts int
	seed                                                   uint64
	timeLimit, lease                                       time.Duration
	status, worker                                         bool
	passEnv                                                []string
	obj                                                    objectiveFlags
	limits                                                 limitFlags
	slurm                                                  slurmFlags
}

// slurmFlags are tune's --executor and the Slurm executor's flags.
type slurmFlags struct {
	executor, partition, account, template, gpuOption string
	nodes, gpusPerNode                                int
	poll                                              time.Duration
}

func newTuneCmd(e *env) *cobra.Command {
	var o tuneOptions
	var c *cobra.Command // checkLimitFlags reads which flags were given
	c, f := newCommand(tuneHelp, func(ctx context.Context, _ []string) error {
		if err := checkLimitFlags(c, o.budget, &o.attempts); err != nil {
			return err
		}
		return runTune(ctx, e, &o)
	})
	o.db.addStudy(f, "study `NAME`")
	f.StringVar(&o.space, "space", "", "search space `TOML` file")
	f.StringVar(&o.command, "command", "", "command `TEMPLATE` of a run ({param} placeholders)")
	f.StringArrayVar(&o.passEnv, "pass-env", nil, "environment variable `NAME` the runs need (a token the command reads as $NAME): its value comes from each worker's environment, never stored (repeatable)")
	f.StringArrayVar(&o.results, "result", nil, "a run's result files: `GLOB` relative to its folder, repeatable (default: the space's result = [...], else every benchmark result the folder holds)")
	f.IntVar(&o.budget, "budget", 0, "runs of the study in all, baseline and repeats included (creating the study; later: a new budget)")
	addMaxAttemptsFlag(f, &o.attempts)
	o.obj.flags(f, noiseIsMinImprove)
	f.StringVar(&o.sampler, "sampler", search.NSGA2, "sampler: "+strings.Join(search.Samplers, ", "))
	f.Uint64Var(&o.seed, "seed", 0, "seed of the sampler")
	f.IntVar(&o.population, "population", 0, "NSGA-II population (default 50)")
	f.IntVar(&o.repeats, "repeats", tune.DefaultRepeats, "runs of each configuration before the gate judges it")
	f.IntVar(&o.maxRuns, "max-runs", tune.DefaultMaxRuns, "runs of a configuration the gate may ask for in all")
	f.IntVar(&o.screen, "screen", 0, "first runs of a configuration; further repeats only where frontier membership is uncertain (0: off)")
	f.StringVar(&o.workDir, "work-dir", "", "folder of the runs' folders (default NAME.tune)")
	f.DurationVar(&o.timeLimit, "time-limit", 0, "stop a run after `DURATION` (0: no limit)")
	f.BoolVar(&o.worker, "worker", false, "join the study as one more worker (--space, --command and --budget default to the study's)")
	f.DurationVar(&o.lease, "lease", tune.DefaultLease, "lease of a claimed run, renewed every third of it: a dead worker's run is queued again after it")
	f.StringVar(&o.slurm.executor, "executor", "local", "where runs are run: local or slurm (one sbatch job per run)")
	f.StringVar(&o.slurm.partition, "partition", "", "Slurm partition of the jobs (--executor slurm)")
	f.StringVar(&o.slurm.account, "account", "", "Slurm account of the jobs (--executor slurm)")
	f.IntVar(&o.slurm.nodes, "nodes", 0, "nodes of each Slurm job (0: the cluster's default)")
	f.IntVar(&o.slurm.gpusPerNode, "gpus-per-node", 0, "GPUs per node of each Slurm job (0: none asked for)")
	f.StringVar(&o.slurm.gpuOption, "gpu-option", "gpus-per-node", "how GPUs are asked for: gpus-per-node or gres (--gres=gpu:N)")
	f.StringVar(&o.slurm.template, "slurm-template", "", "batch script `TEMPLATE` (Go text/template over executor.SlurmScript; default the built-in one)")
	f.DurationVar(&o.slurm.poll, "slurm-poll", 10*time.Second, "how often a Slurm job is asked about")
	f.BoolVar(&o.status, "status", false, "print the study's runs by state and the budget left, and exit")
	o.format.add(f, "output format: table or json", enc.FormatTable, enc.FormatJSON)
	addLimitFlags(f, &o.limits)
	return c
}

func runTune(ctx context.Context, e *env, o *tuneOptions) error {
	if err := o.db.requireStudy(); err != nil {
		return err
	}
	if o.status {
		return tuneStatus(ctx, e, o)
	}
	// A tune resuming a study, or a worker joining one, needs neither the
	// space nor the command nor the budget nor the objectives: the study
	// keeps them.
	joining := len(o.obj.objectives) == 0
	switch {
	case o.space == "" && !joining:
		return usagef("--space is required")
	case o.command == "" && !joining && !o.worker:
		return usagef("--command is required")
	case o.repeats < 1:
		return usagef("--repeats must be at least 1")
	case o.screen < 0 || o.screen > 0 && o.screen >= o.repeats:
		return usagef("--screen must be 0 (off) or below --repeats")
	case len(o.obj.objectives) == 0 && !joining:
		return usagef("give the objectives with -o NAME:min|max")
	case o.lease < time.Second:
		return usagef("--lease must be at least 1s")
	}
	for _, name := range o.passEnv {
		if !validEnvName(name) {
			return usagef("--pass-env %q is not an environment variable name", name)
		}
		if _, ok := os.LookupEnv(name); !ok { // before a study is created
			return inputError{err: fmt.Errorf("--pass-env %s: %s is not set in the environment of this process", name, name)}
		}
	}
	for _, p := range o.results {
		if err := search.CheckResultPattern(p); err != nil {
			return usagef("--result: %v", err)
		}
	}
	loc := o.db.resolved()
	ex, err := o.slurm.newExecutor(executor.Environ(o.passEnv, trial.LocationPasswords(loc)))
	if err != nil {
		return err
	}
	lim, err := o.limits.limits()
	if err != nil {
		return err
	}
	// A new study's space and command are checked before the store is
	// opened (a SQLite store is created on opening).
	var space *search.Space
	var text string
	if !joining {
		if space, text, err = readSpace(o.space); err != nil {
			return err
		}
		if err := tune.CheckTemplate(o.command, space); err != nil {
			return usageError{err}
		}
	}
	st, err := o.db.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var t *tune.Tuning
	var opts tune.Options
	if joining {
		if t, err = tune.OpenExisting(ctx, st, o.db.study); errors.Is(err, tunequeue.ErrNoTune) {
			return usagef("study %s has no tuning state yet: give --space, --command, --budget and -o to create it", o.db.study)
		} else if err != nil {
			return inputError{err: err}
		}
		opts = t.Options()
		if o.space != "" {
			space, _, err := readSpace(o.space)
			if err != nil {
				return err
			}
			if space.Fingerprint() != t.Space().Fingerprint() {
				return inputError{err: fmt.Errorf("study %s was tuned over another search space than %s", o.db.study, o.space)}
			}
		}
		if o.budget > 0 {
			if t, err = tune.Open(ctx, st, o.db.study, t.Space(), opts, o.budget); err != nil {
				return tuneOpenError(err)
			}
		}
	} else {
		objs, slos, err := o.obj.parse()
		if err != nil {
			return err
		}
		opts = tune.Options{Sampler: o.sampler, Seed: o.seed, Population: o.population, Objectives: objs, Repeats: o.repeats,
			MaxRuns: o.maxRuns, Screen: o.screen, Command: o.command, Results: o.results, SpaceFile: o.space, SpaceText: text, PassEnv: o.passEnv}
		for _, s := range slos {
			opts.SLOs = append(opts.SLOs, s.String())
		}
		if t, err = tune.Open(ctx, st, o.db.study, space, opts, o.budget); err != nil {
			return tuneOpenError(err)
		}
		if !o.worker || len(o.obj.objectives) > 0 {
			warnKept(e, o.db.study, opts, t.Options())
		}
	}
	if err := t.SetLimits(ctx, tune.Limits{MaxAttempts: o.attempts}); err != nil {
		return tuneOpenError(err)
	}
	command := o.command
	if command == "" {
		command = t.Options().Command
	}
	if command == "" {
		return usagef("study %s keeps no command: give --command", o.db.study)
	}
	if err := tune.CheckTemplate(command, t.Space()); err != nil {
		return usageError{err}
	}
	warnSecrets(e, o.command)
	workDir := o.workDir
	if workDir == "" {
		workDir = o.db.study + ".tune"
	}
	t.Hide(trial.LocationPasswords(loc)...)
	d := &tune.Driver{Tuning: t, Executor: ex, Command: command, WorkDir: workDir, Lease: o.lease, Join: o.worker, PassEnv: o.passEnv,
		TimeLimit: o.timeLimit, Limits: lim, Results: t.ResultPatterns(o.results), Fields: flagName, Log: e.stderr,
		Resources: executor.Resources{Nodes: o.slurm.nodes, GPUsPerNode: o.slurm.gpusPerNode, Partition: o.slurm.partition, Account: o.slurm.account}}
	if isTerminal(e.stderr) {
		d.Progress = progressLine(e, time.Now())
	}
	err = d.Run(ctx)
	if d.Progress != nil {
		fmt.Fprintln(e.stderr)
	}
	interrupted := errors.Is(err, context.Canceled) && ctx.Err() != nil // SIGINT or SIGTERM (cmd/pareto)
	if err != nil && !interrupted {
		return inputError{err: err}
	}
	sum, serr := t.Summarize(context.WithoutCancel(ctx))
	if serr != nil {
		return inputError{err: serr}
	}
	if err := writeTuneSummary(e, o.format.f, sum); err != nil {
		return err
	}
	if interrupted {
		fmt.Fprintf(e.stderr, "pareto tune: interrupted; the running run is queued again (pareto tune resumes the study)\n")
	}
	return nil
}

// tuneOpenError is the error of opening a study: a usage error (exit 2)
// for a refused budget, else an input error.
func tuneOpenError(err error) error {
	if isFieldError(err) {
		return queryUsage(err)
	}
	return inputError{err: err}
}

// warnSecrets warns of every literal secret of the command (the study
// keeps the command without them), naming the --pass-env that keeps it
// out of the command.
func warnSecrets(e *env, command string) {
	if secrets := tune.CommandSecrets(command); len(secrets) > 0 {
		name := tune.SecretName(command, secrets[0])
		fmt.Fprintf(e.stderr, "pareto tune: --command holds a secret (%s): the study keeps the command with %s in its place, "+
			"so every worker needs --command too; keep it out of the command: export %s=..., write $%s in --command and add --pass-env %s\n",
			trial.RedactText(tune.RedactCommand(command)), trial.Redacted, name, name, name)
	}
}

// validEnvName reports whether name can name an environment variable of
// a shell: a letter or _, then letters, digits or _.
func validEnvName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}

// newExecutor returns the executor the flags name; its jobs start from
// the environment environ (executor.Environ).
func (f slurmFlags) newExecutor(environ []string) (executor.Executor, error) {
	switch {
	case f.nodes < 0 || f.gpusPerNode < 0:
		return nil, usagef("--nodes and --gpus-per-node must not be negative")
	case f.gpuOption != "gpus-per-node" && f.gpuOption != "gres":
		return nil, usagef("--gpu-option must be gpus-per-node or gres, not %q", f.gpuOption)
	case f.executor == "local":
		if f.partition != "" || f.account != "" || f.template != "" || f.nodes != 0 || f.gpusPerNode != 0 {
			return nil, usagef("--partition, --account, --nodes, --gpus-per-node and --slurm-template need --executor slurm")
		}
		return &executor.Local{Environ: environ}, nil
	case f.executor == "slurm":
		if f.poll <= 0 {
			return nil, usagef("--slurm-poll must be positive")
		}
		s, err := executor.NewSlurm(executor.SlurmConfig{Template: f.template, GPUOption: f.gpuOption, PollInterval: f.poll, Environ: environ})
		if err != nil {
			return nil, inputError{err: err}
		}
		return s, nil
	}
	return nil, usagef("--executor must be local or slurm, not %q", f.executor)
}

// warnKept tells, on resuming a study, which of the flags it ignores:
// the study keeps the sampler, objectives and repeats it was created with
// (the command and the budget are the flags').
func warnKept(e *env, study string, flags, kept tune.Options) {
	var diff []string
	if flags.Sampler != kept.Sampler || flags.Seed != kept.Seed || flags.Population != kept.Population {
		diff = append(diff, fmt.Sprintf("sampler %s, seed %d", kept.Sampler, kept.Seed))
	}
	if flags.Repeats != kept.Repeats || flags.MaxRuns != kept.MaxRuns || flags.Screen != kept.Screen {
		diff = append(diff, fmt.Sprintf("--repeats %d, --max-runs %d, --screen %d", kept.Repeats, kept.MaxRuns, kept.Screen))
	}
	a, _ := json.Marshal(flags.Objectives)
	b, _ := json.Marshal(kept.Objectives)
	if string(a) != string(b) || !slices.Equal(flags.SLOs, kept.SLOs) {
		diff = append(diff, "its objectives and SLOs")
	}
	if len(diff) > 0 {
		fmt.Fprintf(e.stderr, "pareto tune: study %s keeps what it was created with (%s); the flags that differ are ignored\n", study, strings.Join(diff, "; "))
	}
}

// readSpace reads the search space file and keeps its text
// (search.ReadSpaceText).
func readSpace(path string) (*search.Space, string, error) {
	space, text, err := search.ReadSpaceText(path)
	if err != nil {
		return nil, "", inputError{err: err}
	}
	return space, text, nil
}

// isTerminal reports whether w is a terminal (progress.IsTerminal).
func isTerminal(w any) bool { return progress.IsTerminal(w) }

// progressLine returns a Progress that rewrites one line with the runs
// done and an ETA from the mean time per run so far.
func progressLine(e *env, start time.Time) func(tunequeue.Status) {
	first := -1
	return func(s tunequeue.Status) {
		done := s.Complete + s.Failed
		if first < 0 {
			first = done - 1
		}
		fmt.Fprint(e.stderr, progressText(s, done-first, time.Since(start)))
	}
}

// progressText is the progress line after n runs of this driver took
// elapsed: runs done of the budget, failed, and the ETA of the runs left
// at the mean time per run so far ("?" before the first).
func progressText(s tunequeue.Status, n int, elapsed time.Duration) string {
	done := s.Complete + s.Failed
	eta := "?"
	if n > 0 {
		left := max(s.Budget-done, 0)
		eta = (time.Duration(float64(elapsed) / float64(n) * float64(left))).Round(time.Second).String()
	}
	return fmt.Sprintf("\r%d/%d runs (%d failed), ETA %s   ", done, s.Budget, s.Failed, eta)
}

// tuneStatusJSON is pareto tune --status --format json (the schema is
// docs/schema/tune-status.schema.json).
type tuneStatusJSON struct {
	Study      string          `json:"study"`
	Complete   int             `json:"complete"`
	Failed     int             `json:"failed"`
	Running    int             `json:"running"`
	Queued     int             `json:"queued"`
	Budget     int             `json:"budget"`
	BudgetLeft int             `json:"budget_left"`
	Session    int             `json:"session"`
	Trials     int             `json:"trials"`
	Runs       []tuneRunStatus `json:"running_runs"`
	FailedRuns []tuneFailed    `json:"failed_runs"`
}

type tuneFailed struct {
	Run    int64  `json:"run"`
	Trial  int    `json:"trial"`
	Reason string `json:"reason"`
	Handle string `json:"handle"`
}

type tuneRunStatus struct {
	Run        int64  `json:"run"`
	Trial      int    `json:"trial"`
	Worker     string `json:"worker"`
	Handle     string `json:"handle"`
	Attempt    int    `json:"attempt"`
	LeaseUntil string `json:"lease_until,omitempty"`
}

func tuneStatus(ctx context.Context, e *env, o *tuneOptions) error {
	r, err := o.db.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer r.Close()
	q, ok := r.(tunequeue.Queue)
	if !ok {
		return inputError{err: errors.New("this store keeps no tuning state")}
	}
	s, err := q.TuneStatus(ctx, o.db.study)
	if err != nil {
		return inputError{err: err}
	}
	out := tuneStatusJSON{Study: s.Study, Complete: s.Complete, Failed: s.Failed, Running: s.Running, Queued: s.Queued,
		Budget: s.Budget, BudgetLeft: s.BudgetLeft, Session: s.Session, Trials: s.Trials, Runs: []tuneRunStatus{}, FailedRuns: []tuneFailed{}}
	for _, r := range s.FailedRuns {
		// Reasons are redacted when stored; a store written before is
		// redacted here.
		out.FailedRuns = append(out.FailedRuns, tuneFailed{Run: r.ID, Trial: r.Number, Reason: trial.RedactText(r.Reason), Handle: r.Handle})
	}
	for _, r := range s.RunningRuns {
		rs := tuneRunStatus{Run: r.ID, Trial: r.Number, Worker: r.Worker, Handle: r.Handle, Attempt: r.Attempts}
		if !r.LeaseUntil.IsZero() {
			rs.LeaseUntil = r.LeaseUntil.UTC().Format(time.RFC3339)
		}
		out.Runs = append(out.Runs, rs)
	}
	return e.write(o.format.f, out)
}

// WriteTable prints the counts, then a line per running and failed run.
func (s tuneStatusJSON) WriteTable(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "study %s: %d complete, %d failed, %d running, %d queued; budget %d, %d left; %d configurations, session %d\n",
		s.Study, s.Complete, s.Failed, s.Running, s.Queued, s.Budget, s.BudgetLeft, s.Trials, s.Session)
	for _, r := range s.Runs {
		fmt.Fprintf(w, "  run %d (trial %d) running on %s, %s, attempt %d\n", r.Run, r.Trial, r.Worker, describeHandle(r.Handle), r.Attempt)
	}
	for _, r := range s.FailedRuns {
		reason, _, _ := strings.Cut(r.Reason, "\n")
		fmt.Fprintf(w, "  run %d (trial %d) failed: %s\n", r.Run, r.Trial, reason)
	}
	return w.Flush()
}

// describeHandle names an executor's handle for --status: a Slurm job ID
// or a local process.
func describeHandle(h string) string {
	switch {
	case h == "":
		return "not started"
	case strings.HasPrefix(h, "pid:"):
		return "process " + strings.TrimPrefix(h, "pid:")
	}
	return "Slurm job " + h
}

// writeTuneSummary prints the summary of a tune.
func writeTuneSummary(e *env, format enc.Format, s tune.Summary) error {
	fr := s.Frontier
	if fr == nil {
		fr = []int{}
	}
	s.Trials = slices.Clone(s.Trials)
	for i := range s.Trials {
		s.Trials[i].Reasons = fieldTexts(s.Trials[i].Reasons) // in the command line's words
	}
	return e.write(format, tuneSummary{s.Status.Study, s.Status.Complete, s.Status.Failed, s.Status.Queued, s.Status.BudgetLeft, fr, s.Trials})
}

// tuneSummary is what pareto tune prints when it ends
// (docs/schema/tune.schema.json).
type tuneSummary struct {
	Study      string              `json:"study"`
	Complete   int                 `json:"complete"`
	Failed     int                 `json:"failed"`
	Queued     int                 `json:"queued"`
	BudgetLeft int                 `json:"budget_left"`
	Frontier   []int               `json:"frontier"`
	Trials     []tune.TrialSummary `json:"trials"`
}

// WriteTable prints a line per configuration, the frontier's marked *.
func (s tuneSummary) WriteTable(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "study %s: %d runs complete, %d failed, %d queued; %d of the budget left\n",
		s.Study, s.Complete, s.Failed, s.Queued, s.BudgetLeft)
	onFront := map[int]bool{}
	for _, n := range s.Frontier {
		onFront[n] = true
	}
	counts := map[string]int{}
	for _, t := range s.Trials {
		mark := " "
		if onFront[t.Number] {
			mark = "*"
		}
		label := fmt.Sprintf("trial %d", t.Number)
		if t.Role == tune.RoleBaseline {
			label = "baseline"
		}
		decision := t.Decision
		if decision == "" {
			decision = "-"
		}
		counts[decision]++
		fmt.Fprintf(w, "%s %-10s %-8s %-12s %v %s\n", mark, label, t.State, decision, fmtValues(t.Values), t.Params)
		for _, r := range t.Reasons {
			fmt.Fprintf(w, "      %s\n", r)
		}
	}
	fmt.Fprintf(w, "frontier (*): %d configurations; admitted %d, rejected %d, inconclusive %d, screened %d\n",
		len(s.Frontier), counts["admit"], counts["reject"], counts["inconclusive"], counts[tune.DecisionScreened])
	return w.Flush()
}

func fmtValues(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = string(enc.AppendNum(nil, x))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
