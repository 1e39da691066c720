package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const noiseLong = `Noise estimates each metric's run-to-run variation from repeats: trials of
one configuration under one workload in one environment. The coefficient of
variation is pooled over configurations (from the variance of the log values,
weighted by each configuration's repeats minus one) and bounded by a
chi-square interval at --confidence. The suggested noise band is twice the
upper bound, rounded up to 0.5%: about 95% of single runs fall within it of
their configuration's typical value. Configurations with fewer than
--min-repeats repeats are listed as a warning.

Trials come from the study (--store, --study, --where) and/or from result
paths. Exit status: 0 success, 1 bad input, 2 usage error.`

// noiseHelp is the help of pareto noise.
var noiseHelp = commandSpec{
	use:     "noise -o METRIC... [--store S --study NAME] [PATH...]",
	short:   "Estimate run-to-run noise from repeats and suggest noise bands",
	long:    noiseLong,
	example: "  " + baselineStudyExample + " && pareto noise --store runs.db --study tune -o output_token_throughput -o ttft.p99",
}

// baselineStudyExample is the start of the help examples that read the
// study of example baselines: it ingests them into runs.db.
const baselineStudyExample = "pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl --store runs.db --study tune --label role=baseline"

type noiseOptions struct {
	src        decideSource
	metrics    []string
	confidence float64
	minRepeats int
	format     formatFlag
}

func newNoiseCmd(e *env) *cobra.Command {
	var o noiseOptions
	c, f := newCommand(noiseHelp, func(ctx context.Context, args []string) error {
		if len(o.metrics) == 0 {
			return usagef("no metrics: give at least one -o METRIC")
		}
		if !(o.confidence > 0 && o.confidence < 1) {
			return usagef("--confidence must be between 0 and 1")
		}
		return runNoise(ctx, e, &o, args)
	})
	o.src.flags(f)
	f.StringArrayVarP(&o.metrics, "objective", "o", nil, "metric `SELECTOR` (a direction suffix is ignored), repeatable")
	f.Float64Var(&o.confidence, "confidence", 0.95, "level of the interval on the coefficient of variation")
	f.IntVar(&o.minRepeats, "min-repeats", 3, "warn about configurations with fewer repeats")
	o.format.addTableJSON(f)
	return c
}

func runNoise(ctx context.Context, e *env, o *noiseOptions, paths []string) error {
	var names []string
	for _, m := range o.metrics {
		name, _, _ := strings.Cut(m, ":")
		if _, err := trial.ParseSelector(name); err != nil {
			return usageError{err}
		}
		names = append(names, name)
	}
	ts, err := loadDecideTrials(ctx, &o.src, paths)
	if err != nil {
		return err
	}
	rep, err := decide.RunNoise(ts, decide.NoiseRequest{ConfigKeys: o.src.keys(), Metrics: names, Confidence: o.confidence, MinRepeats: o.minRepeats})
	if err != nil {
		return inputError{err: err}
	}
	return e.write(o.format.f, newNoiseResult(rep, o))
}

// WriteTable prints the metrics' noise and the configurations with too
// few repeats.
func (r noiseResult) WriteTable(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "%d configurations (configuration × workload × environment)\n\n", r.Configurations)
	ci := fmt.Sprintf("%g%% CI", 100*r.confidence)
	enc.Section(w, []string{"metric", "cv", ci, "configs", "df", "suggested --noise"}, len(r.Metrics), func(b []byte, row, c int) []byte {
		m := r.Metrics[row]
		switch c {
		case 0:
			return append(b, m.Name...)
		case 1:
			return appendPct(b, float64(m.CV))
		case 2:
			return appendPct(appendPct(b, float64(m.Low)), float64(m.High))
		case 3:
			return fmt.Appendf(b, "%d", m.Configs)
		case 4:
			return fmt.Appendf(b, "%d", m.DF)
		}
		return appendPct(b, float64(m.Suggested))
	})
	if few := r.FewRepeats; len(few) > 0 {
		fmt.Fprintf(w, "\nWARNING: %d configurations have fewer than %d repeats\n", len(few), r.minRepeats)
		enc.Section(w, []string{"config", "workload", "runs"}, len(few), func(b []byte, row, c int) []byte {
			f := few[row]
			return append(b, [...]string{f.Config, f.Workload, fmt.Sprint(f.Runs)}[c]...)
		})
	}
	return w.Flush()
}

