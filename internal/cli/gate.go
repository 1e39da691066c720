package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/spf13/cobra"
)

const gateLong = `Gate is the deterministic judge of a candidate change. It decides,
grounded to the baseline and against the archive (the baseline plus every
earlier admitted candidate measured in the same environment), then records
the runs given as paths in the study:

  admit         (exit 0) the candidate meets every SLO on every workload of
                the baseline, is better than the baseline by more than the
                minimum improvement on some objective, no archive member
                beats it, and it is not equivalent to any member;
  reject        (exit 1) with every reason that applies;
  inconclusive  (exit 3) too few repeats, or the difference is too uncertain
                to tell; more_runs says how many more runs would settle it.

  refused       (exit 2) the question cannot be judged (a baseline measured
                only in another environment, a candidate that is not one
                configuration, …): nothing is recorded, and the verdict says
                why with a refused_* code.

Usage and input errors exit 2. The verdict is JSON on standard output
(docs/schema/gate.schema.json), byte-identical for identical inputs;
--format table prints it for a reader instead (the decision, every reason,
the per-workload comparison, the runs asked for). Its
"code" is a stable reason code and "reason_codes" holds one per reason:
admitted, better, regression, more_runs, rejected_not_better,
rejected_worse, rejected_equivalent, rejected_slo, rejected_coverage,
rejected_regression, rejected_too_short, rejected_max_runs, refused_scope,
refused_candidate, refused_candidate_is_baseline, refused_baseline,
refused_request. Each objective has a status (better, within_noise, worse,
uncertain) with its delta (ratio of geometric means minus one, the
estimator the decision uses) and the interval at the level of the rule
that gave the status ("level": --confidence for better and uncertain,
--futility for worse and within_noise); the reasons quote intervals at the
level of the rule they report likewise. "regressions" lists the objectives
worse than the baseline beyond their noise band; --no-regression rejects
an admit that has any. --max-runs and --max-baseline-runs cap the runs per
workload of the candidate and of the baseline: the runs asked for stay
within them (baseline runs when the baseline is the larger part of the
uncertainty), and a candidate still undecided there is rejected
(rejected_max_runs).

Archive: --archive-list prints the study's archive members (configuration
key, environment, params, workloads, admitted trials and their sessions) as
JSON and writes nothing; --revoke key:HEX removes members from the archive
(their runs lose the label gate=admitted and stay stored), so that later
gates no longer compare with them.

Sessions: the runs a call records form a new measurement session (named by
the time) unless --session NAME; pareto trials --where session=NAME lists
one. The baseline is, per workload, its newest session in the candidate's
environment (--baseline-session NAME picks another), so a baseline
re-benchmarked on a changed machine is not pooled with stale runs. A
driver adding the baseline runs the gate asks for passes the same
--session for them.

--candidate is result files or directories (recorded in the study; they must
hold one configuration) or a selection of stored trials: KEY=VALUE on
labels, params or workload, key:HEX (configuration key) or id:HEX (trial).
--baseline is a selection or result files likewise; the newest baseline
repeats measured in the candidate's environment (engine, engine version,
CUDA, driver, GPU) are used, and a baseline measured only elsewhere is
refused unless --allow-cross-scope.

--optuna reads the sides from a study someone ran with Optuna (its RDB
storage, a SQLite file or a PostgreSQL URL, read only and never written;
--optuna-study names the study when the storage holds several):
--candidate and --baseline are then each one selection of the study's
complete trials, in the words front and pick use for them: the trial
number (optuna_trial=12), a parameter (params.tensor_parallel_size=2), a
user attribute (role=baseline, or labels.role=baseline), key:HEX or id:HEX.
A selection takes every trial of the configurations it matches (trials
with the same parameters are repeats). The gate records in --store/--study
what it judged: the selected trials of both sides, as pareto ingest
--optuna copies them (same trial IDs, labels tool=optuna, optuna_study and
optuna_trial, kept once when already stored), in the gate's session, and
on admission the label gate=admitted on the candidate's trials, so that
the next gate over the study compares with it as an archive member.

Repeats are trials of one configuration (parameters, or only those named by
--config-key) under one workload in one environment. Differences are judged
on the log scale from the repeats of both sides (Welch t intervals): a fact
against admission must hold at --futility; "better than the baseline by the
minimum improvement" is a sequential test whose false admits are bounded:
P(admit | no real improvement) <= 1 - --confidence (default 0.99: at most
1%), over every objective and workload and every look a driver takes as it
adds the runs the gate asks for, up to --max-runs candidate and
--max-baseline-runs baseline runs per workload (defaults 10 and 20). The
error is split over objectives, workloads and the (candidate runs, baseline
runs) pairs a look can have (Bonferroni, spending t^3 over the candidate's
runs, half on the baseline at its cap), so an early look needs a wider
margin than a late one; a gate that measures each side once gets the whole
error on that look with --max-runs and --max-baseline-runs equal to its
runs. Each objective's "level" is the level of its interval at this look.
--noise defaults to each objective's --min-improve. When --min-improve is
below the run-to-run noise of the runs at hand (the CV pareto noise
prints), the verdict carries a warning (code min_improve_below_noise),
also printed on standard error.
Admission is recorded as the label gate=admitted on the candidate's stored
trials (pareto trials --where gate=admitted lists them); their IDs and the
number of stored trials do not change.

The decision is the library's (decide.RunGate): a program calling it on the
same store gets the same verdict.`

