package cli

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
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
  pareto front --store runs.db --study tune -o ttft.p99 -o output_token_throughput`

type frontOptions struct {
	objectives, noise, minImprove, slos []string
	id, groupBy, ref, format            string
	ranks, keepGoing, frontierOnly      bool
	store                               storeFlags
	aggregate, baseline                 string
	configKeys                          []string
	allowCrossScope                     bool
	optuna, optunaStudy                 string
}

func newFrontCmd(e *env) *cobra.Command {
	var o frontOptions
	c := &cobra.Command{
		Use:     "front [flags] FILE...",
		Short:   "Compute strict or noise-aware Pareto frontiers of results, tables and studies",
		Long:    frontLong,
		Example: frontExample,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && o.store.study == "" && o.optuna == "" {
				return usagef("no input files (use - for standard input) and no --study")
			}
			return runFront(e, &o, args)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringArrayVarP(&o.objectives, "objective", "o", nil, "objective `NAME[:min|:max]`, repeatable, in order")
	f.StringArrayVar(&o.noise, "noise", nil, "relative noise band `NAME=PCT` (σ), or PCT for every objective")
	f.StringArrayVar(&o.minImprove, "min-improve", nil, "minimum improvement `NAME=PCT` (δ), or PCT for every objective")
	f.StringArrayVar(&o.slos, "slo", nil, "feasibility bound `NAME<=VALUE` (also <, >=, >), repeatable")
	f.StringVar(&o.id, "id", "", "trial id `COLUMN` (default: id when present, else the 1-based row number)")
	f.StringVar(&o.groupBy, "group-by", "", "one frontier per value of `COLUMN`")
	f.BoolVar(&o.ranks, "ranks", false, "report strict non-dominated ranks (0 = frontier)")
	f.StringVar(&o.ref, "ref", "", "add hypervolume with reference point `auto|v1,v2,...`")
	f.StringVar(&o.format, "format", "table", "output `table|json|csv`")
	f.BoolVar(&o.keepGoing, "keep-going", false, "exit 0 even when some inputs could not be read")
	f.BoolVar(&o.frontierOnly, "frontier-only", false, "print the frontier and the size of every other list, not its members")
	f.StringVar(&o.aggregate, "aggregate", "median", "combine repeats of a configuration: `median|mean|none`")
	f.StringSliceVar(&o.configKeys, "config-key", nil, "parameters that identify a configuration (`k1,k2`; default: all but run parameters)")
	f.StringVar(&o.baseline, "baseline", "", "state every trial's delta to the baseline `SEL` (label k=v, key:HEX or id:ID)")
	f.BoolVar(&o.allowCrossScope, "allow-cross-scope", false, "allow a baseline measured with another engine, CUDA, driver or GPU")
	f.StringVar(&o.optuna, "optuna", "", "read an Optuna RDB `STORAGE` (SQLite file or postgresql:// URL; read only)")
	f.StringVar(&o.optunaStudy, "optuna-study", "", "the Optuna study `NAME` (default: the only study in the storage)")
	addStoreFlags(f, &o.store)
	return c
}

// frontQuery is the validated form of the flags.
type frontQuery struct {
	objectives []frontier.Objective
	slos       []frontier.SLO
	ref        []float64
	autoRef    bool
}

func parseFrontQuery(o *frontOptions) (*frontQuery, error) {
	q := &frontQuery{}
	if len(o.objectives) == 0 {
		return nil, usagef("no objectives: give at least one -o NAME:min or -o NAME:max")
	}
	for _, s := range o.objectives {
		obj, err := parseObjective(s)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(q.objectives, func(x frontier.Objective) bool { return x.Name == obj.Name }) {
			return nil, usagef("objective %q given twice", obj.Name)
		}
		q.objectives = append(q.objectives, obj)
	}
	if err := applyPercents(q.objectives, o.noise, "--noise", func(o *frontier.Objective, v float64) { o.Noise = v }); err != nil {
		return nil, err
	}
	if err := applyPercents(q.objectives, o.minImprove, "--min-improve", func(o *frontier.Objective, v float64) { o.MinImprove = v }); err != nil {
		return nil, err
	}
	for _, obj := range q.objectives {
		if obj.MinImprove >= 1 {
			return nil, usagef("--min-improve for %s must be below 100%%", obj.Name)
		}
	}
	for _, s := range o.slos {
		slo, err := frontier.ParseSLO(s)
		if err != nil {
			return nil, usageError{err}
		}
		q.slos = append(q.slos, slo)
	}
	if err := q.parseRef(o.ref); err != nil {
		return nil, err
	}
	switch o.format {
	case "table", "json", "csv":
	default:
		return nil, usagef("unknown --format %q (want table, json or csv)", o.format)
	}
	return q, nil
}

// parseObjective reads NAME[:min|:max]. Without a suffix the direction is
// the metric registry's (ttft minimises, output_token_throughput
// maximises); other names need an explicit direction.
func parseObjective(s string) (frontier.Objective, error) {
	name, dir, ok := cutLast(s, ":")
	if ok && strings.Contains(dir, "}") {
		name, ok = s, false // a colon inside {...} is not a direction
	}
	if !ok {
		sel, err := trial.ParseSelector(s)
		if err == nil {
			if m, found := trial.Lookup(sel.Metric); found && m.Ranked {
				return frontier.Objective{Name: s, Direction: m.Direction}, nil
			}
			if m, found := trial.Lookup(sel.Name); found && m.Ranked {
				return frontier.Objective{Name: s, Direction: m.Direction}, nil
			}
		}
		return frontier.Objective{}, usagef("objective %q has no direction: write %s:min or %s:max", s, s, s)
	}
	d, err := frontier.ParseDirection(dir)
	if err != nil || name == "" {
		return frontier.Objective{}, usagef("objective %q: want NAME:min or NAME:max", s)
	}
	return frontier.Objective{Name: name, Direction: d}, nil
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// applyPercents sets a per-objective percentage from NAME=PCT or PCT flags.
func applyPercents(objs []frontier.Objective, vals []string, flag string, set func(*frontier.Objective, float64)) error {
	for _, s := range vals {
		name, pct, named := cutLast(s, "=")
		if !named {
			pct = s
		}
		v, err := parsePercent(pct)
		if err != nil {
			return usagef("%s %q: %v", flag, s, err)
		}
		hit := false
		for i := range objs {
			if !named || objs[i].Name == name {
				set(&objs[i], v)
				hit = true
			}
		}
		if !hit {
			return usagef("%s %q: %q is not an objective (have %s)", flag, s, name, objectiveNames(objs))
		}
	}
	return nil
}

func objectiveNames(objs []frontier.Objective) string {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// parsePercent reads "15%" as 0.15 and "0.15" as 0.15.
func parsePercent(s string) (float64, error) {
	s = strings.TrimSpace(s)
	scale := 1.0
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, scale = t, 0.01
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("want a non-negative percentage such as 5%% or 0.05")
	}
	return v * scale, nil
}

func (q *frontQuery) parseRef(s string) error {
	switch s {
	case "":
		return nil
	case "auto":
		q.autoRef = true
		return nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != len(q.objectives) {
		return usagef("--ref has %d values for %d objectives", len(parts), len(q.objectives))
	}
	for _, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) {
			return usagef("--ref value %q is not a number", p)
		}
		q.ref = append(q.ref, v)
	}
	return nil
}

func runFront(e *env, o *frontOptions, paths []string) error {
	if o.optuna != "" && len(o.objectives) == 0 {
		if err := optunaObjectives(o); err != nil {
			return err
		}
	}
	q, err := parseFrontQuery(o)
	if err != nil {
		return err
	}
	data, failed := loadTrials(e, o, q, paths)
	if o.store.study != "" {
		if err := loadFrontStudy(o, q, data); err != nil {
			return err
		}
	}
	if o.optuna != "" {
		if err := loadOptuna(e, o, q, data); err != nil {
			return err
		}
	}
	if failed > 0 && len(data.ids) == 0 {
		return inputError{err: fmt.Errorf("no input could be read")}
	}
	if err := applyRepeats(o, data); err != nil {
		return err
	}
	report := analyzeFront(o, q, data)
	if err := writeFront(e.stdout, o.format, report); err != nil {
		return err
	}
	if o.format == "table" {
		for _, w := range report.warnings {
			fmt.Fprintf(e.stderr, "pareto front: warning: %s\n", w)
		}
	}
	if failed > 0 && !o.keepGoing {
		return inputError{err: fmt.Errorf("%d inputs could not be read", failed)}
	}
	return nil
}

// applyRepeats combines repeats and grounds trials to the baseline.
func applyRepeats(o *frontOptions, d *frontData) error {
	agg, err := decide.ParseAggregation(o.aggregate)
	if err != nil {
		return usageError{fmt.Errorf("--aggregate: %w", err)}
	}
	if !slices.ContainsFunc(d.trials, func(t *trial.Trial) bool { return t != nil }) && o.baseline == "" {
		return nil // table rows only: each row is its own configuration
	}
	d.aggregate(agg, o.configKeys)
	if o.baseline != "" {
		return d.baselineDeltas(o.baseline, o.allowCrossScope)
	}
	return nil
}
