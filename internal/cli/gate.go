package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/spf13/cobra"
)

const gateLong = `Gate is the deterministic judge of a candidate change. It records the
candidate's runs in the study, then decides, grounded to the baseline and
against the archive (the baseline plus every earlier admitted candidate
measured in the same environment):

  admit         (exit 0) the candidate meets every SLO on every workload of
                the baseline, is better than the baseline by more than the
                minimum improvement on some objective, no archive member
                beats it, and it is not equivalent to any member;
  reject        (exit 1) with every reason that applies;
  inconclusive  (exit 3) too few repeats, or the difference is too uncertain
                to tell; more_runs says how many more runs would settle it.

Usage and input errors exit 2. The verdict is JSON on standard output,
byte-identical for identical inputs.

--candidate is result files or directories (recorded in the study; they must
hold one configuration) or a selection of stored trials: KEY=VALUE on
labels, params or workload, key:HEX (configuration key) or id:HEX (trial).
--baseline is a selection or result files likewise; the newest baseline
repeats measured in the candidate's environment (engine, engine version,
CUDA, driver, GPU) are used, and a baseline measured only elsewhere is
refused unless --allow-cross-scope.

Repeats are trials of one configuration (parameters, or only those named by
--config-key) under one workload in one environment. Differences are judged
on the log scale from the repeats of both sides (Welch t intervals): a fact
favouring admission must hold at --confidence, a fact against it at
--futility. --noise defaults to each objective's --min-improve.
Admission is recorded as the label gate=admitted on the candidate's stored
trials (pareto trials --where gate=admitted lists them); their IDs and the
number of stored trials do not change.`

const gateExample = `  pareto gate --store runs.db --study tune --candidate examples/decide/candidate-sglang-0.5.6.jsonl --baseline role=baseline \
    -o output_token_throughput:max -o ttft.p99:min --min-improve output_token_throughput=3% \
    --min-improve ttft.p99=5% --slo 'ttft.p99<=2000' --min-repeats 3`

// admittedKey=admittedValue is the label that marks the stored trials of
// admitted candidates.
const admittedKey, admittedValue = "gate", "admitted"

// exitInconclusive is gate's status for an inconclusive verdict.
const exitInconclusive = 3

type gateOptions struct {
	src                      decideSource
	obj                      decideObjectives
	candidate                []string
	baseline                 string
	minRepeats               int
	minDuration              time.Duration
	minRequests              int64
	confidence, futility     float64
	allowCrossScope, noLabel bool
}

func newGateCmd(e *env) *cobra.Command {
	var o gateOptions
	c := &cobra.Command{
		Use:     "gate --study NAME --candidate PATH_OR_SELECTION --baseline SELECTION -o OBJECTIVE... [flags]",
		Short:   "Admit, reject or ask for more runs of a candidate change",
		Long:    gateLong,
		Example: gateExample,
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			err := runGate(c.Context(), e, &o)
			var ue usageError
			var ie inputError
			if errors.As(err, &ue) || errors.As(err, &ie) && ie.code == 0 {
				return inputError{err: err, code: exitUsage}
			}
			return err
		},
	}
	f := c.Flags()
	f.SortFlags = false
	o.src.flags(f)
	f.StringArrayVar(&o.candidate, "candidate", nil, "candidate result `PATH` or selection, repeatable")
	f.StringVar(&o.baseline, "baseline", "", "baseline `SELECTION` (KEY=VALUE, key:HEX, id:HEX) or result path")
	o.obj.flags(f)
	f.IntVar(&o.minRepeats, "min-repeats", 3, "runs required per workload on each side")
	f.DurationVar(&o.minDuration, "min-duration", 0, "refuse candidate runs shorter than `DURATION` (benchmark duration)")
	f.Int64Var(&o.minRequests, "min-requests", 0, "refuse candidate runs with fewer successful requests")
	f.Float64Var(&o.confidence, "confidence", 0.95, "interval level a fact favouring admission must reach")
	f.Float64Var(&o.futility, "futility", 0.8, "interval level a fact against admission must reach")
	f.BoolVar(&o.allowCrossScope, "allow-cross-scope", false, "use a baseline measured in another environment")
	f.BoolVar(&o.noLabel, "no-label", false, "do not record admission as a label")
	return c
}

func (o *gateOptions) validate() error {
	switch {
	case o.src.study == "":
		return usagef("--study is required")
	case len(o.candidate) == 0:
		return usagef("--candidate is required")
	case o.baseline == "":
		return usagef("--baseline is required")
	case o.minRepeats < 1:
		return usagef("--min-repeats must be at least 1")
	case !(o.confidence > 0 && o.confidence < 1 && o.futility > 0 && o.futility < 1):
		return usagef("--confidence and --futility must be between 0 and 1")
	}
	return nil
}

