package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/internal/progress"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/report"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

const generateLong = `Generate-report writes DIR/pareto.html for a CloudAI scenario results
directory, following CloudAI's [reports.pareto] table: the scenario TOML's, else (as
CloudAI resolves a scenario report) the system TOML's when it is a Slurm
system's (scheduler = "slurm"), else none, and the report is off. One chart per [[reports.pareto.plots]], one frontier per frontiers entry,
point details with the serving layout and the executed TOML, a
measurements table and the exclusions with their reasons.

The results tree is read as CloudAI's reporter reads it: the cases are
the scenario's [[Tests]], each numbered iteration directory (and DSE step
directory) is a run, and every successful iteration or step is a point.
A run's test-run.toml, when present, gives its executed parameters;
without it they come from the scenario's test case merged over the test
TOML it names in --tests-dir, and a DSE step's swept values from the
iteration's trajectory.csv. Failed runs are listed as exclusions with the
reason.

The flags are CloudAI's. --system-config (default $CLOUDAI_SYSTEM_CONFIG, as
in CloudAI) supplies gpus_per_node for the per-allocated-GPU metrics.
--hook-dir is accepted as CloudAI accepts it: hooks (pre- and post-test
commands) yield no benchmark result, so their TOMLs are not read. As in CloudAI the report is opt-in: without
enable = true nothing is written. Unlike CloudAI, a broken configuration
is an error (exit 1) with file:line:col positions. --config-key,
--baseline and --allow-cross-scope are as in 'pareto report'; as in
CloudAI every iteration is its own point (--aggregate none) unless
--aggregate median or mean merges the repeats of a configuration.

A progress bar of the inputs read is drawn on standard error when it is a
terminal (never on a pipe, a file or a log).

Exit status: 0 success, 1 bad configuration, input or I/O error (also when
some result files could not be read: the page is still written, listing
them, and every one is named on stderr; 0 with --keep-going), 2 usage error.`

const reportLong = `Report writes a self-contained interactive pareto.html (no network, all
data, JavaScript and CSS inline) for any sources pareto reads: benchmark
result files, and directories holding CloudAI results trees.

--system-config reads gpus_per_node from a CloudAI system TOML for the
per-allocated-GPU metrics of CloudAI trees (without it they are absent,
and each point says why). CloudAI trees are read as generate-report reads
them: with --config SCENARIO.toml (or --test-scenario, and --tests-dir for
runs without test-run.toml) the scenario's test runs are its points.

Plots come from --config, a pareto.toml with the [reports.pareto] tables
of a CloudAI scenario (or a scenario TOML: without the table, that of the
Slurm system TOML given with --system-config), or from -x and -y (objectives METRIC[.STAT][:min|:max]
as in 'pareto front -o'), which draw one plot with one frontier, or one per
value of --group-by.

Repeats (trials of one configuration under one workload in one environment;
--config-key names the params that identify a configuration) become one
point: the per-axis median (--aggregate mean, or none for one point per
run), drawn with error bars (min-max whiskers, interquartile box) and with n
in the details. --baseline SEL (KEY=VALUE on labels or params, key:HEX or
id:HEX) marks the baseline and gives every point its relative delta to it
on each axis, within the point's frontier group and workload. A point
measured only in another environment (engine, CUDA, driver or GPU) than the
baseline gets no delta and says why, naming the values that differ, unless
--allow-cross-scope compares with it.

A progress bar of the inputs read is drawn on standard error when it is a
terminal (never on a pipe, a file or a log).

Exit status: 0 success, 1 bad configuration, input or I/O error (also when
some result files could not be read: the page is still written, listing
them, and every one is named on stderr; 0 with --keep-going), 2 usage error.`

// reportHelp is the help of pareto report.
var reportHelp = commandSpec{
	use:   "report [flags] PATH...",
	short: "Write an interactive, offline pareto.html for result files and CloudAI trees",
	long:  reportLong,
	example: `  pareto report examples/cloudai/results --config examples/cloudai/scenario.toml --out pareto.html
  pareto report examples/cloudai/results -x ttft.p99 -y output_token_throughput --group-by engine --out engines.html
  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto report --store runs.db --study tune -x ttft.p99 -y output_token_throughput --group-by engine_version --out tune.html`,
}

