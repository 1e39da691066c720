package cli

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/compare"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/report"
	"github.com/spf13/cobra"
)

const compareLong = `Compare judges frontier against frontier: engine versions, engines,
hardware, a pull request against its base. Each SIDE is a result path
(file or directory: its trials) or a selection of the trials of --study and
--input: KEY=VALUE on labels, parameters, workload or environment (also !=,
<, <=, >, >=), where "=VALUE" takes the key of the side before it
(engine_version=0.10.0 =0.11.0). --by LABEL makes one side per value of
LABEL instead, in natural order (0.9 before 0.10). The first side is A;
every other side B is compared with it.

Objectives, SLOs and repeats are those of pareto front: the repeats of a
configuration are one point, its median (--aggregate); --noise defaults to
--min-improve, as in pareto gate and drift. An objective given neither
gets both from the noise the repeats of every side show: the band pareto
noise suggests (twice the upper bound of the run-to-run CV, rounded up to
0.5%); with too few repeats to measure it (fewer than 2 degrees of
freedom) every verdict is inconclusive. A zero band is never assumed. For
each pair:

  hypervolume   of each side against one common reference point (--ref,
                default the worst value of any run of any side plus 10% of
                the range), and B's relative change;
  uplift        with two objectives (X the first, Y the second): B's best Y
                at each X relative to A's, at every X of either frontier
                within both spans, and at the X values of --at (buckets),
                each marked measured or interpolated (--interpolate step:
                the best Y of a point reaching X, within X's noise band;
                linear: between the points around X); a bucket outside a
                frontier's span says so instead of extrapolating;
  verdict       from the noise-aware relation of pareto front --noise on
                the union of both sides' points. A point of A leads when
                it is on the noise-aware frontier of A and B together and
                no point of B reaches it within the bands (no worse beyond
                the noise band on every objective); A also leads when it
                reaches further than B on some objective beyond the band;
                and the same for B. b_dominates: only B leads; a_dominates:
                only A; crossing: both; indistinguishable: neither;
                inconclusive: a lead that the resamples do not confirm.

Every value has a percentile interval at --confidence from a seeded
bootstrap (--resamples, --seed): each resample draws every configuration's
repeats with replacement, so that a configuration measured once adds no
uncertainty (a warning says so). A lead counts when it holds for the point
estimates and in at least --confidence of the resamples; a difference
inside the bands is never a lead. A given band below the noise the repeats
show draws a warning: a lead must then hold beyond the band the noise
suggests too, and a difference inside the band is ruled out only by the
resamples. A curve point
is better or worse when its whole interval is beyond the minimum
improvement, the same when it lies within the noise band both ways.

The sides must share their environment (engine, engine version, CUDA,
driver, GPU) except on the keys they are selected by (an engine also frees
its version), unless --allow-cross-scope. --baseline SELECTION compares the
baseline measured in both sides first, as pareto drift does.

--format table, json (docs/schema/compare.schema.json) or markdown (a
summary to post as a pull request comment). --html FILE also writes the
comparison as a page: both frontiers, the uplift curve and the buckets.

Exit status: 0 no regression (A does not lead: b_dominates,
indistinguishable, or inconclusive on B's lead alone), 1 a regression
beyond the bands (a lead of A the resamples confirm: a_dominates,
crossing), 3 inconclusive (a lead of A they do not confirm, or no band to
judge with); any failure to reach a verdict (bad input, usage) exits 2.`

const compareExample = `  pareto compare examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    -o ttft.p99:min -o output_token_throughput:max --noise ttft.p99=5% --min-improve 3% --allow-cross-scope --html compare.html
  pareto compare --input examples/decide/baseline-sglang-0.5.6.jsonl --input examples/decide/baseline-sglang-0.6.0.jsonl \
    --by engine_version -o ttft.p99:min -o output_token_throughput:max --noise ttft.p99=5% --min-improve 3% --at 200,300 --format markdown
  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto compare --store runs.db --study tune --where role=baseline engine_version=0.5.6 =0.6.0 \
    -o ttft.p99:min -o output_token_throughput:max --noise ttft.p99=5% --min-improve 3% --baseline max_num_seqs=64 --format json`

// compareHelp is the help of pareto compare.
var compareHelp = commandSpec{
	use:     "compare SIDE SIDE... | --by LABEL  -o OBJECTIVE... [flags]",
	short:   "Compare frontiers: hypervolume, uplift and a verdict, with bootstrap intervals",
	long:    compareLong,
	example: compareExample,
}