func runGate(ctx context.Context, e *env, o *gateOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	objs, slos, sels, err := o.obj.parse()
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := store.Open(ctx, store.Location(o.src.store))
	if err != nil {
		return inputError{err: err}
	}
	defer st.Close()
	j := &gateJob{o: o, st: st, ctx: ctx}
	if err := j.record(); err != nil {
		return err
	}
	if err := j.load(); err != nil {
		return err
	}
	cand, base, archive, err := j.sides(sels)
	if err != nil {
		return err
	}
	cfg := decide.GateConfig{Objectives: objs, SLOs: slos, MinRepeats: o.minRepeats, Confidence: o.confidence, Futility: o.futility}
	v := decide.Gate(cfg, cand, base, archive)
	if refused := j.refused(); len(refused) > 0 {
		v.Decision, v.Reasons = decide.Reject, append(refused, v.Reasons...)
	}
	v.Thresholds.MinDuration, v.Thresholds.MinRequests = decide.Num(o.minDuration.Seconds()), o.minRequests
	if err := writeVerdict(e, v); err != nil {
		return err
	}
	return j.finish(v)
}

func writeVerdict(e *env, v decide.Verdict) error { return writeDecideJSON(e, v) }

// gateJob carries one gate run: the store, the recorded candidate and
// baseline trials and the study's groups.
type gateJob struct {
	o   *gateOptions
	st  store.Store
	ctx context.Context
	// candFiles and baseFiles are the trials read from paths.
	candFiles, baseFiles []trial.Trial
	groups               []decide.Group
	admitted             map[string]bool // configuration keys
	cand                 decide.Arm
}

// record reads the candidate (and a baseline given as paths) and stores
// their runs in the study.
func (j *gateJob) record() error {
	var err error
	if paths := pathsOf(j.o.candidate); len(paths) > 0 {
		if len(paths) != len(j.o.candidate) {
			return usagef("--candidate mixes paths and selections")
		}
		if j.candFiles, err = j.ingest(paths); err != nil {
			return err
		}
	}
	if decideIsPath(j.o.baseline) {
		j.baseFiles, err = j.ingest([]string{j.o.baseline})
	}
	return err
}

// ingest reads result paths and records their trials, one source per path.
func (j *gateJob) ingest(paths []string) ([]trial.Trial, error) {
	var all []trial.Trial
	for _, p := range paths {
		d, err := ingest.Load([]string{p}, ingest.LoadOptions{})
		if err != nil {
			return nil, inputError{err: err}
		}
		for _, s := range d.Skipped {
			if s.Code == ingest.SkipError {
				return nil, inputError{err: fmt.Errorf("%s: %s", s.Path, s.Reason)}
			}
		}
		if len(d.Trials) == 0 {
			return nil, inputError{err: fmt.Errorf("%s: no trials found", p)}
		}
		if _, _, err := j.st.Ingest(j.ctx, j.o.src.study, p, d.Trials); err != nil {
			return nil, inputError{err: fmt.Errorf("recording %s: %w", p, err)}
		}
		all = append(all, d.Trials...)
	}
	return all, nil
}

// load reads the study, groups its trials into repeats and notes the
// configurations with trials labelled as admitted.
func (j *gateJob) load() error {
	ts, err := decideStudyTrials(j.ctx, j.st, &j.o.src)
	if err != nil {
		return err
	}
	j.admitted = map[string]bool{}
	for i := range ts {
		if ts[i].Labels[admittedKey] == admittedValue {
			j.admitted[decide.Config(&ts[i], j.o.src.keys())] = true
		}
	}
	j.groups = decide.GroupRepeats(ts, j.o.src.keys())
	return nil
}

// sides builds the candidate, the baseline and the archive, measured on
// sels.
func (j *gateJob) sides(sels []trial.Selector) (decide.Side, decide.Side, []decide.Side, error) {
	var none decide.Side
	cand, err := j.candidate()
	if err != nil {
		return none, none, nil, err
	}
	base, err := j.baselineArm(cand.Scope)
	if err != nil {
		return none, none, nil, err
	}
	if base.Config == cand.Config {
		return none, none, nil, inputError{err: fmt.Errorf("the candidate is the baseline configuration (%s)", cand.Name)}
	}
	cs, err := decide.MeasureArm(cand, sels)
	if err != nil {
		return none, none, nil, inputError{err: err}
	}
	bs, err := decide.MeasureArm(base, sels)
	if err != nil {
		return none, none, nil, inputError{err: err}
	}
	var archive []decide.Side
	for _, a := range j.archive(cand, base) {
		if s, err := decide.MeasureArm(a, sels); err == nil {
			archive = append(archive, s)
		}
	}
	return cs, bs, archive, nil
}