type generateOptions struct {
	scenario, resultDir, system, testsDir string
	hookDir                               string
	keepGoing                             bool
	store                                 storeFlags
	repeats                               repeatFlags
	limits                                limitFlags
}

type reportOptions struct {
	config, out, x, y, groupBy string
	sourceFlags
	keepGoing bool
	repeats   repeatFlags
}

// repeatFlags say how a report aggregates repeats and what it compares
// points with.
type repeatFlags struct {
	aggregate, configKey, baseline string
	allowCrossScope                bool
}

// add defines the flags; aggregate is the --aggregate default.
func (r *repeatFlags) add(f *pflag.FlagSet, aggregate string) {
	addAggregateFlag(f, &r.aggregate, aggregate)
	f.StringVar(&r.configKey, "config-key", "", "repeat identity from these params only: `k1,k2,...`")
	f.StringVar(&r.baseline, "baseline", "", "baseline `SEL` (KEY=VALUE, key:HEX or id:HEX); every point shows its delta to it")
	f.BoolVar(&r.allowCrossScope, "allow-cross-scope", false, "compare with a baseline measured in another environment")
}

// options parses the flags into report.Options.
func (r *repeatFlags) options() (report.Options, error) {
	var o report.Options
	agg, err := repeat.ParseAggregation(r.aggregate)
	if err != nil {
		return o, usageError{err}
	}
	o.Aggregate, o.AllowCrossScope, o.Fields = agg, r.allowCrossScope, flagName
	for _, k := range strings.Split(r.configKey, ",") {
		if k = strings.TrimSpace(k); k != "" {
			o.ConfigKeys = append(o.ConfigKeys, k)
		}
	}
	if r.baseline != "" {
		sel, err := repeat.ParseSelection(r.baseline)
		if err != nil {
			return o, usageError{err}
		}
		o.Baseline = &sel
	}
	return o, nil
}

// generateReportHelp is the help of pareto generate-report.
var generateReportHelp = commandSpec{
	use:     "generate-report --test-scenario SCENARIO.toml --result-dir DIR",
	short:   "Write pareto.html for a CloudAI scenario results directory",
	long:    generateLong,
	example: "  pareto generate-report --test-scenario examples/cloudai/scenario.toml --system-config examples/cloudai/system.toml --tests-dir examples/cloudai/tests --result-dir examples/cloudai/results",
	args:    noArgs,
}

func newGenerateReportCmd(e *env) *cobra.Command {
	var o generateOptions
	c, f := newCommand(generateReportHelp, func(ctx context.Context, _ []string) error {
		return runGenerateReport(ctx, e, &o)
	})
	f.StringVar(&o.scenario, "test-scenario", "", "CloudAI test-scenario `TOML` with a [reports.pareto] table")
	f.StringVar(&o.resultDir, "result-dir", "", "scenario results `DIR`; pareto.html is written there")
	addSystemConfigFlag(f, &o.system)
	f.StringVar(&o.testsDir, "tests-dir", "", "CloudAI tests `DIR`: the test TOMLs of runs without test-run.toml")
	f.StringVar(&o.hookDir, "hook-dir", "", "CloudAI hooks `DIR` (accepted as CloudAI does; hooks yield no result)")
	addKeepGoingFlag(f, &o.keepGoing)
	o.repeats.add(f, "none")
	addStoreFlags(f, &o.store)
	addLimitFlags(f, &o.limits)
	return c
}