// appendPct renders a fraction as a percentage with one decimal ("-" for
// NaN); a second value on the same cell is joined with " to ".
func appendPct(b []byte, v float64) []byte {
	if len(b) > 0 && b[len(b)-1] == '%' {
		b = append(b, " to "...)
	}
	if v != v {
		return append(b, '-')
	}
	return fmt.Appendf(b, "%.1f%%", 100*v)
}

// noiseResult is what pareto noise prints
// (docs/schema/noise.schema.json); the confidence and the repeats asked
// for head the table.
type noiseResult struct {
	Configurations int            `json:"configurations"`
	Metrics        []noiseMetric  `json:"metrics"`
	FewRepeats     []noiseFewJSON `json:"few_repeats"`

	confidence float64
	minRepeats int
}

type noiseMetric struct {
	Name      string     `json:"name"`
	CV        decide.Num `json:"cv"`
	Low       decide.Num `json:"cv_low"`
	High      decide.Num `json:"cv_high"`
	Configs   int        `json:"configs"`
	DF        int        `json:"df"`
	Suggested decide.Num `json:"suggested_noise"`
}

type noiseFewJSON struct {
	Config   string `json:"config"`
	Workload string `json:"workload"`
	Runs     int    `json:"runs"`
}

func newNoiseResult(rep decide.NoiseReport, o *noiseOptions) noiseResult {
	out := noiseResult{Configurations: rep.Configurations, Metrics: []noiseMetric{}, FewRepeats: []noiseFewJSON{},
		confidence: o.confidence, minRepeats: o.minRepeats}
	for _, m := range rep.Metrics {
		out.Metrics = append(out.Metrics, noiseMetric{m.Name, decide.Num(m.CV), decide.Num(m.Low), decide.Num(m.High), m.Configs, m.DF, decide.Num(m.Band)})
	}
	for _, f := range rep.Few {
		out.FewRepeats = append(out.FewRepeats, noiseFewJSON{"key:" + f.Config, f.Workload.String(), f.N})
	}
	return out
}

// loadSourceTrials reads the trials of result paths (tables included) and,
// when a study is named or no path is given, of the store, through the
// source layer; inputs that cannot be read, or that yield nothing, are an
// error naming each.
func loadSourceTrials(ctx context.Context, e *env, src *decideSource, paths []string) (*source.Set, error) {
	if src.none(paths) {
		return nil, usagef("give result paths, --study or --optuna")
	}
	q, err := src.query()
	if err != nil {
		return nil, err
	}
	lo, err := src.load(0, src.limits)
	if err != nil {
		return nil, err
	}
	set, err := source.Trials(ctx, src.spec(e, paths, lo, q.Where))
	if errors.Is(err, source.ErrOptunaStudy) {
		return nil, usagef("--optuna-study is required: %v", err)
	}
	if errors.Is(err, store.ErrNoStudy) {
		return nil, inputError{err: fmt.Errorf("study %q does not exist", src.study)}
	}
	if err != nil {
		return nil, inputError{err: err}
	}
	if err := source.Unreadable(set.Skipped); err != nil {
		return nil, inputError{err: err}
	}
	return set, nil
}

// loadDecideTrials reads trials from result paths and, when a study is
// named or no path is given, from the store (loadSourceTrials).
func loadDecideTrials(ctx context.Context, src *decideSource, paths []string) ([]trial.Trial, error) {
	set, err := loadSourceTrials(ctx, &env{}, src, paths)
	if err != nil {
		return nil, err
	}
	return set.Trials, nil
}

