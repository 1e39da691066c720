package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
)

// storeFlags are the store flags: --store, of every command that reads or
// writes a store, and --study and --where, of the commands that read or
// write the trials of a study.
type storeFlags struct {
	location string
	study    string
	where    []string
}

// addStore registers --store alone.
func (f *storeFlags) addStore(fs *pflag.FlagSet) {
	fs.StringVar(&f.location, "store", "", "store `LOCATION`: a SQLite path, sqlite:///PATH or postgres://URL (default $"+
		store.EnvVar+", else "+store.DefaultLocation+")")
}

// addStudy registers --store and --study, with usage, on fs.
func (f *storeFlags) addStudy(fs *pflag.FlagSet, usage string) {
	f.addStore(fs)
	fs.StringVar(&f.study, "study", "", usage)
}

// addStoreFlags registers --store, --study and --where on fs.
func addStoreFlags(fs *pflag.FlagSet, f *storeFlags) {
	f.addStudy(fs, "study `NAME` in the store")
	fs.StringArrayVar(&f.where, "where", nil, "only stored trials matching `KEY OP VALUE` on labels, params, workload or environment, with = != < <= > >= (repeatable)")
}

// query parses --where into a store query.
func (f *storeFlags) query() (store.Query, error) {
	conds, err := trial.ParseConditions(f.where)
	if err != nil {
		return store.Query{}, usageError{fmt.Errorf("--where: %w", err)}
	}
	return store.Query{Where: conds}, nil
}

// resolved is the location of the store the flags name (--store, else
// $PARETO_STORE, else the default).
func (f *storeFlags) resolved() string { return store.Location(f.location) }

// openStore opens the store the flags name: read-only for the commands
// that only read (store.OpenReadOnly: nothing is created, migrated or
// written, and the writing methods return store.ErrReadOnly), else for
// writing, created and migrated as needed (store.Open). Errors never show
// a password.
func (f *storeFlags) openStore(ctx context.Context, readOnly bool) (store.Store, error) {
	if !readOnly {
		s, err := store.Open(ctx, f.resolved())
		if err != nil {
			return nil, inputError{err: err}
		}
		return s, nil
	}
	r, err := store.OpenReadOnly(ctx, f.resolved())
	if err != nil {
		return nil, inputError{err: err}
	}
	s, ok := r.(store.Store)
	if !ok {
		r.Close()
		return nil, fmt.Errorf("the read-only store of %T is no store.Store", r)
	}
	return s, nil
}

