package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/report"
	"github.com/pareto-llm/pareto/trial"
)

const generateLong = `Generate-report writes DIR/pareto.html for a CloudAI scenario results
directory, following CloudAI's [reports.pareto] table in the scenario TOML:
one chart per [[reports.pareto.plots]], one frontier per frontiers entry,
point details with the serving layout and the executed TOML, a
measurements table and the exclusions with their reasons.

The flags are CloudAI's. --system-config supplies gpus_per_node for the
per-allocated-GPU metrics; --tests-dir is accepted for compatibility.
As in CloudAI the report is opt-in: without enable = true nothing is
written. Unlike CloudAI, a broken configuration is an error (exit 1) with
file:line:col positions. --aggregate, --config-key, --baseline and
--allow-cross-scope are as in 'pareto report'.

Exit status: 0 success, 1 bad configuration, input or I/O error, 2 usage error.`

const reportLong = `Report writes a self-contained interactive pareto.html (no network, all
data, JavaScript and CSS inline) for any sources pareto reads: benchmark
result files, and directories holding CloudAI results trees.

Plots come from --config, a pareto.toml with the [reports.pareto] tables
of a CloudAI scenario, or from -x and -y (objectives METRIC[.STAT][:min|:max]
as in 'pareto front -o'), which draw one plot with one frontier, or one per
value of --group-by.

Repeats (trials of one configuration under one workload in one environment;
--config-key names the params that identify a configuration) become one
point: the per-axis median (--aggregate mean, or none for one point per
run), drawn with error bars (min-max whiskers, interquartile box) and with n
in the details. --baseline SEL (KEY=VALUE on labels or params, key:HEX or
id:HEX) marks the baseline and gives every point its relative delta to it
on each axis, within the point's frontier group and workload. A baseline
measured in another environment (engine, CUDA, driver or GPU) is refused,
naming the values that differ, unless --allow-cross-scope.

Exit status: 0 success, 1 bad configuration, input or I/O error, 2 usage error.`

type generateOptions struct {
	scenario, resultDir, system, testsDir string
	store                                 storeFlags
	repeats                               repeatFlags
}

type reportOptions struct {
	config, out, x, y, groupBy string
	store                      storeFlags
	repeats                    repeatFlags
}

// repeatFlags say how a report aggregates repeats and what it compares
// points with.
type repeatFlags struct {
	aggregate, configKey, baseline string
	allowCrossScope                bool
}

func (r *repeatFlags) add(f *pflag.FlagSet) {
	f.StringVar(&r.aggregate, "aggregate", "median", "how repeats of a configuration become one point: `median|mean|none`")
	f.StringVar(&r.configKey, "config-key", "", "repeat identity from these params only: `k1,k2,...`")
	f.StringVar(&r.baseline, "baseline", "", "baseline `SEL` (KEY=VALUE, key:HEX or id:HEX); every point shows its delta to it")
	f.BoolVar(&r.allowCrossScope, "allow-cross-scope", false, "compare with a baseline measured in another environment")
}

// options parses the flags into report.Options.
func (r *repeatFlags) options() (report.Options, error) {
	var o report.Options
	agg, err := decide.ParseAggregation(r.aggregate)
	if err != nil {
		return o, usageError{err}
	}
	o.Aggregate, o.AllowCrossScope = agg, r.allowCrossScope
	for _, k := range strings.Split(r.configKey, ",") {
		if k = strings.TrimSpace(k); k != "" {
			o.ConfigKeys = append(o.ConfigKeys, k)
		}
	}
	if r.baseline != "" {
		sel, err := decide.ParseSelection(r.baseline)
		if err != nil {
			return o, usageError{err}
		}
		o.Baseline = &sel
	}
	return o, nil
}

