// Package source opens every input pareto reads — benchmark result files,
// directories and CloudAI results trees (package ingest), generic CSV/JSONL
// tables, a study of a store filtered with conditions, an Optuna storage —
// as one stream of trials, with the inputs that yielded nothing listed as
// skips that say why. Trials reads them as trials; Rows reads them into a
// query's rows, taking a generic table's columns directly (a million-row
// table in a fraction of a second) when the query needs no trial.
//
// The data flow is source → query (package query) → encoders.
package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/optuna"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// Spec names the inputs.
type Spec struct {
	// Paths are files, directories and "-" (Stdin).
	Paths []string
	Stdin io.Reader
	// Load configures the readers (GPUs per node of a CloudAI system,
	// the id column of generic tables, ...). Its Each and Stdin are set by
	// Trials and Rows.
	Load ingest.LoadOptions
	// Store (a location, see store.Location) and Study name a stored
	// study; Where filters its trials.
	Store, Study string
	Where        []store.Condition
	// Optuna is an Optuna RDB storage (a SQLite file or a postgresql://
	// URL) and OptunaStudy its study (default: the only one).
	Optuna, OptunaStudy string
	// Note, when set, receives things worth telling the user (what an
	// Optuna study holds).
	Note func(string)
	// Fields names the spec's fields in the notes (a where that matches
	// nothing) as the caller spells them (the command line: --where);
	// nil keeps their own names.
	Fields field.Namer
}

// noteWarnings tells the warnings gathered from the trials read from
// files.
func (s *Spec) noteWarnings(ws *ingest.Warnings) {
	if s.Note == nil {
		return
	}
	for _, w := range ws.Lines() {
		s.Note("warning: " + w)
	}
}

func (s *Spec) note(msg string) {
	if s.Note != nil && msg != "" {
		s.Note(msg)
	}
}

// Set is what Trials read.
type Set struct {
	// Trials in input order: paths, then the study, then Optuna.
	Trials []trial.Trial
	// Runs holds, aligned with Trials, the CloudAI run each trial came
	// from, or nil.
	Runs []*cloudai.Run
	// Skipped lists the inputs and runs that yielded no trial.
	Skipped []trial.Skip
	// Notes are things worth telling the user (an Optuna study's metrics).
	Notes []string
}

// Failed returns the skips of inputs that could not be read.
func (s *Set) Failed() []trial.Skip { return failed(s.Skipped) }

func failed(skips []trial.Skip) []trial.Skip {
	var out []trial.Skip
	for _, k := range skips {
		if k.Code == ingest.SkipError {
			out = append(out, k)
		}
	}
	return out
}

// Error says, per input, why nothing usable was read: the command exits 1.
type Error struct {
	// Skips are the inputs and why each yielded nothing.
	Skips []trial.Skip
	// Msg summarises.
	Msg string
}

// Error renders the summary and one line per input: a newline or other
// control character in a path or a reason is escaped (enc.Safe), so that
// no input's line can pass for another's.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	for _, s := range e.Skips {
		line := s.Reason
		if s.Run != "" || !strings.HasPrefix(s.Reason, s.Path+":") {
			run := ""
			if s.Run != "" {
				run = " (" + s.Run + ")"
			}
			line = s.Path + run + ": " + s.Reason
		}
		b.WriteString("\n  ")
		b.WriteString(enc.Safe(line))
	}
	return b.String()
}

// Unreadable returns an *Error listing the inputs of skips that could not
// be read, or nil when every input was read.
func Unreadable(skips []trial.Skip) error {
	f := failed(skips)
	if len(f) == 0 {
		return nil
	}
	noun := "inputs"
	if len(f) == 1 {
		noun = "input"
	}
	return &Error{Skips: f, Msg: fmt.Sprintf("%d %s could not be read:", len(f), noun)}
}

// Nothing returns the *Error of a read that gave no trial at all.
func Nothing(skips []trial.Skip) error {
	if len(skips) == 0 {
		return &Error{Msg: "no trial in any input"}
	}
	return &Error{Skips: skips, Msg: "no trial in any input:"}
}