const gateExample = `  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto gate --store runs.db --study tune --candidate examples/decide/candidate-sglang-0.5.6.jsonl --baseline role=baseline \
    -o output_token_throughput:max -o ttft.p99:min --min-improve output_token_throughput=3% \
    --min-improve ttft.p99=5% --slo 'ttft.p99<=2000' --min-repeats 3 --max-runs 3 --max-baseline-runs 5
  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto gate --store runs.db --study tune --candidate examples/decide/candidate-sglang-0.5.6.jsonl --baseline role=baseline \
    -o output_token_throughput:max -o ttft.p99:min --min-improve 3% --max-runs 3 --max-baseline-runs 5 --no-regression --session loop-1
  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto gate --store runs.db --study tune --candidate examples/decide/candidate-sglang-0.5.6.jsonl --baseline role=baseline \
    -o output_token_throughput:max -o ttft.p99:min --min-improve 3% --max-runs 3 --max-baseline-runs 5 && \
    pareto gate --store runs.db --study tune --archive-list`

// gateHelp is the help of pareto gate.
var gateHelp = commandSpec{
	use:     "gate --study NAME --candidate PATH_OR_SELECTION --baseline SELECTION -o OBJECTIVE... [flags]",
	short:   "Admit, reject or ask for more runs of a candidate change",
	long:    gateLong,
	example: gateExample,
	args:    noArgs,
}

type gateOptions struct {
	src                      decideSource
	obj                      objectiveFlags
	candidate                []string
	baseline                 string
	minRepeats               int
	minDuration              time.Duration
	minRequests              int64
	confidence, futility     float64
	allowCrossScope, noLabel bool
	session, baselineSession string
	maxRuns, maxBaselineRuns int
	noRegression             bool
	archiveList              bool
	revoke                   string
	format                   formatFlag
}

func newGateCmd(e *env) *cobra.Command {
	var o gateOptions
	c, f := newCommand(gateHelp, func(ctx context.Context, _ []string) error {
		return runGate(ctx, e, &o)
	})
	o.src.flags(f)
	f.StringArrayVar(&o.candidate, "candidate", nil, "candidate result `PATH` or selection, repeatable")
	f.StringVar(&o.baseline, "baseline", "", "baseline `SELECTION` (KEY=VALUE, key:HEX, id:HEX) or result path")
	o.obj.flags(f, noiseIsMinImprove)
	f.IntVar(&o.minRepeats, "min-repeats", source.DefaultGate.MinRepeats, "runs required per workload on each side")
	f.DurationVar(&o.minDuration, "min-duration", 0, "refuse candidate runs shorter than `DURATION` (benchmark duration)")
	f.Int64Var(&o.minRequests, "min-requests", 0, "refuse candidate runs with fewer successful requests")
	f.Float64Var(&o.confidence, "confidence", source.DefaultGate.Confidence, "1 - the bound on false admits, over every look, objective and workload")
	f.Float64Var(&o.futility, "futility", source.DefaultGate.Futility, "interval level a fact against admission must reach")
	f.BoolVar(&o.allowCrossScope, "allow-cross-scope", false, "use a baseline measured in another environment")
	f.BoolVar(&o.noLabel, "no-label", false, "do not record admission as a label")
	f.StringVar(&o.session, "session", "", "record the runs given as paths in session `NAME` (default: a new session)")
	f.StringVar(&o.baselineSession, "baseline-session", "", "compare with the baseline runs of session `NAME` (default: its newest session per workload)")
	f.IntVar(&o.maxRuns, "max-runs", source.DefaultGate.MaxRuns, "candidate runs per workload after which an undecided candidate is rejected")
	f.IntVar(&o.maxBaselineRuns, "max-baseline-runs", source.DefaultGate.MaxBaselineRuns, "baseline runs per workload the gate may ask for")
	f.BoolVar(&o.noRegression, "no-regression", false, "reject an admit that is worse than the baseline beyond the noise band on any objective")
	f.BoolVar(&o.archiveList, "archive-list", false, "list the study's archive members as JSON instead of gating (read only)")
	f.StringVar(&o.revoke, "revoke", "", "remove the archive members `SELECTION` selects (key:HEX) instead of gating; their runs stay")
	o.format.add(f, "output `json|table`: the verdict (or the archive) as JSON, or for a reader", enc.FormatJSON, enc.FormatTable)
	return c
}