type compareOptions struct {
	src             decideSource
	obj             objectiveFlags
	inputs          []string
	by              string
	aggregate       string
	ref, at, interp string
	resamples       int
	seed            uint64
	confidence      float64
	baseline        string
	allowCrossScope bool
	html            string
	format          formatFlag
}

func newCompareCmd(e *env) *cobra.Command {
	var o compareOptions
	c, f := newCommand(compareHelp, func(ctx context.Context, args []string) error {
		return runCompare(ctx, e, &o, args)
	})
	o.src.flags(f)
	f.StringArrayVar(&o.inputs, "input", nil, "result `PATH` whose trials the sides select from, repeatable")
	f.StringVar(&o.by, "by", "", "one side per value of `LABEL` (label, parameter or environment field)")
	o.obj.flags(f, noiseIsMinImprove)
	addAggregateFlag(f, &o.aggregate, "median")
	f.StringVar(&o.ref, "ref", "auto", "hypervolume reference point `auto|v1,v2,...`, common to every side")
	f.StringVar(&o.at, "at", "", "read both frontiers at these X values: `x1,x2,...` (two objectives)")
	f.StringVar(&o.interp, "interpolate", "step", "read a frontier between its points: `step|linear`")
	f.IntVar(&o.resamples, "resamples", compare.DefaultResamples, "bootstrap resamples")
	f.Uint64Var(&o.seed, "seed", 1, "bootstrap seed")
	f.Float64Var(&o.confidence, "confidence", 0.95, "level of every interval")
	f.StringVar(&o.baseline, "baseline", "", "compare the baseline `SELECTION` in both sides first (as pareto drift)")
	f.BoolVar(&o.allowCrossScope, "allow-cross-scope", false, "compare sides measured in other environments")
	o.format.add(f, "output `table|json|markdown`", enc.FormatTable, enc.FormatJSON, enc.FormatMarkdown)
	f.StringVar(&o.html, "html", "", "also write the comparison as an HTML page to `FILE`")
	return c
}

// parse validates the flags into the query and the comparison options.
func (o *compareOptions) parse() (*query.Query, compare.Options, error) {
	var opt compare.Options
	objs, slos, err := o.obj.parse()
	if err != nil {
		return nil, opt, err
	}
	// The sides' frontiers are strict: the bands judge the comparison.
	strict := slices.Clone(objs)
	for i := range strict {
		strict[i].Noise, strict[i].MinImprove = 0, 0
	}
	q := &query.Query{Objectives: strict, SLOs: slos, ConfigKeys: o.src.keys()}
	if q.Aggregate, err = repeat.ParseAggregation(o.aggregate); err != nil {
		return nil, opt, usageError{fmt.Errorf("--aggregate: %w", err)}
	}
	opt = compare.Options{Objectives: objs, Aggregate: q.Aggregate, Resamples: o.resamples, Seed: o.seed, Confidence: o.confidence, Fields: flagName}
	var ok bool
	if opt.Interpolation, ok = compare.ParseInterpolation(o.interp); !ok {
		return nil, opt, usagef("unknown --interpolate %q (want step or linear)", o.interp)
	}
	if o.ref != "auto" {
		rq := &query.Query{Objectives: objs}
		if err := rq.ParseReference(o.ref); err != nil {
			return nil, opt, queryUsage(err)
		}
		opt.Reference = rq.Reference
	}
	if o.at != "" {
		if len(objs) != 2 {
			return nil, opt, usagef("--at needs two objectives (X and Y), have %d", len(objs))
		}
		for _, s := range strings.Split(o.at, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, opt, usagef("--at value %q is not a number", s)
			}
			opt.At = append(opt.At, v)
		}
	}
	switch {
	case o.html != "" && len(objs) != 2:
		return nil, opt, usagef("--html needs two objectives (X and Y), have %d", len(objs))
	case o.resamples < 1:
		return nil, opt, usagef("--resamples must be at least 1")
	case !(o.confidence > 0 && o.confidence < 1):
		return nil, opt, usagef("--confidence must be between 0 and 1")
	}
	return q, opt, nil
}