func newGenerateReportCmd(e *env) *cobra.Command {
	var o generateOptions
	c := &cobra.Command{
		Use:     "generate-report --test-scenario SCENARIO.toml --result-dir DIR",
		Short:   "Write pareto.html for a CloudAI scenario results directory",
		Long:    generateLong,
		Example: "  pareto generate-report --test-scenario examples/cloudai/scenario.toml --system-config examples/cloudai/system.toml --result-dir examples/cloudai/results",
		Args:    noArgs,
		RunE:    func(*cobra.Command, []string) error { return runGenerateReport(e, &o) },
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.scenario, "test-scenario", "", "CloudAI test-scenario `TOML` with a [reports.pareto] table")
	f.StringVar(&o.resultDir, "result-dir", "", "scenario results `DIR`; pareto.html is written there")
	f.StringVar(&o.system, "system-config", "", "CloudAI system `TOML` (gpus_per_node)")
	f.StringVar(&o.testsDir, "tests-dir", "", "CloudAI tests `DIR` (accepted for compatibility)")
	o.repeats.add(f)
	addStoreFlags(f, &o.store)
	return c
}

func runGenerateReport(e *env, o *generateOptions) error {
	if o.scenario == "" || o.resultDir == "" {
		return usagef("--test-scenario and --result-dir are required")
	}
	ropts, err := o.repeats.options()
	if err != nil {
		return err
	}
	cfg, err := report.ReadConfig(o.scenario)
	if err != nil {
		return inputError{err: err}
	}
	if !cfg.Enable {
		fmt.Fprintf(e.stderr, "pareto: %s: [reports.pareto] is not enabled (set enable = true); nothing written\n", o.scenario)
		return nil
	}
	var opts cloudai.WalkOptions
	if o.system != "" {
		sys, err := cloudai.ReadSystem(o.system)
		if err != nil {
			return inputError{err: err}
		}
		opts.GPUsPerNode, opts.System = sys.GPUsPerNode, sys.Name
	}
	if o.testsDir != "" {
		if _, err := os.Stat(o.testsDir); err != nil {
			return inputError{err: fmt.Errorf("--tests-dir: %w", err)}
		}
	}
	trials, excl, err := report.LoadCloudAI(o.resultDir, opts)
	if err != nil {
		return inputError{err: err}
	}
	if o.store.study != "" {
		if trials, err = throughStudy(e, &o.store, trials); err != nil {
			return err
		}
	}
	return writeReport(e, cfg, trials, excl, ropts, filepath.Join(o.resultDir, "pareto.html"))
}

func newReportCmd(e *env) *cobra.Command {
	var o reportOptions
	c := &cobra.Command{
		Use:   "report [flags] PATH...",
		Short: "Write an interactive, offline pareto.html for result files and CloudAI trees",
		Long:  reportLong,
		Example: `  pareto report examples/cloudai/results --config examples/cloudai/scenario.toml --out pareto.html
  pareto report examples/cloudai/results -x ttft.p99 -y output_token_throughput --group-by engine --out engines.html
  pareto report --store runs.db --study tune -x ttft.p99 -y output_token_throughput --group-by engine_version --out tune.html`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 && o.store.study == "" {
				return usagef("no inputs: give result files, CloudAI results directories or --study")
			}
			return runReport(e, &o, args)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.config, "config", "", "pareto.toml (or scenario TOML) with [reports.pareto] `FILE`")
	f.StringVar(&o.out, "out", "pareto.html", "output HTML `FILE`")
	f.StringVarP(&o.x, "x", "x", "", "X objective `METRIC[.STAT][:min|:max]` (instead of --config)")
	f.StringVarP(&o.y, "y", "y", "", "Y objective `METRIC[.STAT][:min|:max]` (instead of --config)")
	f.StringVar(&o.groupBy, "group-by", "", "with -x/-y: one frontier per value of `LABEL`")
	o.repeats.add(f)
	addStoreFlags(f, &o.store)
	return c
}

func runReport(e *env, o *reportOptions, paths []string) error {
	cfg, err := reportConfig(o)
	if err != nil {
		return err
	}
	opts, err := o.repeats.options()
	if err != nil {
		return err
	}
	trials, excl, err := loadSources(paths)
	if err != nil {
		return inputError{err: err}
	}
	if o.store.study != "" {
		if trials, err = throughStudy(e, &o.store, trials); err != nil {
			return err
		}
	}
	if cfg.Cases == nil && o.config != "" {
		if err := cfg.CheckCases(caseIDs(trials)); err != nil {
			return inputError{err: err}
		}
	}
	return writeReport(e, cfg, trials, excl, opts, o.out)
}

