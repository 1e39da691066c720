package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/optuna"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

type inputKind int

const (
	inputTable inputKind = iota
	inputBenchmark
)

// sniffInput decides whether a path is a generic table or benchmark
// results. Directories are benchmark results. Standard input is read
// whole and returned; files are only peeked at.
func sniffInput(e *env, path string) (inputKind, []byte, error) {
	if path == "-" {
		data, err := io.ReadAll(e.stdin)
		if err != nil {
			return 0, nil, fmt.Errorf("-: %w", err)
		}
		if ingest.Detect(head(data), "-") != ingest.FormatUnknown {
			return inputBenchmark, data, nil
		}
		return inputTable, data, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, nil, err
	}
	if st.IsDir() {
		return inputBenchmark, nil, nil
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
	if ingest.Detect(buf[:n], path) != ingest.FormatUnknown {
		return inputBenchmark, nil, nil
	}
	return inputTable, nil, nil
}

func head(data []byte) []byte { return data[:min(len(data), ingest.HeadSize)] }

// addTrials appends benchmark trials as rows, resolving each objective and
// SLO selector; a trial whose selector matches no measurement, or several,
// is rejected with the reason and the candidates.
func (d *frontData) addTrials(ts []trial.Trial, q *frontQuery, o *frontOptions) {
	objSel := selectors(q.objectives)
	sloSel := make([]selectorOrErr, len(q.slos))
	for i, s := range q.slos {
		sloSel[i] = parseSel(s.Name)
	}
	perFile := map[string]int{}
	for i := range ts {
		perFile[ts[i].Source.Path]++
	}
	seen := map[string]int{}
	for i := range ts {
		t := &ts[i]
		row := int32(len(d.ids))
		d.ids = append(d.ids, uniqueID(displayID(t, perFile[t.Source.Path] > 1), seen))
		d.trials = append(d.trials, t)
		for c, sel := range objSel {
			d.values[c] = append(d.values[c], d.resolve(row, t, sel))
		}
		for c, sel := range sloSel {
			d.slo[c] = append(d.slo[c], d.resolve(row, t, sel))
		}
		if o.groupBy != "" {
			d.group = append(d.group, groupOf(t, o.groupBy))
		}
	}
}

type selectorOrErr struct {
	sel trial.Selector
	err error
}

func parseSel(name string) selectorOrErr {
	sel, err := trial.ParseSelector(name)
	return selectorOrErr{sel, err}
}

func selectors(objs []frontier.Objective) []selectorOrErr {
	out := make([]selectorOrErr, len(objs))
	for i, o := range objs {
		out[i] = parseSel(o.Name)
	}
	return out
}

// resolve returns the selector's value in t, or Missing after recording
// why the row is rejected.
func (d *frontData) resolve(row int32, t *trial.Trial, s selectorOrErr) float64 {
	if s.err != nil {
		d.reject(row, s.err.Error())
		return frontier.Missing
	}
	m, err := s.sel.Resolve(t)
	if err == nil {
		return m.Value
	}
	var re *trial.ResolveError
	if errors.As(err, &re) {
		msg := re.Selector + ": " + re.Reason
		if re.Detail != "" {
			msg += " (" + re.Detail + ")"
		}
		if len(re.Candidates) > 0 {
			msg += "; candidates: " + strings.Join(re.Candidates, ", ")
		}
		d.reject(row, msg)
	} else {
		d.reject(row, err.Error())
	}
	return frontier.Missing
}

func (d *frontData) reject(row int32, why string) {
	if _, dup := d.rejected[row]; !dup {
		d.rejected[row] = why
	}
}

// displayID names a trial for people: the CloudAI point, else the file
// (with the line or index when a file holds several trials).
func displayID(t *trial.Trial, several bool) string {
	if r := t.Labels["run"]; r != "" {
		return r
	}
	id := t.Source.Path
	if several {
		if t.Source.Line > 0 {
			return id + ":" + strconv.Itoa(t.Source.Line)
		}
		return id + "#" + strconv.Itoa(t.Source.Index)
	}
	return id
}

// uniqueID suffixes repeated ids with ~2, ~3, ...
func uniqueID(id string, seen map[string]int) string {
	seen[id]++
	if n := seen[id]; n > 1 {
		return id + "~" + strconv.Itoa(n)
	}
	return id
}

// groupOf returns a trial's label, else its parameter, named key.
func groupOf(t *trial.Trial, key string) string {
	if v, ok := t.Labels[key]; ok {
		return v
	}
	return t.Params[key]
}

// loadFrontStudy appends the trials of the --study (filtered by --where).
// With --aggregate none and neither --group-by nor --baseline, only the
// objective and SLO columns are read (Store.Columns): the fast path for
// studies of millions of trials, where a selector must name its metric and
// statistic exactly as stored.
func loadFrontStudy(o *frontOptions, q *frontQuery, d *frontData) error {
	query, err := o.store.query()
	if err != nil {
		return err
	}
	ctx := context.Background()
	s, err := openStore(ctx, &o.store)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.aggregate == "none" && o.groupBy == "" && o.baseline == "" {
		if specs, ok := columnSpecs(q); ok {
			return loadColumns(ctx, s, o, specs, query, d, len(q.objectives))
		}
	}
	ts, err := s.Trials(ctx, o.store.study, query)
	if err != nil {
		return inputError{err: err}
	}
	d.addTrials(ts, q, o)
	return nil
}

// columnSpecs maps every objective and SLO selector to a stored (metric,
// dims) column, or reports that one cannot be mapped exactly.
func columnSpecs(q *frontQuery) ([]store.ColumnSpec, bool) {
	var specs []store.ColumnSpec
	names := make([]string, 0, len(q.objectives)+len(q.slos))
	for _, o := range q.objectives {
		names = append(names, o.Name)
	}
	for _, s := range q.slos {
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

// loadColumns appends the study's trials as rows read column by column.
func loadColumns(ctx context.Context, s store.Store, o *frontOptions, specs []store.ColumnSpec, query store.Query,
	d *frontData, nObj int) error {
	cols, err := s.Columns(ctx, o.store.study, specs, query.Where)
	if err != nil {
		return inputError{err: err}
	}
	base := int32(len(d.ids))
	d.ids = append(d.ids, cols.IDs...)
	d.trials = append(d.trials, make([]*trial.Trial, len(cols.IDs))...)
	for k, col := range cols.Values {
		if k < nObj {
			d.values[k] = append(d.values[k], col...)
		} else {
			d.slo[k-nObj] = append(d.slo[k-nObj], col...)
		}
	}
	for i, why := range cols.Problems {
		d.reject(base+int32(i), "unusable ("+why+")")
	}
	return nil
}

// loadOptuna appends the complete trials of an Optuna study and adds its
// constraints (constraint_i <= 0) to the SLOs.
func loadOptuna(e *env, o *frontOptions, q *frontQuery, d *frontData) error {
	st, name, err := readOptuna(o)
	if err != nil {
		return err
	}
	for _, slo := range st.SLOs() {
		if !slices.Contains(q.slos, slo) {
			q.slos = append(q.slos, slo)
			d.slo = append(d.slo, make([]float64, len(d.ids)))
			for r := range d.ids {
				d.slo[len(d.slo)-1][r] = frontier.Missing
			}
		}
	}
	fmt.Fprintf(e.stderr, "pareto front: optuna study %s: %d complete trials, metrics %s\n", name, len(st.Trials), strings.Join(st.Metrics, ", "))
	d.addTrials(st.Trials, q, o)
	return nil
}

// readOptuna reads the --optuna study (the only one when --optuna-study
// is not given).
func readOptuna(o *frontOptions) (*optuna.Study, string, error) {
	ctx := context.Background()
	name := o.optunaStudy
	if name == "" {
		names, err := optuna.Studies(ctx, o.optuna)
		if err != nil {
			return nil, "", inputError{err: err}
		}
		if len(names) != 1 {
			return nil, "", usagef("--optuna-study is required: the storage holds %d studies (%s)", len(names), strings.Join(names, ", "))
		}
		name = names[0]
	}
	st, err := optuna.Read(ctx, o.optuna, name)
	if err != nil {
		return nil, "", inputError{err: err}
	}
	return st, name, nil
}

// optunaObjectives uses the study's own objectives and directions when no
// -o is given.
func optunaObjectives(o *frontOptions) error {
	st, _, err := readOptuna(o)
	if err != nil {
		return err
	}
	for _, obj := range st.Objectives() {
		dir := "min"
		if obj.Direction == frontier.Maximize {
			dir = "max"
		}
		o.objectives = append(o.objectives, obj.Name+":"+dir)
	}
	return nil
}