// Trials reads every input of spec as trials (generic table rows
// included). The error is non-nil for an input that does not exist, a
// store or Optuna storage that cannot be read, or when no input yields a
// trial (an *Error naming each input and why); inputs that could not be
// read are in Skipped (code "error").
func Trials(ctx context.Context, spec Spec) (*Set, error) {
	set := &Set{}
	if len(spec.Paths) > 0 {
		opts := spec.Load
		opts.Stdin = spec.Stdin
		d, err := ingest.Load(spec.Paths, opts)
		if err != nil {
			return nil, err
		}
		set.Trials, set.Runs, set.Skipped = d.Trials, d.Runs, d.Skipped
	}
	if spec.Study != "" {
		ts, err := StudyTrials(ctx, spec.Store, spec.Study, store.Query{Where: spec.Where})
		if err != nil {
			return nil, err
		}
		set.add(ts)
		if len(ts) == 0 && len(spec.Where) > 0 {
			if s, err := store.OpenReadOnly(ctx, spec.Store); err == nil {
				spec.note(spec.whereMisses(ctx, s))
				s.Close()
			}
		}
	}
	if spec.Optuna != "" {
		st, name, err := ReadOptuna(ctx, spec.Optuna, spec.OptunaStudy)
		if err != nil {
			return nil, err
		}
		set.Notes = append(set.Notes, optunaNote(st, name))
		spec.note(optunaNote(st, name))
		set.add(st.Trials)
	}
	if len(set.Trials) == 0 {
		return set, Nothing(set.Skipped)
	}
	return set, nil
}

func (s *Set) add(ts []trial.Trial) {
	s.Trials = append(s.Trials, ts...)
	for range ts {
		s.Runs = append(s.Runs, nil)
	}
}

// StudyTrials reads a study's trials from the store at location, opened
// read-only (store.OpenReadOnly: nothing is written or migrated).
func StudyTrials(ctx context.Context, location, study string, q store.Query) ([]trial.Trial, error) {
	s, err := store.OpenReadOnly(ctx, location)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Trials(ctx, study, q)
}

// Rows reads every input of spec into rows for q. Generic tables are read
// column by column when q needs no trial (no configuration keys, no
// baseline, no aggregation of repeats across rows); otherwise as trials.
// A study is read column by column under the same condition when every
// objective names a stored metric exactly. It returns the inputs that could
// not be read (the others are in rows); the error is non-nil for a store
// or Optuna storage that cannot be read, or when nothing at all was read.
func Rows(ctx context.Context, spec Spec, q *query.Query, rows *query.Rows) ([]trial.Skip, error) {
	var bench []string
	var bad, others []trial.Skip // inputs that failed; inputs that are no result
	var ws ingest.Warnings       // told once the files are read
	fail := func(path string, err error) {
		bad = append(bad, trial.Skip{Path: path, Code: ingest.SkipError, Reason: err.Error()})
	}
	columnar := !q.NeedsTrials()
	rows.SetInputs(len(spec.Paths))
	lim := spec.Load.Limits
	for _, path := range spec.Paths {
		kind, data, err := sniff(spec.Stdin, path, lim, spec.Load.AsTable)
		switch {
		case err != nil:
			fail(path, err)
		case kind == kindTable && columnar:
			t, err := readTable(data, path, q.TableSpec(), lim)
			if err == nil && t.Len() == 0 { // as ingest.ReadTable says
				err = &table.SyntaxError{File: path, Line: 2, Col: 1, Msg: "the table has a header but no rows"}
			}
			if err != nil {
				fail(path, err)
				continue
			}
			rows.AddTable(t)
		case data != nil:
			opts := spec.Load
			opts.Stdin = strings.NewReader(string(data))
			d, err := ingest.Load([]string{"-"}, opts)
			if err != nil {
				fail(path, err)
				continue
			}
			bad = append(bad, failed(d.Skipped)...)
			ws.Add(d.Trials)
			rows.AddTrials(d.Trials)
		default:
			bench = append(bench, path)
		}
	}
	if len(bench) > 0 {
		d, err := benchRows(spec, q, bench, rows, &ws)
		if err != nil {
			spec.noteWarnings(&ws)
			return bad, err
		}
		bad = append(bad, failed(d.Skipped)...)
		rows.Skip(d.Skipped...)
		for _, k := range d.Skipped {
			if k.Code != ingest.SkipError {
				others = append(others, k)
			}
		}
	}
	spec.noteWarnings(&ws)
	if spec.Study != "" {
		if err := studyRows(ctx, spec, q, rows); err != nil {
			return bad, err
		}
	}
	if spec.Optuna != "" {
		st, name, err := ReadOptuna(ctx, spec.Optuna, spec.OptunaStudy)
		if err != nil {
			return bad, err
		}
		spec.note(optunaNote(st, name))
		for _, slo := range st.SLOs() {
			rows.AddSLO(slo)
		}
		rows.AddTrials(st.Trials)
	}
	if rows.Len() == 0 && (len(bad) > 0 || len(spec.Paths) > 0 && spec.Study == "" && spec.Optuna == "") {
		return bad, Nothing(append(bad, others...)) // files named, and nothing usable in them
	}
	return bad, nil
}

