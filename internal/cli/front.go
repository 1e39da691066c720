package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/spf13/cobra"
)

const frontLong = `Front reads trial tables and prints, per group, the trials worth keeping
(the frontier) and why every other trial was left out.

Inputs are CSV files with a header row (one trial per row) or JSONL files
(one JSON object per line); "-" reads standard input. The format is sniffed
from the content.

Objectives are columns with a direction: -o ttft_p99:min -o tps:max.
With --noise and --min-improve the frontier is noise-aware: trial a beats
trial b only if a is no worse than b beyond b's noise band on every
objective and better by more than the minimum improvement on one. Such a
relation can have cycles; the frontier is then the set of top cycles
(the Schwartz set), whose members are reported as noise-tied, with a
warning giving the smallest minimum improvement that rules cycles out.

SLO bounds (--slo 'ttft_p99<=200') are applied first: infeasible trials
never beat anything and are listed with the bounds they violate. Trials
with missing, NaN or infinite values (or non-positive values on an
objective with a relative band) are listed as invalid.

Percentages are written 15% or as fractions (0.15). --noise 5% without a
name applies to every objective.

With --study the trials come from a store (--store, default $PARETO_STORE
or pareto.db), filtered with --where on labels, parameters, workload and
environment ('engine_version=0.8.5', 'concurrency>=16').

Benchmark trials of the same configuration under the same workload and
environment are repeats: by default each objective is their median
(--aggregate), reported with n, min, max and quartiles. The identity is
the hash of the configuration parameters, the workload and the
environment scope, or of --config-key parameters. --baseline grounds every
trial to a baseline (label k=v, key:HEX or id:ID) measured under the same
workload: the relative delta on each objective is printed; a baseline from
another engine, CUDA, driver or GPU version is refused unless
--allow-cross-scope.

--optuna reads the complete trials of a study someone ran with Optuna
(its RDB storage: a SQLite file or a PostgreSQL URL): objective values under
the study's metric names (values_0, values_1, ... when unnamed), parameters,
user attributes and constraints (constraint_0, ...; Optuna's feasibility,
every constraint <= 0, is applied as SLOs), so that noise bands, SLOs and
groups work over it.

Exit status: 0 success (also when nothing is feasible), 1 bad input or
I/O error (after printing the result of the inputs that could be read,
unless --keep-going), 2 usage error.`

const frontExample = `  pareto front examples/trials.csv -o ttft_p99_ms:min -o output_tps:max
  pareto front examples/trials.csv -o ttft_p99_ms:min -o output_tps:max --noise ttft_p99_ms=10% --noise output_tps=3% --min-improve 5%
  pareto front examples/trials.csv -o tpot_mean_ms:min -o output_tps_per_gpu:max --slo 'ttft_p99_ms<=500' --group-by engine --format json
  pareto ingest examples/decide/tries-sglang-0.6.0.jsonl --store runs.db --study tune && \
    pareto front --store runs.db --study tune -o ttft.p99 -o output_token_throughput`

// frontHelp is the help of pareto front.
var frontHelp = commandSpec{
	use:     "front [flags] FILE...",
	short:   "Compute strict or noise-aware Pareto frontiers of results, tables and studies",
	long:    frontLong,
	example: frontExample,
}

type frontOptions struct {
	obj                            objectiveFlags
	id, groupBy, ref               string
	format                         formatFlag
	ranks, keepGoing, frontierOnly bool
	aggregate, baseline            string
	configKeys                     []string
	allowCrossScope                bool
	sourceFlags
}

