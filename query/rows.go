package query

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// Rows is every trial or table row read for a query, column by column:
// per objective and SLO its value in each row. Fill it with AddTrials,
// AddTable and AddColumns, then Run.
type Rows struct {
	q        *Query
	skipped  []trial.Skip   // inputs and runs that yielded no trial
	trials   []*trial.Trial // the trial of each row (trialAt): rows past its end have none
	ids      []string
	values   [][]float64 // per objective
	slo      [][]float64 // per SLO
	group    []string    // nil without --group-by
	rejected map[int32]string
	// After aggregation: points[i] describes row i; memberIDs are the ids
	// of the rows as read; baseline lists the baseline rows.
	points    []point
	memberIDs []string
	// memberRows lists the rows of every point (points[i].first, n);
	// spreads the spread of every point of several rows (points[i].spread).
	memberRows []int32
	spreads    []repeat.Stat
	baseline   []int
	// orig and origSLO are the columns of the rows as read.
	orig, origSLO [][]float64
	origTrials    []*trial.Trial
	warnings      []string       // from combining repeats and the baseline
	seen          map[string]int // display ids given so far (seenIDs)
	// unseen are the ids of streamed rows that seen does not count yet
	// (TrialStream.Done: unique by construction).
	unseen []string
	// keys holds the repeat keys of rows streamed without their trial
	// (TrialStream): noKey for a row that repeats no other, notKeyed for
	// the rows before them, which have their trial; rows after the last
	// streamed one have no entry.
	keys      []string
	keyMemo   repeat.KeyMemo // computes repeat keys
	described bool           // describeGroups ran
	several   bool           // several inputs: table rows are FILE:ROW
}

// SetInputs tells how many inputs the rows come from: table rows without
// an id are named ROW for one input, FILE:ROW for several.
func (d *Rows) SetInputs(n int) { d.several = n > 1 }

// NewRows returns empty rows for q. q's SLOs may still grow (AddSLO)
// until rows are added.
func NewRows(q *Query) *Rows {
	d := &Rows{q: q, values: make([][]float64, len(q.Objectives)), slo: make([][]float64, len(q.SLOs)),
		rejected: map[int32]string{}, seen: map[string]int{}}
	return d
}

// Grow makes room for n more rows.
func (d *Rows) Grow(n int) {
	d.ids, d.trials, d.keys = slices.Grow(d.ids, n), slices.Grow(d.trials, n), slices.Grow(d.keys, n)
	for c := range d.values {
		d.values[c] = slices.Grow(d.values[c], n)
	}
	for c := range d.slo {
		d.slo[c] = slices.Grow(d.slo[c], n)
	}
	if d.q.GroupBy != "" {
		d.group = slices.Grow(d.group, n)
	}
}

// trialAt returns ts[r], or nil past the end of ts: rows without a trial
// (table and column rows) take no entry, 8 bytes a row fewer at 10⁶ rows.
func trialAt(ts []*trial.Trial, r int32) *trial.Trial {
	if int(r) < len(ts) {
		return ts[r]
	}
	return nil
}

// setTrial gives row r (the last row added) its trial.
func (d *Rows) setTrial(r int32, t *trial.Trial) {
	for int32(len(d.trials)) < r {
		d.trials = append(d.trials, nil)
	}
	d.trials = append(d.trials, t)
}

// Len returns the number of rows.
func (d *Rows) Len() int { return len(d.ids) }

// Skip records inputs that yielded no trial (listed in the result).
func (d *Rows) Skip(s ...trial.Skip) { d.skipped = append(d.skipped, s...) }

// AddSLO appends a bound (Optuna's constraints, say) unless the query has
// it; rows read before it have no value for it.
func (d *Rows) AddSLO(slo frontier.SLO) {
	if slices.Contains(d.q.SLOs, slo) {
		return
	}
	d.q.SLOs = append(d.q.SLOs, slo)
	col := make([]float64, len(d.ids))
	for r := range col {
		col[r] = frontier.Missing
	}
	d.slo = append(d.slo, col)
}

// TableSpec lists the columns of a generic table a query reads: the
// objective and SLO columns as numbers (each once), the id and group
// columns as text. AddTable takes tables read with it.
func (q *Query) TableSpec() table.Spec {
	spec, _, _ := q.tableSpec()
	return spec
}