// sides reads the trials of every side: result paths alone, selections
// and --by values from the pool of --study and --input.
func (o *compareOptions) sides(ctx context.Context, e *env, args []string) ([]compare.Trials, error) {
	if o.by != "" && len(args) > 0 {
		return nil, usagef("give sides or --by, not both")
	}
	var selections []string
	for _, a := range args {
		if !decideIsPath(a) {
			selections = append(selections, a)
		}
	}
	conds, err := compare.ParseSides(selections)
	if err != nil {
		return nil, usageError{err}
	}
	var pool []compare.Trials
	if o.by != "" || len(conds) > 0 {
		if o.src.none(o.inputs) {
			return nil, usagef("selections and --by select from --study or --input: give one")
		}
		set, err := loadSourceTrials(ctx, e, &o.src, o.inputs)
		if err != nil {
			return nil, err
		}
		if o.by != "" {
			pool = compare.SplitBy(set.Trials, o.by)
		} else {
			for _, c := range conds {
				pool = append(pool, compare.Select(set.Trials, c))
			}
		}
	}
	var out []compare.Trials
	for _, a := range args {
		if !decideIsPath(a) {
			out, pool = append(out, pool[0]), pool[1:]
			continue
		}
		src := o.src
		src.study, src.optuna, src.where = "", "", nil
		set, err := loadSourceTrials(ctx, e, &src, []string{a})
		if err != nil {
			return nil, err
		}
		out = append(out, compare.Trials{Name: a, Trials: set.Trials})
	}
	out = append(out, pool...)
	if len(out) < 2 {
		return nil, usagef("want at least two sides, have %d", len(out))
	}
	for _, s := range out {
		if len(s.Trials) == 0 {
			return nil, inputError{err: fmt.Errorf("side %s selects no trial", s.Name)}
		}
	}
	return out, nil
}

func runCompare(ctx context.Context, e *env, o *compareOptions, args []string) error {
	q, opt, err := o.parse()
	if err != nil {
		return err
	}
	var base repeat.Selection
	if o.baseline != "" {
		if base, err = repeat.ParseSelection(o.baseline); err != nil {
			return usageError{fmt.Errorf("--baseline: %w", err)}
		}
	}
	ts, err := o.sides(ctx, e, args)
	if err != nil {
		return err
	}
	if !o.allowCrossScope {
		if err := compare.CheckScopes(ts); err != nil {
			return usagef("%v; compare one environment, or give --allow-cross-scope", err)
		}
	}
	sides := make([]*compare.Side, len(ts))
	var warnings []string
	for i, t := range ts {
		s, w, err := compare.FromTrials(q, t)
		if err != nil {
			return inputError{err: fmt.Errorf("side %s: %w", t.Name, err)}
		}
		sides[i] = s
		for _, x := range w {
			if !slices.Contains(warnings, x) {
				warnings = append(warnings, x)
			}
		}
	}
	rep, err := compare.Run(sides, opt)
	if err != nil {
		return inputError{err: err}
	}
	rep.Warnings = append(rep.Warnings, warnings...)
	if o.baseline != "" {
		for i := range rep.Pairs {
			d, why, err := compare.BaselineDrift(ts[0], ts[i+1], base, q.ConfigKeys, opt.Objectives, opt.Confidence)
			if err != nil {
				return inputError{err: fmt.Errorf("--baseline: %w", err)}
			}
			rep.Pairs[i].Baseline = d
			if why != "" {
				rep.Warnings = append(rep.Warnings, why)
			}
		}
	}
	if err := e.write(o.format.f, rep); err != nil {
		return err
	}
	if o.html != "" {
		if err := writeCompareHTML(o.html, rep); err != nil {
			return inputError{err: err}
		}
	}
	if string(o.format.f) != "table" {
		for _, w := range rep.Warnings {
			fmt.Fprintf(e.stderr, "pareto compare: warning: %s\n", enc.SafeLines(w))
		}
	}
	return compareOutcome(rep)
}

// compareOutcome maps the pairs' statuses to the exit status: any
// regression 1, else any unsettled one 3.
func compareOutcome(rep *compare.Report) error {
	var reg, unsure []string
	for _, p := range rep.Pairs {
		switch p.Status {
		case compare.Regression:
			reg = append(reg, p.B+" against "+p.A)
		case compare.RegressionUnsettled:
			unsure = append(unsure, p.B+" against "+p.A)
		}
	}
	switch {
	case len(reg) > 0:
		return outcomeError{outcome: outcomeRejected, msg: "regression beyond the noise bands: " + strings.Join(reg, ", ")}
	case len(unsure) > 0:
		return outcomeError{outcome: outcomeInconclusive, msg: "inconclusive: a regression cannot be ruled out for " + strings.Join(unsure, ", ")}
	}
	return nil
}

// writeCompareHTML writes the comparison page (two objectives).
func writeCompareHTML(path string, rep *compare.Report) error {
	names := make([]string, len(rep.Sides))
	for i, s := range rep.Sides {
		names[i] = s.Name
	}
	page, err := report.ComparisonPage("pareto compare", strings.Join(names, " vs "), rep)
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return report.WriteFile(path, page)
}
