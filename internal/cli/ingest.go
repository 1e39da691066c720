package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
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
store. --gpus N gives every result file's trials per-GPU throughput.

Formats are sniffed from the content, not the file name. In a CloudAI
results tree each successful iteration, DSE step and AIPerf phase is a
trial; failed runs are listed as skipped. --system-config (or
--gpus-per-node) gives gpus_per_node, needed for per-allocated-GPU
throughput.

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

type ingestOptions struct {
	format, systemConfig, id string
	session                  string
	gpusPerNode, gpus        int
	optuna, optunaStudy      string
	keepGoing                bool
	labels                   []string
	store                    storeFlags
	limits                   limitFlags
}

func newIngestCmd(e *env) *cobra.Command {
	var o ingestOptions
	c := &cobra.Command{
		Use:     "ingest [flags] PATH...",
		Short:   "Read benchmark results and report what was found",
		Long:    ingestLong,
		Example: ingestExample,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && o.optuna == "" {
				return usagef("no paths given (or --optuna)")
			}
			if o.format != "table" && o.format != "json" {
				return usagef("unknown --format %q (want table or json)", o.format)
			}
			return runIngest(c.Context(), e, &o, args)
		},
	}
	f := c.Flags()
	f.StringVar(&o.format, "format", "table", "output `table|json`")
	f.StringVar(&o.systemConfig, "system-config", "", "CloudAI system `TOML` supplying gpus_per_node")
	f.IntVar(&o.gpusPerNode, "gpus-per-node", 0, "GPUs per node for CloudAI runs (overrides --system-config)")
	addGPUsFlag(f, &o.gpus)
	addOptunaFlags(f, &o.optuna, &o.optunaStudy)
	f.BoolVar(&o.keepGoing, "keep-going", false, "exit 0 even when some inputs could not be read")
	f.StringArrayVar(&o.labels, "label", nil, "add label `k=v` to every trial (repeatable)")
	f.StringVar(&o.id, "id", "", "the id `COLUMN` of generic CSV/JSONL tables (default: id when present)")
	f.StringVar(&o.session, "session", "", "record the trials in measurement session `NAME` (default: a new session, named by the time; trials exported by pareto trials keep theirs)")
	addStoreFlags(f, &o.store)
	addLimitFlags(f, &o.limits)
	return c
}

// addGPUsFlag registers --gpus, the GPUs that served each result file.
func addGPUsFlag(f *pflag.FlagSet, n *int) {
	f.IntVar(n, "gpus", 0, "`N` GPUs served each result file (not CloudAI runs): per-GPU throughput; default the file's own count (AIPerf telemetry)")
}

// loadOptions turns the CloudAI flags and --gpus into reader options.
func loadOptions(systemConfig string, gpusPerNode, gpus int) (source.LoadOptions, error) {
	if gpus < 0 {
		return source.LoadOptions{}, usagef("--gpus %d: want a positive count of GPUs", gpus)
	}
	opts, err := source.CloudAI(systemConfig, gpusPerNode)
	opts.GPUs = gpus
	if fe, ok := field.As(err); ok {
		return opts, usageError{errors.New(flagWords(fe))}
	}
	if err != nil {
		return opts, inputError{err: err}
	}
	return opts, nil
}

func runIngest(ctx context.Context, e *env, o *ingestOptions, paths []string) error {
	opts, err := loadOptions(o.systemConfig, o.gpusPerNode, o.gpus)
	if err != nil {
		return err
	}
	if opts.Limits, err = o.limits.limits(); err != nil {
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
	bar := progress.New(e.stderr, "ingest", "inputs")
	opts.Progress = bar.Set
	skipped, err := source.Stream(source.Spec{Paths: paths, Stdin: e.stdin, Load: opts,
		Note: func(s string) { fmt.Fprintf(e.stderr, "pareto ingest: %s\n", enc.SafeLines(s)) }}, each)
	bar.Done()
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
	sum := summarize(counts)
	if o.format == "json" {
		err = writeIngestJSON(e, total, sum, skipped, st)
	} else {
		err = writeIngestTable(e, total, sum, skipped, st)
	}
	if err != nil {
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
	Format, Version, Layout string
	Trials                  int
}

// summarize lists the trial counts by (format, version, layout).
func summarize(counts map[formatKey]int) []formatCount {
	var out []formatCount
	for k, n := range counts {
		out = append(out, formatCount{k.format, k.version, k.layout, n})
	}
	slices.SortFunc(out, func(a, b formatCount) int {
		return cmp.Or(cmp.Compare(a.Format, b.Format), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Layout, b.Layout))
	})
	return out
}

func writeIngestTable(e *env, total int, sum []formatCount, skipped []trial.Skip, st *stored) error {
	w := bufio.NewWriter(e.stdout)
	fmt.Fprintf(w, "%d trials, %d skipped (%d unreadable)\n", total, len(skipped), len(source.Failed(skipped)))
	if st != nil {
		fmt.Fprintf(w, "study %s in %s: %d added, %d already present, from %d sources\n", enc.Safe(st.study), enc.Safe(st.location), st.added, st.present, st.sources)
		fmt.Fprintf(w, "session %s\n", enc.Safe(st.session))
		if st.skipsAdded+st.skipsPresent > 0 {
			fmt.Fprintf(w, "skips kept in study %s: %d added, %d already present\n", enc.Safe(st.study), st.skipsAdded, st.skipsPresent)
		}
	}
	w.WriteByte('\n')
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
	if sk := skipped; len(sk) > 0 {
		fmt.Fprintf(w, "\nSKIPPED\n")
		enc.Section(w, []string{"path", "run", "code", "reason"}, len(sk), func(b []byte, r, c int) []byte {
			return append(b, [...]string{sk[r].Path, sk[r].Run, sk[r].Code, sk[r].Reason}[c]...)
		})
	}
	return w.Flush()
}

func writeIngestJSON(e *env, total int, sum []formatCount, skipped []trial.Skip, st *stored) error {
	j := &enc.JSON{}
	j.Raw(`{"trials":`)
	j.Int(int64(total))
	if st != nil {
		j.Raw(`,"stored":{"store":`)
		j.Str(st.location)
		j.Raw(`,"study":`)
		j.Str(st.study)
		j.Raw(`,"added":`)
		j.Int(int64(st.added))
		j.Raw(`,"present":`)
		j.Int(int64(st.present))
		j.Raw(`,"sources":`)
		j.Int(int64(st.sources))
		j.Raw(`,"skips_added":`)
		j.Int(int64(st.skipsAdded))
		j.Raw(`,"skips_present":`)
		j.Int(int64(st.skipsPresent))
		j.Raw(`,"session":`)
		j.Str(st.session)
		j.Raw("}")
	}
	j.Raw(`,"formats":[`)
	for i, s := range sum {
		if i > 0 {
			j.Raw(",")
		}
		j.Raw(`{"format":`)
		j.Str(s.Format)
		j.Raw(`,"version":`)
		j.Str(s.Version)
		j.Raw(`,"layout":`)
		j.Str(s.Layout)
		j.Raw(`,"trials":`)
		j.Int(int64(s.Trials))
		j.Raw("}")
	}
	j.Raw(`],"skipped":`)
	j.Skips(skipped)
	j.Raw("}\n")
	w := bufio.NewWriter(e.stdout)
	if err := j.Flush(w, true); err != nil {
		return err
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