func runGenerateReport(ctx context.Context, e *env, o *generateOptions) error {
	if o.scenario == "" || o.resultDir == "" {
		return usagef("--test-scenario and --result-dir are required")
	}
	ropts, err := o.repeats.options()
	if err != nil {
		return err
	}
	cfg, err := report.ReadScenarioConfig(o.scenario, o.systemConfig())
	if err != nil {
		return inputError{err: err}
	}
	notes(e, cfg)
	switch {
	case cfg.From == report.FromDefault:
		fmt.Fprintf(e.stderr, "pareto: %s: no [reports.pareto] in the scenario or the Slurm system TOML: the report is off by default, as in CloudAI; nothing written\n", enc.Safe(o.scenario))
		return nil
	case !cfg.Enable:
		fmt.Fprintf(e.stderr, "pareto: %s: [reports.pareto] is not enabled (set enable = true); nothing written\n", enc.Safe(cfg.File))
		return nil
	}
	opts, err := walkOptions(o)
	if err != nil {
		return err
	}
	trials, skips, bad, err := loadSources(ctx, e, source.Spec{Paths: []string{o.resultDir}, Load: opts})
	if err != nil {
		return err
	}
	if n := countCode(skips, source.ExcludeTestUnknown); n > 0 && o.testsDir == "" {
		fmt.Fprintf(e.stderr, "pareto: %d run(s) have no test-run.toml and take their configuration from test TOMLs: give --tests-dir\n", n)
	}
	if o.store.study != "" {
		if trials, skips, err = throughStudy(ctx, e, &o.store, trials, skips, nil); err != nil {
			return err
		}
	}
	excl := report.Exclusions(limitSkips(skips))
	if err := checkAgainstData(cfg, trials, metricNames(trials)); err != nil {
		return err
	}
	if err := writeReport(e, cfg, trials, excl, ropts, filepath.Join(o.resultDir, "pareto.html")); err != nil {
		return err
	}
	return unreadable(bad, o.keepGoing)
}

// systemConfig is --system-config, else $CLOUDAI_SYSTEM_CONFIG (as
// CloudAI reads it).
func (o *generateOptions) systemConfig() string {
	if o.system != "" {
		return o.system
	}
	return os.Getenv("CLOUDAI_SYSTEM_CONFIG")
}

// notes writes what reading cfg passed over to stderr.
func notes(e *env, cfg *report.Config) {
	for _, n := range cfg.Notes {
		fmt.Fprintf(e.stderr, "pareto: %s\n", enc.Safe(n))
	}
}

// walkOptions reads the scenario, the system and the tests of
// generate-report, within the limits.
func walkOptions(o *generateOptions) (source.LoadOptions, error) {
	if o.hookDir != "" {
		if st, err := os.Stat(o.hookDir); err != nil || !st.IsDir() {
			return source.LoadOptions{}, usagef("--hook-dir %s: not a directory", o.hookDir)
		}
	}
	r := readerFlags{systemConfig: o.systemConfig(), cloudai: scenarioFlags{o.scenario, o.testsDir}}
	return r.load(0, o.limits)
}

// countCode counts the skips with code.
func countCode(skips []trial.Skip, code string) int {
	n := 0
	for _, x := range skips {
		if x.Code == code {
			n++
		}
	}
	return n
}

func newReportCmd(e *env) *cobra.Command {
	var o reportOptions
	c, f := newCommand(reportHelp, func(ctx context.Context, args []string) error {
		if o.none(args) {
			return usagef("no inputs: give result files, CloudAI results directories or --study")
		}
		return runReport(ctx, e, &o, args)
	})
	f.StringVar(&o.config, "config", "", "pareto.toml (or scenario TOML) with [reports.pareto] `FILE`")
	f.StringVar(&o.out, "out", "pareto.html", "output HTML `FILE`")
	f.StringVarP(&o.x, "x", "x", "", "X objective `METRIC[.STAT][:min|:max]` (instead of --config)")
	f.StringVarP(&o.y, "y", "y", "", "Y objective `METRIC[.STAT][:min|:max]` (instead of --config)")
	f.StringVar(&o.groupBy, "group-by", "", "with -x/-y: one frontier per value of `LABEL`")
	o.readerFlags.add(f)
	addOptunaFlags(f, &o.optuna, &o.optunaStudy)
	addKeepGoingFlag(f, &o.keepGoing)
	o.repeats.add(f, "median")
	addStoreFlags(f, &o.storeFlags)
	addLimitFlags(f, &o.limits)
	return c
}