// reportConfig reads --config or builds a one-plot configuration from -x/-y.
func reportConfig(o *reportOptions) (*report.Config, error) {
	switch {
	case o.config != "" && (o.x != "" || o.y != "" || o.groupBy != ""):
		return nil, usagef("--config cannot be combined with -x, -y or --group-by")
	case o.config != "":
		cfg, err := report.ReadConfig(o.config)
		if err != nil {
			return nil, inputError{err: err}
		}
		cfg.Enable = true
		return cfg, nil
	case o.x == "" || o.y == "":
		return nil, usagef("give --config FILE, or both -x and -y")
	}
	x, err := objectiveAxis(o.x)
	if err != nil {
		return nil, err
	}
	y, err := objectiveAxis(o.y)
	if err != nil {
		return nil, err
	}
	name := x.Label() + " vs " + y.Label()
	return &report.Config{File: "command line", Enable: true, Title: name, Plots: []report.Plot{{
		Name: name, X: x, Y: y, GroupBy: o.groupBy, Frontiers: []report.FrontierSpec{{Name: "All"}}}}}, nil
}

// objectiveAxis turns an objective such as "ttft.p99:min" into an axis.
func objectiveAxis(s string) (report.Axis, error) {
	sel, dir, err := trial.ParseObjective(s)
	if err != nil {
		return report.Axis{}, usageError{err}
	}
	a := report.Axis{Metric: sel.Metric, Match: sel.Dims, Direction: dir}
	if sel.Statistic != "" {
		a.Match = a.Match.With(trial.DimStatistic, sel.Statistic)
	}
	if m, ok := trial.Lookup(sel.Metric); ok {
		a.Unit = m.Unit
	}
	return a, nil
}

// throughStudy keeps the loaded trials in the --study (idempotently, one
// transaction per source) and returns the study's trials filtered by
// --where, so that the report shows everything the study holds. Details
// that are not stored (serving layout, executed TOML) are kept for trials
// loaded in this run, matched by trial ID.
func throughStudy(e *env, f *storeFlags, loaded []report.Trial) ([]report.Trial, error) {
	q, err := f.query()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	known := map[string]report.Trial{}
	all := make([]trial.Trial, 0, len(loaded))
	for _, t := range loaded {
		all = append(all, t.Trial)
		known[t.ID] = t
	}
	sink, err := openSink(ctx, f)
	if err != nil {
		return nil, err
	}
	defer sink.s.Close()
	if err := sink.store(all); err != nil {
		return nil, err
	}
	st := &sink.stored
	fmt.Fprintf(e.stderr, "pareto: study %s in %s: %d added, %d already present\n", st.study, st.location, st.added, st.present)
	ts, err := sink.s.Trials(ctx, f.study, q)
	if err != nil {
		return nil, inputError{err: err}
	}
	out := make([]report.Trial, len(ts))
	for i, t := range ts {
		out[i] = report.Trial{Trial: t}
		if k, ok := known[t.ID]; ok {
			out[i] = k
		}
	}
	return out, nil
}

// loadSources reads any sources pareto reads; unreadable files and
// failed runs become exclusions.
func loadSources(paths []string) ([]report.Trial, []report.Exclusion, error) {
	return report.Load(paths, ingest.LoadOptions{})
}

func caseIDs(trials []report.Trial) []string {
	var ids []string
	for i := range trials {
		if c := report.CaseOf(&trials[i].Trial); !slices.Contains(ids, c) {
			ids = append(ids, c)
		}
	}
	return ids
}

// writeReport builds the page and writes it atomically.
func writeReport(e *env, cfg *report.Config, trials []report.Trial, excl []report.Exclusion, opts report.Options, out string) error {
	page, err := report.Build(cfg, trials, excl, opts)
	if err != nil {
		return inputError{err: err}
	}
	for _, w := range page.Warnings {
		fmt.Fprintf(e.stderr, "pareto: warning: %s\n", w)
	}
	if err := report.WriteFile(out, page); err != nil {
		return inputError{err: err}
	}
	points := 0
	for _, p := range page.Plots {
		for _, s := range p.Series {
			points += len(s.X)
		}
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d plot(s), %d point(s), %d exclusion(s)\n", out, len(page.Plots), points, len(page.Exclusions))
	return err
}