// candidate returns the candidate's configuration: that of the recorded
// files, or the one selected among the stored trials.
func (j *gateJob) candidate() (decide.Arm, error) {
	var groups []*decide.Group
	if len(j.candFiles) > 0 {
		configs := map[string]bool{}
		for i := range j.candFiles {
			configs[decide.Config(&j.candFiles[i], j.o.src.keys())] = true
		}
		for i := range j.groups {
			if configs[j.groups[i].Config] {
				groups = append(groups, &j.groups[i])
			}
		}
	} else {
		sel, err := decide.ParseSelection(j.o.candidate[0])
		if err != nil {
			return decide.Arm{}, usageError{fmt.Errorf("--candidate: %w", err)}
		}
		groups = decide.Select(j.groups, sel)
	}
	arms := decide.Arms(groups)
	switch {
	case len(arms) == 0:
		return decide.Arm{}, inputError{err: fmt.Errorf("--candidate %s matches no usable trial", strings.Join(j.o.candidate, " "))}
	case len(arms) > 1:
		return decide.Arm{}, inputError{err: fmt.Errorf("--candidate holds %d configurations (%s); give one, or name the params that identify it with --config-key",
			len(arms), armNames(arms))}
	}
	j.cand = arms[0]
	return arms[0], nil
}

func armNames(arms []decide.Arm) string {
	names := make([]string, len(arms))
	for i, a := range arms {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// baselineArm chooses the baseline in the candidate's scope.
func (j *gateJob) baselineArm(scope decide.Scope) (decide.Arm, error) {
	spec := j.o.baseline
	if len(j.baseFiles) > 0 {
		spec = "key:" + decide.Config(&j.baseFiles[0], j.o.src.keys())
	}
	sel, err := decide.ParseSelection(spec)
	if err != nil {
		return decide.Arm{}, usageError{fmt.Errorf("--baseline: %w", err)}
	}
	arm, err := decide.Baseline(j.groups, sel, scope, j.o.allowCrossScope)
	if err != nil {
		var se *decide.ScopeError
		if errors.As(err, &se) {
			err = fmt.Errorf("%w (re-benchmark the baseline in this environment, or pass --allow-cross-scope)", err)
		}
		return decide.Arm{}, inputError{err: err}
	}
	arm.Name = j.o.baseline
	return arm, nil
}

// archive returns the admitted configurations measured in the
// candidate's scope, other than the candidate and the baseline.
func (j *gateJob) archive(cand, base decide.Arm) []decide.Arm {
	var groups []*decide.Group
	for i := range j.groups {
		g := &j.groups[i]
		if j.admitted[g.Config] && g.Scope == cand.Scope && g.Config != cand.Config && g.Config != base.Config {
			groups = append(groups, g)
		}
	}
	return decide.Arms(groups)
}

// refused lists candidate runs too short to be steady state.
func (j *gateJob) refused() []string {
	var out []string
	for _, g := range j.cand.Groups {
		for _, t := range g.Trials {
			if why := decide.TooShort(t, j.o.minDuration, j.o.minRequests); why != "" {
				out = append(out, fmt.Sprintf("run %s on %s refused: %s", t.ID, g.Workload, why))
			}
		}
	}
	return out
}

// finish records admission and turns the decision into the exit status.
func (j *gateJob) finish(v decide.Verdict) error {
	switch v.Decision {
	case decide.Admit:
		if j.o.noLabel {
			return nil
		}
		return j.label()
	case decide.Reject:
		return inputError{err: errors.New("candidate rejected"), code: exitInput}
	default:
		return inputError{err: errors.New("inconclusive: more runs needed"), code: exitInconclusive}
	}
}

// label records the admission as a label on the stored trials of the
// candidate's runs; their IDs stay those they were ingested with.
func (j *gateJob) label() error {
	var ids []string
	for _, g := range j.cand.Groups {
		for _, t := range g.Trials {
			ids = append(ids, t.ID)
		}
	}
	if _, err := j.st.SetLabels(j.ctx, j.o.src.study, ids, map[string]string{admittedKey: admittedValue}); err != nil {
		return inputError{err: fmt.Errorf("recording admission: %w", err), code: exitUsage}
	}
	return nil
}