// benchRows appends the trials of the benchmark results at paths to rows:
// streamed (query.TrialStream: a row keeps its values and repeat key, not
// its trial, and files of many records are read a batch at a time) unless
// q needs the trials.
func benchRows(spec Spec, q *query.Query, paths []string, rows *query.Rows, ws *ingest.Warnings) (*ingest.Dataset, error) {
	if !q.Streamable() {
		d, err := ingest.Load(paths, spec.Load)
		if err == nil {
			ws.Add(d.Trials)
			rows.AddTrials(d.Trials)
		}
		return d, err
	}
	stream := rows.StreamTrials()
	opts := spec.Load
	opts.Batches = true
	opts.NoIDs = true // the stream names rows by their place and keeps no trial
	opts.Transient = true
	opts.Each = func(ts []trial.Trial, _ *cloudai.Run) error {
		ws.Add(ts)
		stream.Add(ts)
		return nil
	}
	d, err := ingest.Load(paths, opts)
	stream.Done()
	return d, err
}

type inputKind int

const (
	kindBenchmark inputKind = iota
	kindTable
)

// sniff decides whether a path is a generic table or benchmark results.
// Directories are benchmark results; with asTable (LoadOptions.AsTable)
// every file and standard input is a table. Standard input is read whole
// (up to the input size limit) and returned; files are only peeked at, and
// binary data is an error.
func sniff(stdin io.Reader, path string, lim ingest.Limits, asTable bool) (inputKind, []byte, error) {
	if path == "-" {
		if stdin == nil {
			return 0, nil, errors.New("-: no standard input")
		}
		data, err := lim.ReadAll(stdin, "-")
		if err != nil {
			return 0, nil, err
		}
		if !asTable && ingest.Detect(head(data), "-") != ingest.FormatUnknown {
			return kindBenchmark, data, nil
		}
		return kindTable, data, ingest.CheckHead(data, "-")
	}
	st, err := lim.Stat(path) // named pipes, devices and huge files are refused before opening
	if err != nil {
		return 0, nil, err
	}
	if st.IsDir() {
		return kindBenchmark, nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	buf := make([]byte, ingest.HeadSize)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !asTable && ingest.Detect(buf[:n], path) != ingest.FormatUnknown {
		return kindBenchmark, nil, nil
	}
	return kindTable, nil, ingest.CheckHead(buf[:n], path)
}

func head(data []byte) []byte { return data[:min(len(data), ingest.HeadSize)] }

// readTable parses a table from data, or streams it from the file when
// data is nil (its size was checked by sniff; CSV blocks parse on every
// core), within lim. A panic while reading becomes a *safe.InternalError
// for path.
func readTable(data []byte, path string, spec table.Spec, lim ingest.Limits) (t *table.Table, err error) {
	defer safe.Recover(&err, "reading", path)
	spec.MaxRecordSize = lim.RecordLimit()
	spec.MaxColumns = lim.ColumnLimit()
	if data != nil {
		return table.ReadBytes(data, path, spec)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return table.Read(f, path, spec)
}

// studyRows appends the trials of the study (filtered by Where) and lists
// its skips (store.Store.Skips, filtered by Where on their path and CloudAI
// point), from the store opened read-only. Without repeats to combine and without groups, only the
// objective and SLO columns are read (Store.Columns): the fast path for
// studies of millions of trials, where a selector must name its metric and
// statistic exactly as stored.
func studyRows(ctx context.Context, spec Spec, q *query.Query, rows *query.Rows) error {
	s, err := store.OpenReadOnly(ctx, spec.Store)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := addStudyRows(ctx, s, spec, q, rows); err != nil {
		return err
	}
	skips, err := s.Skips(ctx, spec.Study, spec.Where)
	if err != nil {
		return err
	}
	rows.Skip(skips...)
	return nil
}

// addStudyRows appends the study's trials, column by column when q allows
// (without repeats, groups or names: Columns alone; with repeats keyed by
// the default configuration keys: ReadStudy's columns and sketches), else
// streamed (query.TrialStream: each row keeps its values and repeat key,
// not its trial) unless a baseline needs the trials.
func addStudyRows(ctx context.Context, s store.Reader, spec Spec, q *query.Query, rows *query.Rows) error {
	if q.Aggregate == repeat.None && q.Baseline == "" && q.GroupBy == "" && q.ID == "" {
		if specs, ok := columnSpecs(q); ok {
			cols, err := s.Columns(ctx, spec.Study, specs, spec.Where)
			if err != nil {
				return err
			}
			rows.AddColumns(cols.IDs, cols.Values, cols.Problems)
			if len(cols.IDs) == 0 {
				spec.note(spec.whereMisses(ctx, s))
			}
			return nil
		}
	}
	read := StudyRead{Study: spec.Study, Query: store.Query{Where: spec.Where}}
	if q.Sketchable() {
		if specs, ok := columnSpecs(q); ok {
			read.Columns = specs
		}
	}
	n := 0
	if q.Streamable() {
		stream := rows.StreamTrials()
		var err error
		if n, err = ReadStudy(ctx, s, read, StudySink{Grow: stream.Grow, Trial: stream.AddTrial, Sketch: stream.AddSketch}); err != nil {
			return err
		}
		stream.Done()
	} else {
		ts, err := s.Trials(ctx, spec.Study, read.Query)
		if err != nil {
			return err
		}
		rows.AddTrials(ts)
		n = len(ts)
	}
	if n == 0 {
		spec.note(spec.whereMisses(ctx, s))
	}
	return nil
}

// whereMisses is the warning for a where that matches no trial of the
// study: the values each condition's key has there (at most 10 each), or
// "" when there are no conditions or the study itself is empty.
func (spec *Spec) whereMisses(ctx context.Context, s store.Reader) string {
	study, where := spec.Study, spec.Where
	if len(where) == 0 {
		return ""
	}
	all, err := s.Trials(ctx, study, store.Query{})
	if err != nil || len(all) == 0 {
		return ""
	}
	conds := make([]string, len(where))
	var parts []string
	for i, c := range where {
		conds[i] = c.String()
		seen := map[string]bool{}
		var vals []string
		for k := range all {
			if v, ok := c.ValueOf(&all[k]); ok && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		switch {
		case len(vals) == 0:
			parts = append(parts, fmt.Sprintf("no trial has %s", c.Key))
		case len(vals) > 10:
			parts = append(parts, fmt.Sprintf("%s is one of %s, … (%d values)", c.Key, strings.Join(vals[:10], ", "), len(vals)))
		default:
			parts = append(parts, fmt.Sprintf("%s is one of %s", c.Key, strings.Join(vals, ", ")))
		}
	}
	flag := spec.Fields.Name("where")
	return fmt.Sprintf("warning: %s %s matches none of the %d trials of study %q: %s",
		flag, strings.Join(conds, " "+flag+" "), len(all), study, strings.Join(parts, "; "))
}

// columnSpecs maps every objective and SLO selector to a stored (metric,
// dims) column, or reports that one cannot be mapped exactly.
func columnSpecs(q *query.Query) ([]store.ColumnSpec, bool) {
	var specs []store.ColumnSpec
	names := make([]string, 0, len(q.Objectives)+len(q.SLOs))
	for _, o := range q.Objectives {
		names = append(names, o.Name)
	}
	for _, s := range q.SLOs {
		names = append(names, s.Name)
	}
	for _, n := range names {
		sel, err := trial.ParseSelector(n)
		if err != nil {
			return nil, false
		}
		if _, known := trial.Lookup(sel.Metric); !known {
			return nil, false
		}
		dims := sel.Dims
		if sel.Statistic != "" {
			dims = dims.With(trial.DimStatistic, sel.Statistic)
		}
		specs = append(specs, store.ColumnSpec{Metric: sel.Metric, Dims: dims})
	}
	return specs, true
}

// ReadOptuna reads an Optuna study (the only one of the storage when name
// is empty).
func ReadOptuna(ctx context.Context, storage, name string) (*optuna.Study, string, error) {
	if name == "" {
		names, err := optuna.Studies(ctx, storage)
		if err != nil {
			return nil, "", err
		}
		if len(names) != 1 {
			return nil, "", fmt.Errorf("%w: the storage holds %d studies (%s): name one", ErrOptunaStudy, len(names), strings.Join(names, ", "))
		}
		name = names[0]
	}
	st, err := optuna.Read(ctx, storage, name)
	if err != nil {
		return nil, "", err
	}
	return st, name, nil
}

// ErrOptunaStudy is returned when an Optuna storage holds several studies
// and none was named.
var ErrOptunaStudy = errors.New("optuna study required")

// OptunaObjectives returns the study's own objectives and directions.
func OptunaObjectives(ctx context.Context, storage, name string) ([]frontier.Objective, string, error) {
	st, name, err := ReadOptuna(ctx, storage, name)
	if err != nil {
		return nil, "", err
	}
	return st.Objectives(), optunaNote(st, name), nil
}

func optunaNote(st *optuna.Study, name string) string {
	return fmt.Sprintf("optuna study %s: %d complete trials, metrics %s", name, len(st.Trials), strings.Join(st.Metrics, ", "))
}
