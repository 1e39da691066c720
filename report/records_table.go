package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// tableID is the column of a generic table that names its rows, the label
// ingest gives its value (ingest.LabelID).
const tableID = "id"

// TableSpec returns the columns of a generic table AddTable records: the
// metric of every column (Columns) as a number, each once, and the id
// column as text when there is one. It reports false when an axis is not
// a column alone (it matches dimensions, or is the id column): such a
// table is recorded from its trials (Add).
func (r *Records) TableSpec() (table.Spec, bool) {
	var spec table.Spec
	for _, a := range r.axes {
		if len(a.Match) > 0 || a.Metric == tableID {
			return table.Spec{}, false
		}
		if !slices.Contains(spec.Numeric, a.Metric) {
			spec.Numeric = append(spec.Numeric, a.Metric)
		}
	}
	spec.OptionalText = []string{tableID}
	return spec, true
}

// AddTable records the rows of the generic table t, read with TableSpec
// (source.TableColumns), as Add records the trials ingest makes of them
// (ingest.ReadTable: a row is a trial, named by its id column, its cells
// the measurements named by their columns), but for their IDs, which are
// hashes of every cell and are known only for the trials read again
// (PageOf): a density layer names its binned trials by their id column.
// Only rows whose every axis column holds a finite number are recorded
// this way, in a table whose axis columns are no secrets and whose
// columns (ConfigKeys, repeat.KnownConfig) make no row repeat another
// when repeats are aggregated: otherwise AddTable records nothing and
// returns false, and the table is recorded from its trials.
func (r *Records) AddTable(t *table.Table, spec table.Spec) bool {
	params := make(map[string]string, len(t.Columns))
	for _, c := range t.Columns {
		if c != tableID {
			params[c] = "0"
		}
	}
	if r.opts.Aggregate != repeat.None && repeat.KnownConfig(&trial.Trial{Params: params}, r.opts.ConfigKeys) {
		return false
	}
	col := make([]int, len(r.axes)) // the table's column of each of r's
	for c, a := range r.axes {
		if trial.IsSecretKey(a.Metric) {
			return false
		}
		col[c] = slices.Index(spec.Numeric, a.Metric)
		for _, v := range t.Num[col[c]] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	if r.measured != nil {
		for _, a := range r.axes {
			r.measured[a.Metric] = true
		}
	}
	ids := t.Text[len(spec.Text)+slices.Index(spec.OptionalText, tableID)]
	pl := place{caseID: t.Name, path: t.Name} // as CaseOf names a trial without a test case
	r.Grow(t.Len())
	for row := range t.Len() {
		i, _ := r.add("", "", "", pl, int(t.Lines[row]), row)
		if ids != nil {
			r.setName(i, trial.RedactParam(tableID, strings.TrimSpace(ids[row])))
		}
		for c, a := range r.axes {
			r.value(i, c, a, r.slo[c], trial.Measurement{Metric: a.Metric, Value: t.Num[col[c]][row]})
		}
	}
	return true
}

// setName records the name of trial i (its id label).
func (r *Records) setName(i int32, name string) {
	if name == "" {
		return
	}
	if r.name == nil {
		r.name = make([]string, 0, cap(r.id))
	}
	for int32(len(r.name)) < i {
		r.name = append(r.name, "")
	}
	r.name = append(r.name, name)
}

// nameOf returns the name of trial i ("" without one).
func (r *Records) nameOf(i int32) string {
	if int(i) < len(r.name) {
		return r.name[i]
	}
	return ""
}

// same reports whether t, read again, is trial i of the records: its ID,
// or, for a trial recorded from a table's columns (whose ID is not
// known), its place in its file.
func (r *Records) same(i int, t *Trial) bool {
	if r.id[i] != "" {
		return t.ID == r.id[i]
	}
	pl := &r.places[r.place[i]]
	return t.Source.Path == pl.path && t.Source.Index == int(r.index[i]) && t.Source.Line == int(r.line[i]) &&
		t.Labels[tableID] == r.nameOf(int32(i))
}

// describe names trial i in a message: its ID, else its place.
func (r *Records) describe(i int) string {
	if r.id[i] != "" {
		return r.id[i]
	}
	return fmt.Sprintf("%s:%d", r.places[r.place[i]].path, r.line[i])
}