// spec is the flags as the library's gate question (source.GateSpec).
func (o *gateOptions) spec() *source.GateSpec {
	return &source.GateSpec{Study: o.src.study, Where: o.src.where, ConfigKeys: o.src.keys(),
		Objectives: o.obj.objectives, Noise: o.obj.noise, MinImprove: o.obj.minImprove, SLOs: o.obj.slos,
		Candidate: o.candidate, Baseline: o.baseline, MinRepeats: o.minRepeats, Confidence: o.confidence, Futility: o.futility,
		MaxRuns: o.maxRuns, MaxBaselineRuns: o.maxBaselineRuns, NoRegression: o.noRegression, MinDuration: o.minDuration, MinRequests: o.minRequests,
		AllowCrossScope: o.allowCrossScope, NoLabel: o.noLabel, Session: o.session, BaselineSession: o.baselineSession,
		Optuna: o.src.optuna, OptunaStudy: o.src.optunaStudy,
	}
}

// readSources reads result paths (tables included) through the source
// layer with opts (source.Files).
func readSources(ctx context.Context, paths []string, opts source.LoadOptions) ([]decide.Source, error) {
	srcs, err := source.Files(ctx, paths, opts)
	if err != nil {
		return nil, inputError{err: err}
	}
	return srcs, nil
}

func runGate(ctx context.Context, e *env, o *gateOptions) error {
	if o.archiveList || o.revoke != "" {
		return runArchive(ctx, e, o)
	}
	spec := o.spec()
	if err := spec.Check(); err != nil {
		return queryUsage(err)
	}
	var err error
	if spec.Load, err = o.src.load(0, o.src.limits); err != nil {
		return err
	}
	req, err := spec.Request(ctx)
	if isFieldError(err) {
		return queryUsage(err)
	}
	if err != nil {
		return optunaError(err)
	}
	st, err := o.src.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := decide.RunGate(ctx, store.Selecting{Store: st}, req)
	phraseVerdict(&v)
	if v.Decision != "" {
		if werr := e.write(o.format.f, (*verdictResult)(&v)); werr != nil {
			return werr
		}
		for _, w := range v.Warnings {
			fmt.Fprintf(e.stderr, "pareto gate: warning: %s\n", w.Message)
		}
	}
	if err != nil {
		return inputError{err: gateHint(err)}
	}
	return gateOutcome(v.Decision)
}

// runArchive lists the archive (--archive-list, from a read-only store) or
// revokes members (--revoke), printing the members as a JSON array
// (docs/schema/gate-archive.schema.json).
func runArchive(ctx context.Context, e *env, o *gateOptions) error {
	switch {
	case o.archiveList && o.revoke != "":
		return usagef("--archive-list and --revoke: give one")
	case o.src.study == "":
		return usagef("--study is required")
	case len(o.candidate) > 0 || o.baseline != "" || o.src.optuna != "":
		return usagef("--archive-list and --revoke take no --candidate, --baseline or --optuna")
	}
	q, err := o.src.query()
	if err != nil {
		return err
	}
	where := q.Where
	var members []decide.ArchiveMember
	if o.archiveList {
		return o.src.read(ctx, func(st store.Store) error {
			members, err := decide.RunArchive(ctx, store.ReaderSelecting{Reader: st}, o.src.study, where, o.src.keys())
			if err != nil {
				return inputError{err: err}
			}
			return o.writeArchive(e, members)
		})
	}
	sel, err := repeat.ParseSelection(o.revoke)
	if err != nil {
		return usageError{fmt.Errorf("--revoke: %w", err)}
	}
	st, err := o.src.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if members, err = decide.Revoke(ctx, store.Selecting{Store: st}, o.src.study, where, o.src.keys(), sel); err != nil {
		return inputError{err: err}
	}
	return o.writeArchive(e, members)
}

// writeArchive prints archive members in the format the flags ask for.
func (o *gateOptions) writeArchive(e *env, members []decide.ArchiveMember) error {
	return e.write(o.format.f, archiveResult(members))
}

// gateHint adds to an error of the library what the flags can do about it.
func gateHint(err error) error {
	var se *decide.SideError
	var sc *repeat.ScopeError
	switch {
	case errors.As(err, &se) && len(se.Configs) == 0:
		return fmt.Errorf("--candidate %s matches no usable trial", se.Name)
	case errors.As(err, &se):
		return fmt.Errorf("--candidate holds %d configurations (%s); give one, or name the params that identify it with --config-key",
			len(se.Configs), strings.Join(se.Configs, ", "))
	case errors.As(err, &sc):
		return fmt.Errorf("%w (re-benchmark the baseline in this environment, or pass --allow-cross-scope)", err)
	}
	return err
}

// gateOutcome turns a decision into the command's outcome.
func gateOutcome(d decide.Decision) error {
	switch d {
	case decide.Admit:
		return nil
	case decide.Reject:
		return outcomeError{outcomeRejected, "candidate rejected"}
	default:
		return outcomeError{outcomeInconclusive, "inconclusive: more runs needed"}
	}
}
