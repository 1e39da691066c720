package query

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// AddTrials appends trials as rows, resolving each objective and SLO
// selector; a trial whose selector matches no measurement, or several, is
// rejected with the reason and the candidates. A trial is named by the
// query's ID label or parameter, its "id" label (a table row's id), its
// CloudAI point, else its file (with the line or index when the file holds
// several trials).
func (d *Rows) AddTrials(ts []trial.Trial) {
	q := d.q
	objSel := selectors(q.Objectives)
	sloSel := make([]selectorOrErr, len(q.SLOs))
	for i, s := range q.SLOs {
		sloSel[i] = parseSel(s.Name)
	}
	perFile := map[string]int{}
	for i := range ts {
		perFile[ts[i].Source.Path]++
	}
	for i := range ts {
		t := &ts[i]
		row := int32(len(d.ids))
		d.ids = append(d.ids, uniqueID(d.displayID(t, q.ID, perFile[t.Source.Path] > 1), d.seen))
		d.trials = append(d.trials, t)
		for c, sel := range objSel {
			d.values[c] = append(d.values[c], d.resolve(row, t, sel))
		}
		for c, sel := range sloSel {
			d.slo[c] = append(d.slo[c], d.resolve(row, t, sel))
		}
		if q.GroupBy != "" {
			d.group = append(d.group, groupOf(t, q.GroupBy))
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
func (d *Rows) resolve(row int32, t *trial.Trial, s selectorOrErr) float64 {
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

func (d *Rows) reject(row int32, why string) {
	if _, dup := d.rejected[row]; !dup {
		d.rejected[row] = why
	}
}

// displayID names a trial for people: the CloudAI point, else the file
// (with the line or index when a file holds several trials).
func (d *Rows) displayID(t *trial.Trial, idKey string, several bool) string {
	if idKey != "" {
		if v, ok := t.Labels[idKey]; ok && v != "" {
			return v
		}
		if v, ok := t.Params[idKey]; ok && v != "" {
			return v
		}
	}
	if r := t.Labels["id"]; r != "" {
		return r
	}
	if r := t.Labels["run"]; r != "" {
		return r
	}
	if t.Source.Format == "table" { // as AddTable names a row without an id
		row := strconv.Itoa(t.Source.Index + 1)
		if d.several {
			return t.Source.Path + ":" + row
		}
		return row
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

// AddColumns appends rows read column by column (a store's Columns): ids,
// one column per objective then per SLO, and why a row is unusable.
func (d *Rows) AddColumns(ids []string, cols [][]float64, problems map[int]string) {
	base := int32(len(d.ids))
	nObj := len(d.values)
	d.ids = append(d.ids, ids...)
	d.trials = append(d.trials, make([]*trial.Trial, len(ids))...)
	for k, col := range cols {
		if k < nObj {
			d.values[k] = append(d.values[k], col...)
		} else {
			d.slo[k-nObj] = append(d.slo[k-nObj], col...)
		}
	}
	for i, why := range problems {
		d.reject(base+int32(i), "unusable ("+why+")")
	}
}

// AddValues appends one row whose objective and SLO values the caller
// resolved itself (the report resolves axes in a point's context), named
// id; reject, when not empty, says why the row cannot be compared.
func (d *Rows) AddValues(t *trial.Trial, id string, values, slo []float64, reject string) {
	row := int32(len(d.ids))
	d.ids = append(d.ids, uniqueID(id, d.seen))
	d.trials = append(d.trials, t)
	for c := range d.values {
		d.values[c] = append(d.values[c], values[c])
	}
	for c := range d.slo {
		d.slo[c] = append(d.slo[c], slo[c])
	}
	if d.q.GroupBy != "" {
		g := ""
		if t != nil {
			g = groupOf(t, d.q.GroupBy)
		}
		d.group = append(d.group, g)
	}
	if reject != "" {
		d.reject(row, reject)
	}
}