func newFrontCmd(e *env) *cobra.Command {
	var o frontOptions
	c, f := newCommand(frontHelp, func(ctx context.Context, args []string) error {
		if o.none(args) {
			return usagef("no input files (use - for standard input) and no --study")
		}
		return runFront(ctx, e, &o, args)
	})
	o.obj.flags(f, "")
	f.StringVar(&o.id, "id", "", "trial id `COLUMN` (default: id when present, else the 1-based row number)")
	f.StringVar(&o.groupBy, "group-by", "", "one frontier per value of `COLUMN`")
	f.BoolVar(&o.ranks, "ranks", false, "report strict non-dominated ranks (0 = frontier)")
	f.StringVar(&o.ref, "ref", "", "add hypervolume with reference point `auto|v1,v2,...`")
	o.format.add(f, "output `table|json|csv`", enc.FormatTable, enc.FormatJSON, enc.FormatCSV)
	addKeepGoingFlag(f, &o.keepGoing)
	f.BoolVar(&o.frontierOnly, "frontier-only", false, "print the frontier and the size of every other list, not its members")
	addAggregateFlag(f, &o.aggregate, "median")
	f.StringSliceVar(&o.configKeys, "config-key", nil, "parameters that identify a configuration (`k1,k2`; default: all but run parameters)")
	f.StringVar(&o.baseline, "baseline", "", "state every trial's delta to the baseline `SEL` (label k=v, key:HEX or id:ID)")
	f.BoolVar(&o.allowCrossScope, "allow-cross-scope", false, "allow a baseline measured with another engine, CUDA, driver or GPU")
	addOptunaFlags(f, &o.optuna, &o.optunaStudy)
	o.readerFlags.add(f)
	addStoreFlags(f, &o.storeFlags)
	addLimitFlags(f, &o.limits)
	return c
}

// parseFrontQuery validates the flags into a query (query.Spec).
func parseFrontQuery(o *frontOptions) (*query.Query, error) {
	q, err := query.Spec{Objectives: o.obj.objectives, Noise: o.obj.noise, MinImprove: o.obj.minImprove, SLOs: o.obj.slos,
		ID: o.id, GroupBy: o.groupBy, Ranks: o.ranks, FrontierOnly: o.frontierOnly, Ref: o.ref, Aggregate: o.aggregate,
		ConfigKeys: o.configKeys, Baseline: o.baseline, AllowCrossScope: o.allowCrossScope}.Query()
	if err != nil {
		return nil, queryUsage(err)
	}
	q.Fields = flagName
	return q, nil
}

func runFront(ctx context.Context, e *env, o *frontOptions, paths []string) error {
	if o.optuna != "" && len(o.obj.objectives) == 0 {
		objs, _, err := source.OptunaObjectives(ctx, o.optuna, o.optunaStudy)
		if err != nil {
			return optunaError(err)
		}
		for _, obj := range objs {
			dir := "min"
			if obj.Direction == frontier.Maximize {
				dir = "max"
			}
			o.obj.objectives = append(o.obj.objectives, obj.Name+":"+dir)
		}
	}
	q, err := parseFrontQuery(o)
	if err != nil {
		return err
	}
	spec, err := o.sourceSpec(e, paths)
	if err != nil {
		return err
	}
	if o.study != "" {
		if old := gcpolicy.Study(os.Getenv); old >= 0 {
			defer debug.SetGCPercent(old)
		}
	}
	note := e.note("pareto front")
	spec.Note = note
	res, bad, err := source.Front(ctx, spec, q)
	for _, b := range bad {
		note(enc.Safe(limitText(b.Reason))) // one line, whatever the file's name holds
	}
	if err != nil {
		var se *source.Error
		if errors.As(err, &se) && len(bad) > 0 { // each printed above
			return inputError{err: fmt.Errorf("no input could be read")}
		}
		if se != nil {
			return inputError{err: err} // why each input is no result
		}
		return optunaError(err)
	}
	if err := e.write(o.format.f, res); err != nil {
		return err
	}
	if string(o.format.f) == "table" {
		for _, w := range res.Warnings() {
			note("warning: " + w)
		}
	}
	if len(bad) > 0 && !o.keepGoing {
		return inputError{err: source.Unreadable(bad)}
	}
	return nil
}

// sourceSpec names the command's inputs (sourceFlags.spec): --where
// filters the study, when there is one.
func (o *frontOptions) sourceSpec(e *env, paths []string) (source.Spec, error) {
	lo, err := o.load(0, o.limits)
	if err != nil {
		return source.Spec{}, err
	}
	lo.Table.ID = o.id
	var where []store.Condition
	if o.study != "" {
		sq, err := o.query()
		if err != nil {
			return source.Spec{}, err
		}
		where = sq.Where
	}
	return o.spec(e, paths, lo, where), nil
}

// optunaError maps a failure to read an Optuna storage to its exit status.
func optunaError(err error) error {
	if errors.Is(err, source.ErrOptunaStudy) {
		return usagef("--optuna-study is required: %v", err)
	}
	return inputError{err: err}
}