func runReport(ctx context.Context, e *env, o *reportOptions, paths []string) error {
	cfg, err := reportConfig(e, o)
	if err != nil {
		return err
	}
	opts, err := o.repeats.options()
	if err != nil {
		return err
	}
	if sc := &o.cloudai; sc.scenario == "" && cfg.Cases != nil {
		sc.scenario = o.config // a scenario's report reads its results trees as generate-report does
	}
	lo, err := o.load(0, o.limits)
	if err != nil {
		return err
	}
	if filesReportable(o, cfg, opts, paths) {
		bad, err := filesReport(e, o, cfg, opts, lo, o.out, paths)
		if err != nil {
			return err
		}
		return unreadable(bad, o.keepGoing)
	}
	trials, skips, bad, err := loadSources(ctx, e, source.Spec{Paths: paths, Load: lo, Optuna: o.optuna, OptunaStudy: o.optunaStudy})
	if err != nil && !(o.study != "" && isNothing(err)) {
		return err
	}
	var slim *report.Slimmer
	if o.study != "" {
		if old := gcpolicy.Study(os.Getenv); old >= 0 {
			defer debug.SetGCPercent(old)
		}
		if len(trials) == 0 && len(skips) == 0 && report.Recordable(cfg, opts) {
			// Only the study is read, and the page decided from records:
			// the study is read twice, the second time for the trials the
			// page lists alone.
			if err := studyReport(ctx, e, &o.storeFlags, cfg, opts, o.config != "", o.out); err != nil {
				return err
			}
			return unreadable(bad, o.keepGoing)
		}
		if len(trials) == 0 && len(skips) == 0 && opts.Baseline == nil {
			// Only the study is read: its trials are slimmed as they are
			// streamed, to what the page needs of them.
			slim = report.NewSlimmer(cfg, opts)
		}
		if trials, skips, err = throughStudy(ctx, e, &o.storeFlags, trials, skips, slim); err != nil {
			return err
		}
	}
	excl := report.Exclusions(limitSkips(skips))
	if cfg.Cases == nil && o.config != "" {
		if err := cfg.CheckCases(caseIDs(trials)); err != nil {
			return inputError{err: err}
		}
	}
	metrics := metricNames(trials)
	if slim != nil {
		metrics = slim.Metrics() // slim trials keep only the measurements the page draws
	}
	if err := checkAgainstData(cfg, trials, metrics); err != nil {
		return err
	}
	if err := writeReport(e, cfg, trials, excl, opts, o.out); err != nil {
		return err
	}
	return unreadable(bad, o.keepGoing)
}

// unreadable fails, after the report is written, when inputs could not be
// read (naming each), unless keepGoing.
func unreadable(bad []trial.Skip, keepGoing bool) error {
	if err := source.Unreadable(bad); err != nil && !keepGoing {
		return inputError{err: err}
	}
	return nil
}

// isNothing reports whether err says no input yielded a trial.
func isNothing(err error) bool {
	var ie inputError
	var se *source.Error
	return errors.As(err, &ie) && errors.As(ie.err, &se)
}

