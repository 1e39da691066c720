package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/internal/progress"
	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/optuna"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const ingestLong = `Ingest reads benchmark results — AIPerf, GenAI-Perf, vLLM bench serve,
SGLang bench_serving, inference-perf and guidellm files, CloudAI scenario
results directories, and directories holding any mix of them — and reports,
per format, tool version and layout, how many trials were found, and every
file or run that was skipped, with the reason. The version is the tool's own
(AIPerf aiperf_version, guidellm guidellm_version, vLLM version, Optuna's;
"-" when the file records none), the label tool_version of each trial; the
layout is the shape of the file the reader recognised (AIPerf G0–G3, vLLM
benchmark_serving, bench-serve or bench-sweep, SGLang lean-2024 or 2025+, …).

A file named on the command line that is no benchmark result is read as a
generic table (your own harness's output): CSV with a header row, or JSONL
with one object per line (not a JSON array or a pretty-printed document),
never inside a directory. Each row is a trial: every column but the id
column (--id, default id) is a parameter, and every numeric cell is also a
measurement named by its column, so that -o, --slo, --where, --group-by and
--config-key name columns; concurrency, request_rate, input_tokens and
output_tokens also set the workload. A row without a numeric cell is an
error at its line, and a table without any is skipped as not_a_result.
"-" reads standard input.

--optuna reads an Optuna RDB storage (read only) and adds its study's
complete trials, as any input's: with --study they are copied into the
store. --gpus N (or RxG: R replicas of G GPUs each) gives every result
file's trials per-GPU throughput, over all N (R×G) GPUs. Without it a
file's own count is used: the serving GPUs of the parallel sizes it records
of the server (SGLang's server_info tp_size, dp_size, pp_size and
enable_dp_attention; vLLM's tensor_parallel_size, pipeline_parallel_size
and data_parallel_size metadata), else the GPUs AIPerf's telemetry saw.

Formats are sniffed from the content, not the file name. In a CloudAI
results tree each successful iteration, DSE step and AIPerf phase is a
trial; failed runs are listed as skipped. --system-config (or
--gpus-per-node) gives gpus_per_node, needed for per-allocated-GPU
throughput. A tree is known with or without test-run.toml; a run without
one takes its configuration from --test-scenario and --tests-dir
(CloudAI's flags), as generate-report reads the tree, and without them is
skipped as test_unknown.

With --study the trials are kept in a store (--store, default
$PARETO_STORE or pareto.db, an embedded SQLite file; postgres://… for a
shared study). Ingest is idempotent (a trial already in the study is not
added again) and atomic per source file; it reports how many trials were
added and how many were already present. The inputs that yielded no
trial are kept in the study as well (skips, keyed on the file and the
CloudAI run: ingesting them again adds none), and storing trials of an
input removes its skip, so a fixed file or a rerun no longer shows as
failed; 'report --study' lists them as exclusions. A trial is its content at its
position: runs whose numbers agree, in two files or two records of one
file, are two trials. Files are named from the parent of the deepest
directory holding every PATH (CloudAI results trees from their own
parent), whatever the working directory: ingest the same directory, or
paths below it, each time.

A progress bar of the inputs read is drawn on standard error when it is a
terminal (never on a pipe, a file or a log).

Exit status: 0 success, 1 when an input could not be read (after
reporting everything else; 0 with --keep-going) or when no input yielded
a trial (each input is listed with why), 2 usage error.`

// ingestExample runs from the repository root on the data in examples/;
// its last two lines make the store runs.db that the examples of gate,
// pick, noise, drift, studies and trials read (TestHelpExamples runs them
// all, in that order).
const ingestExample = `  pareto ingest examples/cloudai/results --system-config examples/cloudai/system.toml
  pareto ingest examples/cloudai/results --system-config examples/cloudai/system.toml --format json
  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline
  pareto ingest examples/decide/tries-sglang-0.6.0.jsonl --store runs.db --study tune`

// ingestHelp is the help of pareto ingest.
var ingestHelp = commandSpec{
	use:       "ingest [flags] PATH...",
	short:     "Read benchmark results and report what was found",
	long:      ingestLong,
	example:   ingestExample,
	sortFlags: true,
}

type ingestOptions struct {
	readerFlags
	id                  string
	format              formatFlag
	session             string
	gpusPerNode         int
	optuna, optunaStudy string
	keepGoing           bool
	labels              []string
	store               storeFlags
	limits              limitFlags
}

func newIngestCmd(e *env) *cobra.Command {
	var o ingestOptions
	c, f := newCommand(ingestHelp, func(ctx context.Context, args []string) error {
		if len(args) == 0 && o.optuna == "" {
			return usagef("no paths given (or --optuna)")
		}
		return runIngest(ctx, e, &o, o.format.f, args)
	})
	o.format.addTableJSON(f)
	o.readerFlags.add(f)
	f.IntVar(&o.gpusPerNode, "gpus-per-node", 0, "GPUs per node for CloudAI runs (overrides --system-config)")
	addOptunaFlags(f, &o.optuna, &o.optunaStudy)
	addKeepGoingFlag(f, &o.keepGoing)
	f.StringArrayVar(&o.labels, "label", nil, "add label `k=v` to every trial (repeatable)")
	f.StringVar(&o.id, "id", "", "the id `COLUMN` of generic CSV/JSONL tables (default: id when present)")
	f.StringVar(&o.session, "session", "", "record the trials in measurement session `NAME` (default: a new session, named by the time; trials exported by pareto trials keep theirs)")
	addStoreFlags(f, &o.store)
	addLimitFlags(f, &o.limits)
	return c
}

// addKeepGoingFlag registers --keep-going: exit 0 although some inputs
// could not be read.
func addKeepGoingFlag(f *pflag.FlagSet, keepGoing *bool) {
	f.BoolVar(keepGoing, "keep-going", false, "exit 0 even when some inputs could not be read")
}

// addAggregateFlag registers --aggregate, how repeats of a configuration
// are combined, defaulting to def.
func addAggregateFlag(f *pflag.FlagSet, aggregate *string, def string) {
	f.StringVar(aggregate, "aggregate", def, "combine repeats of a configuration: `median|mean|none`")
}

// addGPUsFlag registers --gpus, the GPUs that served each result file.
func addGPUsFlag(f *pflag.FlagSet, n *string) {
	f.StringVar(n, "gpus", "", "`N` GPUs, or RxG (R replicas of G GPUs each), served each result file (not CloudAI runs): per-GPU throughput; default the file's own count (the parallel sizes in SGLang's server_info or vLLM's metadata; AIPerf's telemetry)")
}

// scenarioFlags are CloudAI's --test-scenario and --tests-dir on a
// reading command: the scenario whose results trees are read as
// generate-report reads them, test-run.toml or not.
type scenarioFlags struct{ scenario, testsDir string }

// add defines the flags.
func (s *scenarioFlags) add(f *pflag.FlagSet) {
	f.StringVar(&s.scenario, "test-scenario", "", "CloudAI test-scenario `TOML`: every directory named is a results tree of it, read as CloudAI's reporter reads it (test-run.toml optional)")
	f.StringVar(&s.testsDir, "tests-dir", "", "CloudAI tests `DIR` (with --test-scenario): the test TOMLs of runs without test-run.toml")
}

// addAsFlag registers --as: how files are read (as a generic table on
// purpose, or by their content).
func addAsFlag(f *pflag.FlagSet, as *string) {
	f.StringVar(as, "as", "", "read every file named, standard input and every .csv/.jsonl file in a directory as a generic `table`, not as a benchmark result (default: by content)")
}

// addSystemConfigFlag registers --system-config, CloudAI's system TOML.
func addSystemConfigFlag(f *pflag.FlagSet, path *string) {
	f.StringVar(path, "system-config", "", "CloudAI system `TOML` (gpus_per_node, for per-allocated-GPU metrics of CloudAI trees)")
}

// readerFlags are how the commands that read results read files:
// --system-config, --test-scenario, --tests-dir, --gpus and --as.
type readerFlags struct {
	systemConfig string
	cloudai      scenarioFlags
	gpus, as     string
}

// add registers the flags.
func (r *readerFlags) add(f *pflag.FlagSet) {
	addSystemConfigFlag(f, &r.systemConfig)
	r.cloudai.add(f)
	addGPUsFlag(f, &r.gpus)
	addAsFlag(f, &r.as)
}

// load turns the flags, the GPUs per node of CloudAI runs (0: as the
// system config says) and the limits into reader options (loadOptions,
// limitFlags.limits).
func (r *readerFlags) load(gpusPerNode int, l limitFlags) (source.LoadOptions, error) {
	lo, err := loadOptions(r.systemConfig, r.cloudai, gpusPerNode, r.gpus, r.as)
	if err != nil {
		return lo, err
	}
	lo.Limits, err = l.limits()
	return lo, err
}

// loadOptions turns the CloudAI flags, --gpus and --as into reader
// options.
func loadOptions(systemConfig string, sc scenarioFlags, gpusPerNode int, gpus, as string) (source.LoadOptions, error) {
	var g trial.GPUs
	if gpus != "" {
		var err error
		if g, err = trial.ParseGPUs(gpus); err != nil {
			return source.LoadOptions{}, usagef("--gpus %v: give N GPUs, or RxG for R replicas of G GPUs each", err)
		}
	}
	if sc.testsDir != "" && sc.scenario == "" {
		return source.LoadOptions{}, usagef("--tests-dir needs --test-scenario")
	}
	if as != "" && as != "table" {
		return source.LoadOptions{}, usagef("--as %q: want table (or leave it out to read files by their content)", as)
	}
	opts, err := source.CloudAI(systemConfig, gpusPerNode)
	opts.GPUs, opts.AsTable = g, as == "table"
	if fe, ok := field.As(err); ok {
		return opts, usageError{errors.New(flagWords(fe))}
	}
	if err != nil {
		return opts, inputError{err: err}
	}
	if sc.scenario == "" {
		return opts, nil
	}
	opts, err = source.Scenario(opts, sc.scenario, sc.testsDir)
	if fe, ok := field.As(err); ok && fe.Value != "" {
		return opts, inputError{err: fmt.Errorf("%w in --tests-dir %s", fe.Err, fe.Value)}
	}
	if fe, ok := field.As(err); ok {
		return opts, inputError{err: fmt.Errorf("--tests-dir: %w", fe.Err)}
	}
	if err != nil {
		return opts, inputError{err: err}
	}
	return opts, nil
}

func runIngest(ctx context.Context, e *env, o *ingestOptions, format enc.Format, paths []string) error {
	opts, err := o.load(o.gpusPerNode, o.limits)
	if err != nil {
		return err
	}
	labels, err := parseLabels(o.labels)
	if err != nil {
		return err
	}
	// Trials are counted, and stored, as they are read: none is kept.
	var sink *ingestSink
	session := o.session
	if o.store.study != "" {
		if session == "" {
			session = trial.NewSession(time.Now())
		}
		if sink, err = openSink(ctx, &o.store); err != nil {
			return err
		}
		defer sink.s.Close()
	}
	counts := map[formatKey]int{}
	total := 0
	// A generic table's trials are counted, and stored, batch by batch,
	// in one transaction: counted in table until the table is read whole.
	var table *tableCounts
	each := func(ts []trial.Trial) error {
		counts, total := counts, &total
		if table != nil {
			counts, total = table.counts, &table.total
		}
		for i := range ts {
			for _, kv := range labels {
				ts[i].SetLabel(kv[0], kv[1])
			}
			if len(labels) > 0 {
				ts[i].Finalize()
			}
			if o.session != "" || ts[i].Source.Session == "" { // an export keeps its sessions
				ts[i].Source.Session = session
			}
			counts[formatKey{ts[i].Source.Format, ts[i].Labels[trial.LabelToolVersion], ts[i].Source.FormatVersion}]++
		}
		*total += len(ts)
		if sink != nil {
			return sink.store(ts)
		}
		return nil
	}
	opts.EachTable = func(path string, read func() error) error {
		table = &tableCounts{counts: map[formatKey]int{}}
		defer func() { table = nil }()
		// A table's batches are garbage once stored and little is live:
		// under a soft limit the heap stays small whatever the table's
		// length.
		if old := gcpolicy.Stream(os.Getenv); old >= 0 {
			defer debug.SetMemoryLimit(old)
		}
		var err error
		if sink != nil {
			err = sink.table(path, read)
		} else {
			err = read()
		}
		if err == nil {
			for k, n := range table.counts {
				counts[k] += n
			}
			total += table.total
		}
		return err
	}
	opts.Table.ID = o.id
	// Without a store, files of many records are counted batch by batch
	// as read; a store is given each source's trials at once.
	opts.Batches = sink == nil
	opts.Transient = sink == nil // each keeps counts only
	opts.NoIDs = sink == nil     // and needs no trial's ID (a SHA-256 of its content, 7 % of reading an AIPerf export)
	bar := progress.New(e.stderr, "ingest", "inputs")
	opts.Progress = bar.Set
	note, flush := e.bufferedNote("pareto ingest")
	skipped, err := source.Stream(source.Spec{Paths: paths, Stdin: e.stdin, Load: opts, Note: note}, each)
	bar.Done()
	flush()
	if err == nil && o.optuna != "" { // the study's complete trials, copied as any input's
		var st *optuna.Study
		var name string
		if st, name, err = source.ReadOptuna(ctx, o.optuna, o.optunaStudy); errors.Is(err, source.ErrOptunaStudy) {
			return usagef("--optuna-study is required: %v", err)
		}
		if err == nil {
			fmt.Fprintf(e.stderr, "pareto ingest: optuna study %s: %d complete trials\n", name, len(st.Trials))
			err = each(st.Trials)
		}
	}
	if err != nil {
		var ie inputError
		if errors.As(err, &ie) {
			return err
		}
		return inputError{err: err}
	}
	var st *stored
	if sink != nil {
		if err := sink.recordSkips(skipped); err != nil {
			return err
		}
		st = &sink.stored
		st.session = session
		skipped = append(skipped, sink.failed...)
	}
	if err := e.write(format, newIngestResult(total, summarize(counts), skipped, st)); err != nil {
		return err
	}
	if total == 0 {
		return inputError{err: source.Nothing(skipped)}
	}
	if err := source.Unreadable(skipped); err != nil && !o.keepGoing {
		return inputError{err: err}
	}
	return nil
}

// tableCounts counts the trials of the table being read (see formatKey).
type tableCounts struct {
	counts map[formatKey]int
	total  int
}

// formatKey groups the trials of one format, tool version and layout.
type formatKey struct{ format, version, layout string }

// formatCount is the number of trials of one format, tool version (the
// label trial.LabelToolVersion: what the file says the tool was, empty
// when it says nothing) and layout (trial.Source.FormatVersion: the shape
// of the file, AIPerf G0–G3, vLLM bench-serve, …).
type formatCount struct {
	Format  string `json:"format"`
	Version string `json:"version"`
	Layout  string `json:"layout"`
	Trials  int    `json:"trials"`
}

// summarize lists the trial counts by (format, version, layout).
func summarize(counts map[formatKey]int) []formatCount {
	out := []formatCount{}
	for k, n := range counts {
		out = append(out, formatCount{k.format, k.version, k.layout, n})
	}
	slices.SortFunc(out, func(a, b formatCount) int {
		return cmp.Or(cmp.Compare(a.Format, b.Format), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Layout, b.Layout))
	})
	return out
}

// ingestResult is what pareto ingest prints
// (docs/schema/ingest.schema.json): the trials read, what was stored
// (with --study), the counts per format, and the skipped inputs.
type ingestResult struct {
	Trials  int           `json:"trials"`
	Stored  *storedJSON   `json:"stored,omitempty"`
	Formats []formatCount `json:"formats"`
	Skipped enc.Skips     `json:"skipped"`
}

// storedJSON is what an ingest added to a store (stored).
type storedJSON struct {
	Store        string `json:"store"`
	Study        string `json:"study"`
	Added        int    `json:"added"`
	Present      int    `json:"present"`
	Sources      int    `json:"sources"`
	SkipsAdded   int    `json:"skips_added"`
	SkipsPresent int    `json:"skips_present"`
	Session      string `json:"session"`
}

func newIngestResult(total int, sum []formatCount, skipped []trial.Skip, st *stored) ingestResult {
	r := ingestResult{Trials: total, Formats: sum, Skipped: limitSkips(skipped)}
	if st != nil {
		r.Stored = &storedJSON{st.location, st.study, st.added, st.present, st.sources, st.skipsAdded, st.skipsPresent, st.session}
	}
	return r
}

// WriteTable prints the counts, what was stored and the skipped inputs.
func (r ingestResult) WriteTable(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "%d trials, %d skipped (%d unreadable)\n", r.Trials, len(r.Skipped), len(source.Failed(r.Skipped)))
	if st := r.Stored; st != nil {
		fmt.Fprintf(w, "study %s in %s: %d added, %d already present, from %d sources\n", enc.Safe(st.Study), enc.Safe(st.Store), st.Added, st.Present, st.Sources)
		fmt.Fprintf(w, "session %s\n", enc.Safe(st.Session))
		if st.SkipsAdded+st.SkipsPresent > 0 {
			fmt.Fprintf(w, "skips kept in study %s: %d added, %d already present\n", enc.Safe(st.Study), st.SkipsAdded, st.SkipsPresent)
		}
	}
	w.WriteByte('\n')
	sum := r.Formats
	enc.Section(w, []string{"format", "version", "layout", "trials"}, len(sum), func(b []byte, r, c int) []byte {
		switch c {
		case 0:
			return append(b, sum[r].Format...)
		case 1:
			return append(b, cmp.Or(sum[r].Version, "-")...)
		case 2:
			return append(b, cmp.Or(sum[r].Layout, "-")...)
		}
		return strconv.AppendInt(b, int64(sum[r].Trials), 10)
	})
	if sk := r.Skipped; len(sk) > 0 {
		fmt.Fprintf(w, "\nSKIPPED\n")
		enc.SkipSection(w, sk)
	}
	return w.Flush()
}

// parseLabels reads k=v pairs.
func parseLabels(list []string) ([][2]string, error) {
	var out [][2]string
	for _, s := range list {
		k, v, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--label %q: want KEY=VALUE", s)
		}
		out = append(out, [2]string{strings.TrimSpace(k), v})
	}
	return out, nil
}

// stored summarises what an ingest added to a store: trials, and skips
// (the inputs that yielded no trial).
type stored struct {
	location, study, session string
	added, present, sources  int
	skipsAdded, skipsPresent int
}

// ingestSink writes trials to a study as they are read, one transaction
// per source file (so an interrupted ingest leaves whole sources only).
type ingestSink struct {
	ctx   context.Context
	s     store.Store
	study string
	stored
	// failed lists the sources whose storing panicked (a bug): reported as
	// unreadable, while the other sources are stored.
	failed []trial.Skip
	// add stores a batch of the table being read (nil: none is).
	add func([]trial.Trial) error
}

// storeHook, set by tests only, is called before each source is stored,
// so that a test can make storing one of them panic.
var storeHook func(src string)

// openSink opens the store and creates the study.
func openSink(ctx context.Context, f *storeFlags) (*ingestSink, error) {
	s, err := f.openStore(ctx, false)
	if err != nil {
		return nil, err
	}
	if err := s.CreateStudy(ctx, f.study); err != nil {
		s.Close()
		return nil, inputError{err: err}
	}
	return &ingestSink{ctx: ctx, s: s, study: f.study,
		stored: stored{location: trial.RedactLocation(f.resolved()), study: f.study}}, nil
}

// recordSkips keeps the inputs that yielded no trial in the study.
func (k *ingestSink) recordSkips(skips []trial.Skip) error {
	if len(skips) == 0 {
		return nil
	}
	added, present, err := k.s.RecordSkips(k.ctx, k.study, skips)
	if err != nil {
		return inputError{err: err}
	}
	k.skipsAdded, k.skipsPresent = k.skipsAdded+added, k.skipsPresent+present
	return nil
}

// store writes ts grouped by source path, in order of first appearance,
// or, while a table is read, as its next batch.
func (k *ingestSink) store(ts []trial.Trial) error {
	if k.add != nil {
		return k.add(ts)
	}
	var order []string
	bySource := map[string][]trial.Trial{}
	for _, t := range ts {
		if _, ok := bySource[t.Source.Path]; !ok {
			order = append(order, t.Source.Path)
		}
		bySource[t.Source.Path] = append(bySource[t.Source.Path], t)
	}
	for _, src := range order {
		added, present, err := k.ingest(src, bySource[src])
		var ie *safe.InternalError
		if errors.As(err, &ie) { // nothing of src was stored; the next sources are
			k.failed = append(k.failed, trial.Skip{Path: src, Code: source.SkipError, Reason: err.Error()})
			continue
		}
		if err != nil {
			return inputError{err: fmt.Errorf("storing %s: %w", src, err)}
		}
		k.added, k.present, k.sources = k.added+added, k.present+present, k.sources+1
	}
	return nil
}

// table stores the generic table src as read reads it, batch by batch
// (store.IngestBatches: in one transaction). The table's own error (read's)
// is returned as it is, nothing of the table stored; a storing error ends
// the ingest, as for other sources.
func (k *ingestSink) table(src string, read func() error) error {
	var addErr, readErr error
	added, present, err := k.ingestBatches(src, func(add func([]trial.Trial) error) error {
		k.add = func(ts []trial.Trial) error {
			addErr = add(ts)
			return addErr
		}
		defer func() { k.add = nil }()
		readErr = read()
		return readErr
	})
	var ie *safe.InternalError
	switch {
	case addErr != nil: // err is addErr as the store wraps it
		return inputError{err: fmt.Errorf("storing %s: %w", src, cmp.Or(err, addErr))}
	case err != nil && readErr != nil && errors.Is(err, readErr):
		return err // the table's
	case errors.As(err, &ie): // nothing of src was stored; the next sources are
		k.failed = append(k.failed, trial.Skip{Path: src, Code: source.SkipError, Reason: err.Error()})
		return nil
	case err != nil:
		return inputError{err: fmt.Errorf("storing %s: %w", src, err)}
	}
	k.added, k.present, k.sources = k.added+added, k.present+present, k.sources+1
	return nil
}

// ingestBatches is store.IngestBatches for one table, a panic becoming an
// error for it.
func (k *ingestSink) ingestBatches(src string, fill func(add func([]trial.Trial) error) error) (added, present int, err error) {
	defer safe.Recover(&err, "storing", src)
	if storeHook != nil {
		storeHook(src)
	}
	return k.s.IngestBatches(k.ctx, k.study, src, fill)
}

// ingest stores one source's trials, a panic becoming an error for it.
func (k *ingestSink) ingest(src string, ts []trial.Trial) (added, present int, err error) {
	defer safe.Recover(&err, "storing", src)
	if storeHook != nil {
		storeHook(src)
	}
	return k.s.Ingest(k.ctx, k.study, src, ts)
}