func (q *Query) tableSpec() (table.Spec, []int, []int) {
	var spec table.Spec
	col := func(name string) int {
		if i := slices.Index(spec.Numeric, name); i >= 0 {
			return i
		}
		spec.Numeric = append(spec.Numeric, name)
		return len(spec.Numeric) - 1
	}
	objCol := make([]int, len(q.Objectives))
	for i, obj := range q.Objectives {
		objCol[i] = col(obj.Name)
	}
	sloCol := make([]int, len(q.SLOs))
	for i, s := range q.SLOs {
		sloCol[i] = col(s.Name)
	}
	if q.ID != "" {
		spec.Text = append(spec.Text, q.ID)
	} else {
		spec.OptionalText = append(spec.OptionalText, "id")
	}
	if q.GroupBy != "" {
		spec.Text = append(spec.Text, q.GroupBy)
	}
	return spec, objCol, sloCol
}

// AddTable appends the rows of a table read with q.TableSpec(); rows
// without an id column are named ROW, or FILE:ROW when there are several
// inputs (SetInputs).
func (d *Rows) AddTable(t *table.Table) {
	several := d.several
	o := d.q
	_, objCol, sloCol := o.tableSpec()
	base := int32(len(d.ids))
	for i, c := range objCol {
		d.values[i] = appendOrTake(d.values[i], t.Num[c])
	}
	for i, c := range sloCol {
		d.slo[i] = appendOrTake(d.slo[i], t.Num[c])
	}
	// Text columns come in Spec order: Text (the --id column, then the
	// --group-by column), then OptionalText (the default id column).
	ids := t.Text[0]
	if o.GroupBy != "" && o.ID == "" {
		ids = t.Text[1]
	}
	if ids != nil {
		d.ids = appendOrTake(d.ids, ids)
	}
	for r := range t.Len() {
		switch {
		case ids != nil:
		case several:
			d.ids = append(d.ids, t.Name+":"+strconv.Itoa(r+1))
		default:
			d.ids = append(d.ids, strconv.Itoa(r+1))
		}
	}
	if o.GroupBy != "" {
		g := 0
		if o.ID != "" {
			g = 1
		}
		d.group = append(d.group, t.Text[g]...)
	}
	for _, ce := range t.CellErrors {
		r := base + int32(ce.Row)
		if _, dup := d.rejected[r]; !dup {
			d.rejected[r] = cellReason(t.Name, ce)
		}
	}
	for i, c := range objCol {
		d.rejectNegative(o.Objectives[i].Name, t.Num[c], base, func(r int) string { return fmt.Sprintf("%s:%d", t.Name, t.Lines[r]) })
	}
	for i, c := range sloCol {
		d.rejectNegative(o.SLOs[i].Name, t.Num[c], base, func(r int) string { return fmt.Sprintf("%s:%d", t.Name, t.Lines[r]) })
	}
}

// rejectNegative rejects the rows from base holding a negative value of
// vs in the column name when it holds a latency, a throughput or a count
// (trial.NonNegativeColumn); at(r) positions row base+r.
func (d *Rows) rejectNegative(name string, vs []float64, base int32, at func(r int) string) {
	if !trial.NonNegativeColumn(name) {
		return
	}
	for r, v := range vs {
		if v < 0 {
			d.reject(base+int32(r), negativeReason(at(r), name, v))
		}
	}
}

// negativeReason says why a row with the negative value v of column name
// is invalid.
func negativeReason(pos, name string, v float64) string {
	return fmt.Sprintf("%s: %s: value %s is negative (a latency, throughput or count cannot be)", pos, name, trial.FormatFloat(v))
}

// groups splits the rows by group label, groups sorted by name.
func (d *Rows) groups() ([]string, [][]int32) {
	if d.group == nil {
		return []string{""}, [][]int32{nil}
	}
	byName := map[string][]int32{}
	for r, g := range d.group {
		byName[g] = append(byName[g], int32(r))
	}
	names := make([]string, 0, len(byName))
	for g := range byName {
		names = append(names, g)
	}
	slices.Sort(names)
	rows := make([][]int32, len(names))
	for i, g := range names {
		rows[i] = byName[g]
	}
	return names, rows
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// cellReason positions a cell that is not a number: file:line[:col].
func cellReason(name string, ce table.CellError) string {
	pos := fmt.Sprintf("%s:%d", name, ce.Line)
	if ce.Col > 0 {
		pos += fmt.Sprintf(":%d", ce.Col)
	}
	return fmt.Sprintf("%s: %s: %q is not a number", pos, ce.Column, trial.Excerpt(ce.Text))
}

// appendOrTake appends src to dst, or takes src itself when dst is empty
// (the first input's columns are used without a copy; they are only read).
func appendOrTake[T any](dst, src []T) []T {
	if len(dst) == 0 {
		return src
	}
	return append(dst, src...)
}