// read opens the store the flags name read-only (openStore), calls fn
// with it and closes it.
func (f *storeFlags) read(ctx context.Context, fn func(store.Store) error) error {
	s, err := f.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

// requireStudy fails with a usage error when --study is missing.
func (f *storeFlags) requireStudy() error {
	if f.study == "" {
		return usagef("--study is required")
	}
	return nil
}

// studiesHelp is the help of pareto studies.
var studiesHelp = commandSpec{
	use:   "studies [--store S] [--format table|json]",
	short: "List the studies of a store with trial counts and time ranges",
	long: `Studies lists the studies of a store: each one's trial count, the number of
ingests that wrote to it, and the ingest times of its oldest and newest
trial. It opens the store read-only. --format json prints
{"studies":[{"name","trials","sources","created","first","last"}]}
(docs/schema/studies.schema.json; times in RFC 3339, null when unknown).`,
	example: `  pareto ingest examples/trials.csv --store runs.db --study csv && pareto studies --store runs.db
  pareto ingest examples/trials.csv --store runs.db --study csv && pareto studies --store runs.db --format json`,
	args:      noArgs,
	sortFlags: true,
}

func newStudiesCmd(e *env) *cobra.Command {
	cmd, fs, o := newStoreCommand(studiesHelp, func(ctx context.Context, o *storeOptions) error {
		return o.store.read(ctx, func(s store.Store) error {
			studies, err := s.Studies(ctx)
			if err != nil {
				return inputError{err: err}
			}
			return e.write(o.format.f, newStudiesResult(studies))
		})
	})
	addStoreFlags(fs, &o.store)
	o.format.addTableJSON(fs)
	return cmd
}

// studiesResult is what pareto studies prints.
type studiesResult struct {
	Studies []studyJSON `json:"studies"`
}

// studyJSON is one study of pareto studies --format json.
type studyJSON struct {
	Name    string  `json:"name"`
	Trials  int     `json:"trials"`
	Sources int     `json:"sources"`
	Created *string `json:"created"`
	First   *string `json:"first"`
	Last    *string `json:"last"`
}

// newStudiesResult lists studies, times in RFC 3339 (UTC) and nil when
// unknown.
func newStudiesResult(studies []store.Study) studiesResult {
	ts := func(t time.Time) *string {
		if t.IsZero() {
			return nil
		}
		s := t.UTC().Format(time.RFC3339Nano)
		return &s
	}
	out := studiesResult{Studies: []studyJSON{}}
	for _, s := range studies {
		out.Studies = append(out.Studies, studyJSON{s.Name, s.Trials, s.Sources, ts(s.Created), ts(s.First), ts(s.Last)})
	}
	return out
}

// WriteTable prints one line per study, times to the second.
func (r studiesResult) WriteTable(out io.Writer) error {
	ts := func(b []byte, s *string) []byte {
		if s == nil {
			return append(b, '-')
		}
		t, err := time.Parse(time.RFC3339Nano, *s)
		if err != nil {
			return append(b, *s...)
		}
		return t.UTC().AppendFormat(b, time.RFC3339)
	}
	w := bufio.NewWriter(out)
	enc.Section(w, []string{"STUDY", "TRIALS", "SOURCES", "FIRST", "LAST"}, len(r.Studies), func(b []byte, row, col int) []byte {
		s := &r.Studies[row]
		switch col {
		case 0:
			return append(b, s.Name...)
		case 1:
			return strconv.AppendInt(b, int64(s.Trials), 10)
		case 2:
			return strconv.AppendInt(b, int64(s.Sources), 10)
		case 3:
			return ts(b, s.First)
		}
		return ts(b, s.Last)
	})
	return w.Flush()
}

// trialsHelp is the help of pareto trials.
var trialsHelp = commandSpec{
	use:   "trials --store S --study NAME [--where K=V ...] [--format jsonl|csv]",
	short: "Export a study's trials (jsonl is lossless and can be ingested again)",
	long: `Trials exports a study's trials, filtered by --where: KEY OP VALUE on labels,
params, workload or environment, session=NAME for a measurement session, and
key=HEX for a configuration or repeat key (the key:HEX pareto gate prints).`,
	example: `  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto trials --store runs.db --study tune --where role=baseline --format csv
  pareto ingest examples/decide/tries-sglang-0.6.0.jsonl --store runs.db --study tune && \
    pareto trials --store runs.db --study tune`,
	args:      noArgs,
	sortFlags: true,
}

func newTrialsCmd(e *env) *cobra.Command {
	cmd, fs, o := newStoreCommand(trialsHelp, func(ctx context.Context, o *storeOptions) error {
		if err := o.store.requireStudy(); err != nil {
			return err
		}
		q, keep, err := source.TrialFilter(o.store.where)
		if err != nil {
			return queryUsage(err)
		}
		return o.store.read(ctx, func(s store.Store) error {
			return e.write(o.format.f, trialsExport{ctx, s, o.store.study, q, keep})
		})
	})
	addStoreFlags(fs, &o.store)
	o.format.add(fs, "jsonl (one trial.Trial per line) or csv (one column per label, param and measurement)", formatJSONL, enc.FormatCSV)
	return cmd
}

// formatJSONL is the lossless export of pareto trials: one trial.Trial
// per line.
const formatJSONL enc.Format = "jsonl"

// trialsExport is what pareto trials prints: the trials of study that
// keep accepts, streamed from the store (memory does not grow with the
// study).
type trialsExport struct {
	ctx   context.Context
	s     store.Reader
	study string
	q     store.Query
	keep  func(*trial.Trial) bool
}

// WriteFormat writes the export as JSON Lines (formatJSONL).
func (x trialsExport) WriteFormat(w io.Writer, f enc.Format) error {
	if f != formatJSONL {
		return &enc.FormatError{Name: string(f)}
	}
	return x.writeJSONL(w)
}

// writeJSONL streams the study's trials that keep accepts (store.Reader.Scan) as one
// JSON object per line: memory does not grow with the study.
func (x trialsExport) writeJSONL(w io.Writer) error {
	ctx, s, study, q, keep := x.ctx, x.s, x.study, x.q, x.keep
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	err := s.Scan(ctx, study, q, func(ts []trial.Trial) error {
		for i := range ts {
			if !keep(&ts[i]) {
				continue
			}
			if err := enc.Encode(&ts[i]); err != nil {
				return writeError{err}
			}
		}
		return nil
	})
	if err != nil {
		return trialsError(err)
	}
	return bw.Flush()
}

// writeError is a failure to write the output (as opposed to reading the
// store).
type writeError struct{ err error }

func (e writeError) Error() string { return e.err.Error() }

// trialsError maps an error of an export to what the command returns:
// write errors as they are, read errors with exit status 1.
func trialsError(err error) error {
	var we writeError
	if errors.As(err, &we) {
		return we.err
	}
	return inputError{err: err}
}

// csvColumns are the label, parameter and measurement columns of an
// export, each sorted.
type csvColumns struct {
	labels, params, metrics []string
}

// scanColumns reads the study once for the columns every trial has.
func scanColumns(ctx context.Context, s store.Reader, study string, q store.Query, keep func(*trial.Trial) bool) (csvColumns, error) {
	labels, params, metrics := map[string]bool{}, map[string]bool{}, map[string]bool{}
	err := s.Scan(ctx, study, q, func(ts []trial.Trial) error {
		for i := range ts {
			if !keep(&ts[i]) {
				continue
			}
			for k := range ts[i].Labels {
				labels[k] = true
			}
			for k := range ts[i].Params {
				params[k] = true
			}
			for _, m := range ts[i].Measurements {
				metrics[m.String()] = true
			}
		}
		return nil
	})
	return csvColumns{slices.Sorted(maps.Keys(labels)), slices.Sorted(maps.Keys(params)), slices.Sorted(maps.Keys(metrics))}, err
}

// WriteCSV writes id, source, then label.K, param.K and one column
// per measurement selector, in sorted order. It streams: one read of the
// study finds the columns, a second writes the rows (a trial with a
// column the first did not see, ingested in between, is an error).
func (x trialsExport) WriteCSV(w io.Writer) error {
	ctx, s, study, q, keep := x.ctx, x.s, x.study, x.q, x.keep
	cols, err := scanColumns(ctx, s, study, q, keep)
	if err != nil {
		return inputError{err: err}
	}
	lk, pk, mk := cols.labels, cols.params, cols.metrics
	metricCol := make(map[string]int, len(mk))
	for i, k := range mk {
		metricCol[k] = i
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	header := []string{"id", "source"}
	for _, k := range lk {
		header = append(header, "label."+k)
	}
	for _, k := range pk {
		header = append(header, "param."+k)
	}
	header = append(header, mk...)
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	vals := row[2+len(lk)+len(pk):]
	var num []byte
	err = s.Scan(ctx, study, q, func(ts []trial.Trial) error {
		for i := range ts {
			t := &ts[i]
			if !keep(t) {
				continue
			}
			row = append(row[:0], t.ID, t.Source.Path)
			for _, k := range lk {
				row = append(row, t.Labels[k])
			}
			for _, k := range pk {
				row = append(row, t.Params[k])
			}
			row = row[:len(header)]
			clear(vals)
			if !hasAll(t.Labels, lk) || !hasAll(t.Params, pk) {
				return changedError(t)
			}
			for _, m := range t.Measurements {
				c, ok := metricCol[m.String()]
				if !ok {
					return changedError(t)
				}
				num = strconv.AppendFloat(num[:0], m.Value, 'g', -1, 64)
				vals[c] = string(num)
			}
			if err := cw.Write(row); err != nil {
				return writeError{err}
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return writeError{err}
		}
		return nil
	})
	if err != nil {
		return trialsError(err)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// changedError says that trial t was not in the study when its columns
// were read.
func changedError(t *trial.Trial) error {
	return fmt.Errorf("trial %s has a column the first read of the study did not see (trials were ingested meanwhile): export again", t.ID)
}

// hasAll reports whether every key of m is in keys (sorted).
func hasAll(m map[string]string, keys []string) bool {
	for k := range m {
		if _, found := slices.BinarySearch(keys, k); !found {
			return false
		}
	}
	return true
}