// reportConfig reads --config or builds a one-plot configuration from -x/-y.
func reportConfig(e *env, o *reportOptions) (*report.Config, error) {
	switch {
	case o.config != "" && (o.x != "" || o.y != "" || o.groupBy != ""):
		return nil, usagef("--config cannot be combined with -x, -y or --group-by")
	case o.config != "":
		cfg, err := report.ReadScenarioConfig(o.config, o.systemConfig)
		if err != nil {
			return nil, inputError{err: err}
		}
		notes(e, cfg)
		if cfg.From == report.FromDefault {
			return nil, inputError{err: fmt.Errorf("%s: no [reports.pareto] table (nor in a Slurm system TOML given with --system-config)", o.config)}
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
	obj, err := query.ParseObjective(s)
	if err != nil {
		return report.Axis{}, queryUsage(err)
	}
	sel, err := trial.ParseSelector(obj.Name)
	if err != nil {
		return report.Axis{}, usageError{err}
	}
	a := report.Axis{Metric: sel.Metric, Match: sel.Dims, Direction: obj.Direction}
	if sel.Statistic != "" {
		a.Match = a.Match.With(trial.DimStatistic, sel.Statistic)
	}
	if m, ok := trial.Lookup(sel.Metric); ok {
		a.Unit = m.Unit
	}
	return a, nil
}

// throughStudy keeps the loaded trials in the --study (idempotently, one
// transaction per source), and the inputs that yielded none (skips), and
// returns the study's trials and skips filtered by --where; with nothing
// loaded, the store is only read (opened read-only) (skips by
// store.Store.Skips: on their path and CloudAI point), so that the report
// shows everything the study holds, deployment details and exclusions
// included. A trial stored before the store kept deployments gets the one
// read in this run, matched by trial ID. With slim set, the study's
// trials are streamed (store.Reader.Scan) and slimmed as they are read.
func throughStudy(ctx context.Context, e *env, f *storeFlags, loaded []trial.Trial, skips []trial.Skip, slim *report.Slimmer) ([]trial.Trial, []trial.Skip, error) {
	q, err := f.query()
	if err != nil {
		return nil, nil, err
	}
	known := map[string]*trial.Deployment{}
	for i := range loaded {
		if d := loaded[i].Deployment; d != nil {
			known[loaded[i].ID] = d
		}
	}
	var s store.Reader
	if len(loaded) == 0 && len(skips) == 0 {
		// Nothing to keep: the study is only read, from the store opened
		// read-only.
		if s, err = f.openStore(ctx, true); err != nil {
			return nil, nil, err
		}
	} else {
		sink, err := openSink(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		err = sink.store(loaded)
		if err == nil {
			err = sink.recordSkips(skips)
		}
		if err != nil {
			sink.s.Close()
			return nil, nil, err
		}
		st := &sink.stored
		fmt.Fprintf(e.stderr, "pareto: study %s in %s: %d added, %d already present\n", enc.Safe(st.study), enc.Safe(st.location), st.added, st.present)
		s = sink.s
	}
	defer s.Close()
	var ts []trial.Trial
	if slim != nil {
		_, err = source.ReadStudy(ctx, s, source.StudyRead{Study: f.study, Query: q}, source.StudySink{
			Grow:  func(n int) { ts = slices.Grow(ts, n) },
			Trial: func(t *trial.Trial) { ts = append(ts, slim.Slim(t)) },
		})
	} else {
		ts, err = s.Trials(ctx, f.study, q)
	}
	if err != nil {
		return nil, nil, inputError{err: err}
	}
	for i := range ts {
		if d, ok := known[ts[i].ID]; ok && ts[i].Deployment == nil {
			ts[i].Deployment = d
		}
	}
	kept, err := s.Skips(ctx, f.study, q.Where)
	if err != nil {
		return nil, nil, inputError{err: err}
	}
	return ts, kept, nil
}

// studyReport writes the page of the --study alone (filtered by --where),
// read from the store opened read-only, for a configuration and options
// that report.Recordable accepts, in two passes: the first keeps one
// report.Records entry per trial, from which the page is decided
// (report.Plan), the second reads the trials the page lists
// (store.Reader.TrialsByID). With checkCases (a --config without cases), the
// configuration's cases are checked against the study's.
func studyReport(ctx context.Context, e *env, f *storeFlags, cfg *report.Config, opts report.Options, checkCases bool, out string) error {
	q, err := f.query()
	if err != nil {
		return err
	}
	s, err := f.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer s.Close()
	recs := report.NewRecords(cfg, opts)
	if err := recordStudy(ctx, s, f.study, q, recs, opts); err != nil {
		return inputError{err: err}
	}
	skips, err := s.Skips(ctx, f.study, q.Where)
	if err != nil {
		return inputError{err: err}
	}
	if checkCases && cfg.Cases == nil {
		if err := cfg.CheckCases(recs.Cases()); err != nil {
			return inputError{err: err}
		}
	}
	if err := checkAgainstData(cfg, nil, recs.Metrics()); err != nil {
		return err
	}
	runtime.GC() // what the read left behind (see writeReport)
	plan, err := recs.Plan(report.Exclusions(limitSkips(skips)))
	if err != nil {
		return inputError{err: err}
	}
	ts, err := s.TrialsByID(ctx, f.study, plan.IDs())
	if err != nil {
		return inputError{err: err}
	}
	page, err := plan.Page(ts)
	if err != nil {
		return inputError{err: err}
	}
	return writePage(e, page, out)
}

// recordStudy records the study's trials filtered by q.Where through the
// store read planner (source.ReadStudy): from its columns and sketches
// when they stand for the trials (report.Records.Exact, and repeats keyed
// by the default configuration keys), else from the trials.
func recordStudy(ctx context.Context, s store.Reader, study string, q store.Query, recs *report.Records, opts report.Options) error {
	read := source.StudyRead{Study: study, Query: q}
	if recs.Exact() && (len(opts.ConfigKeys) == 0 || opts.Aggregate == repeat.None) {
		for _, a := range recs.Columns() {
			read.Columns = append(read.Columns, store.ColumnSpec{Metric: a.Metric, Dims: a.Match})
		}
	}
	_, err := source.ReadStudy(ctx, s, read, source.StudySink{Grow: recs.Grow, Trial: recs.Add, Sketch: recs.AddSketch})
	return err
}

// loadSources reads any sources pareto reads through the source layer,
// and returns the trials, the inputs and runs that yielded none (skips:
// unreadable files and failed runs, the report's exclusions) and the
// unreadable ones. Inputs that yield no trial at all are an error naming
// each; the skips are returned with it.
func loadSources(ctx context.Context, e *env, spec source.Spec) ([]trial.Trial, []trial.Skip, []trial.Skip, error) {
	if len(spec.Paths) == 0 && spec.Optuna == "" {
		return nil, nil, nil, nil
	}
	spec.Stdin = e.stdin
	spec.Note = e.note("pareto")
	spec.Fields = flagName
	bar := progress.New(e.stderr, "reading", "inputs")
	spec.Load.Progress = bar.Set
	set, err := source.Trials(ctx, spec)
	bar.Done()
	if errors.Is(err, source.ErrOptunaStudy) {
		return nil, nil, nil, usagef("--optuna-study is required: %v", err)
	}
	if err != nil {
		var skips []trial.Skip
		if set != nil {
			skips = set.Skipped
		}
		return nil, skips, nil, inputError{err: err}
	}
	return set.Trials, set.Skipped, set.Failed(), nil
}

// metricNames lists the metrics the trials measure, sorted.
// checkAgainstData checks what the report configuration names against the
// trials read: its custom metrics and, when there are trials, its group_by
// keys.
func checkAgainstData(cfg *report.Config, trials []trial.Trial, metrics []string) error {
	if err := cfg.CheckMetrics(metrics); err != nil {
		return inputError{err: err}
	}
	if len(trials) == 0 {
		return nil
	}
	if err := cfg.CheckGroupBy(groupKeys(trials)); err != nil {
		return inputError{err: err}
	}
	return nil
}

// groupKeys lists the label and parameter keys of the trials, sorted.
func groupKeys(trials []trial.Trial) []string {
	seen := map[string]bool{}
	for i := range trials {
		for k := range trials[i].Labels {
			seen[k] = true
		}
		for k := range trials[i].Params {
			seen[k] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func metricNames(trials []trial.Trial) []string {
	seen := map[string]bool{}
	for i := range trials {
		for _, m := range trials[i].Measurements {
			seen[m.Metric] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func caseIDs(trials []trial.Trial) []string {
	var ids []string
	for i := range trials {
		if c := report.CaseOf(&trials[i]); !slices.Contains(ids, c) {
			ids = append(ids, c)
		}
	}
	return ids
}

// writeReport builds the page and writes it atomically.
func writeReport(e *env, cfg *report.Config, trials []trial.Trial, excl []report.Exclusion, opts report.Options, out string) error {
	// What reading left behind (file contents, parsed tables) is garbage
	// now; collecting it here lets building and writing the page reuse that
	// memory instead of growing the heap to the batch GC goal (gcpolicy):
	// 100,000 points peak ~100 MB lower, for one collection.
	runtime.GC()
	page, err := report.Build(cfg, trials, excl, opts)
	if err != nil {
		return inputError{err: err}
	}
	return writePage(e, page, out)
}

// writePage writes the page atomically, after its warnings on stderr,
// and says what it holds.
func writePage(e *env, page *report.Page, out string) error {
	for _, w := range page.Warnings {
		fmt.Fprintf(e.stderr, "pareto: warning: %s\n", enc.SafeLines(w))
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
	return e.write(enc.FormatTable, reportWritten{out, len(page.Plots), points, len(page.Exclusions)})
}

// reportWritten is what pareto report prints: the page it wrote and what
// the page holds.
type reportWritten struct {
	Path                      string
	Plots, Points, Exclusions int
}

// WriteTable says what was written in one line.
func (r reportWritten) WriteTable(w io.Writer) error {
	_, err := fmt.Fprintf(w, "wrote %s: %d plot(s), %d point(s), %d exclusion(s)\n", enc.Safe(r.Path), r.Plots, r.Points, r.Exclusions)
	return err
}