// sourceFlags are where a reading command takes its trials from: result
// files, read as readerFlags and limitFlags say, a stored study
// (storeFlags) and an Optuna study (--optuna, --optuna-study). Each
// command registers them in the order of its help.
type sourceFlags struct {
	storeFlags
	readerFlags
	optuna, optunaStudy string
	limits              limitFlags
}

// none reports whether no input is named: no path, no --study and no
// --optuna.
func (s *sourceFlags) none(paths []string) bool {
	return len(paths) == 0 && s.study == "" && s.optuna == ""
}

// spec names the inputs: paths ("-" is standard input), read with lo, the
// study of the flags, its trials filtered by where, and the Optuna study;
// the notes name fields by their flags.
func (s *sourceFlags) spec(e *env, paths []string, lo source.LoadOptions, where []store.Condition) source.Spec {
	return source.Spec{Paths: paths, Stdin: e.stdin, Load: lo, Store: s.location, Study: s.study, Where: where,
		Optuna: s.optuna, OptunaStudy: s.optunaStudy, Fields: flagName}
}

// decideSource are the sources of a decision's trials and --config-key.
type decideSource struct {
	sourceFlags
	configKey string
}

// addOptunaFlags registers --optuna and --optuna-study.
func addOptunaFlags(f *pflag.FlagSet, storage, study *string) {
	f.StringVar(storage, "optuna", "", "read an Optuna RDB `STORAGE` (SQLite file or postgresql:// URL; read only)")
	f.StringVar(study, "optuna-study", "", "the Optuna study `NAME` (default: the only study in the storage)")
}

// flags adds the sources of a decision's trials: the store, the
// readers' settings for files, and an Optuna study.
func (s *decideSource) flags(f *pflag.FlagSet) {
	addStoreFlags(f, &s.storeFlags)
	f.StringVar(&s.configKey, "config-key", "", "repeat identity from these params only: `k1,k2,...`")
	s.readerFlags.add(f)
	addLimitFlags(f, &s.limits)
	addOptunaFlags(f, &s.optuna, &s.optunaStudy)
}

func (s *decideSource) keys() []string {
	if s.configKey == "" {
		return nil
	}
	return strings.Split(s.configKey, ",")
}

// objectiveFlags are the objective flags: -o, --noise, --min-improve and
// --slo.
type objectiveFlags struct {
	objectives, noise, minImprove, slos []string
}

// noiseIsMinImprove is the --noise default of the commands that decide
// (objectiveFlags.parse).
const noiseIsMinImprove = " (default: the min improvement)"

// flags registers the flags; noiseDefault ends the help of --noise.
func (o *objectiveFlags) flags(f *pflag.FlagSet, noiseDefault string) {
	f.StringArrayVarP(&o.objectives, "objective", "o", nil, "objective `NAME[:min|:max]`, repeatable, in order")
	f.StringArrayVar(&o.noise, "noise", nil, "relative noise band `NAME=PCT`, or PCT for every objective"+noiseDefault)
	f.StringArrayVar(&o.minImprove, "min-improve", nil, "minimum improvement `NAME=PCT`, or PCT for every objective")
	addSLOFlag(f, &o.slos)
}

// addSLOFlag registers --slo, the feasibility bounds.
func addSLOFlag(f *pflag.FlagSet, slos *[]string) {
	f.StringArrayVar(slos, "slo", nil, "bound `NAME<=VALUE` (also <, >=, >), repeatable")
}

// parse validates the objective flags into objectives and SLOs, whose
// names must be metric selectors (query.DecideObjectives).
func (o *objectiveFlags) parse() ([]frontier.Objective, []frontier.SLO, error) {
	objs, slos, err := query.DecideObjectives(o.objectives, o.noise, o.minImprove, o.slos)
	if err != nil {
		return nil, nil, queryUsage(err)
	}
	return objs, slos, nil
}

// decideIsPath reports whether s names an existing file or directory.
func decideIsPath(s string) bool { return source.IsPath(s) }
