package cli

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// frontData is every trial read for pareto front, column by column.
type frontData struct {
	skipped  []ingest.Skip  // inputs and runs that yielded no trial
	trials   []*trial.Trial // the trial of each row; nil for table rows
	ids      []string
	values   [][]float64 // per objective
	slo      [][]float64 // per SLO
	group    []string    // nil without --group-by
	rejected map[int32]string
	// After aggregation: points[i] describes row i; memberIDs are the ids
	// of the rows as read; baseline lists the baseline rows.
	points    []point
	memberIDs []string
	baseline  []int
}

// frontSpec lists the columns to read: objectives and SLO columns as
// numbers (each once), the id and group columns as text.
func frontSpec(o *frontOptions, q *frontQuery) (table.Spec, []int, []int) {
	var spec table.Spec
	col := func(name string) int {
		if i := slices.Index(spec.Numeric, name); i >= 0 {
			return i
		}
		spec.Numeric = append(spec.Numeric, name)
		return len(spec.Numeric) - 1
	}
	objCol := make([]int, len(q.objectives))
	for i, obj := range q.objectives {
		objCol[i] = col(obj.Name)
	}
	sloCol := make([]int, len(q.slos))
	for i, s := range q.slos {
		sloCol[i] = col(s.Name)
	}
	if o.id != "" {
		spec.Text = append(spec.Text, o.id)
	} else {
		spec.OptionalText = append(spec.OptionalText, "id")
	}
	if o.groupBy != "" {
		spec.Text = append(spec.Text, o.groupBy)
	}
	return spec, objCol, sloCol
}

// loadTrials reads every input: generic CSV/JSONL tables column by
// column, and benchmark results (files of a known format, directories,
// CloudAI trees) as trials whose objectives are resolved by selector. It
// prints one error per unreadable input to stderr and returns how many
// failed.
func loadTrials(e *env, o *frontOptions, q *frontQuery, paths []string) (*frontData, int) {
	spec, objCol, sloCol := frontSpec(o, q)
	d := &frontData{values: make([][]float64, len(q.objectives)), slo: make([][]float64, len(q.slos)),
		rejected: map[int32]string{}}
	failed := 0
	fail := func(err error) {
		fmt.Fprintf(e.stderr, "pareto front: %v\n", err)
		failed++
	}
	var bench []string
	for _, path := range paths {
		kind, data, err := sniffInput(e, path)
		switch {
		case err != nil:
			fail(err)
		case kind == inputBenchmark && data != nil:
			ts, err := ingest.ReadBytes(data, path)
			if err != nil {
				fail(err)
				continue
			}
			d.addTrials(ts, q, o)
		case kind == inputBenchmark:
			bench = append(bench, path)
		default:
			t, err := readTableBytes(data, path, spec)
			if err != nil {
				fail(err)
				continue
			}
			d.append(t, o, objCol, sloCol, len(paths) > 1)
		}
	}
	if len(bench) > 0 {
		ds, err := ingest.Load(bench, ingest.LoadOptions{})
		if err != nil {
			fail(err)
			return d, failed
		}
		for _, s := range ds.Skipped {
			if s.Code == ingest.SkipError {
				fail(fmt.Errorf("%s", s.Reason))
			}
		}
		d.skipped = append(d.skipped, ds.Skipped...)
		d.addTrials(ds.Trials, q, o)
	}
	return d, failed
}

// readTableBytes parses a table from data, or from the whole file when
// data is nil (in memory, so that large CSVs parse on every core).
func readTableBytes(data []byte, path string, spec table.Spec) (*table.Table, error) {
	if data == nil {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	return table.ReadBytes(data, path, spec)
}

func (d *frontData) append(t *table.Table, o *frontOptions, objCol, sloCol []int, several bool) {
	base := int32(len(d.ids))
	for i, c := range objCol {
		d.values[i] = appendOrTake(d.values[i], t.Num[c])
	}
	for i, c := range sloCol {
		d.slo[i] = appendOrTake(d.slo[i], t.Num[c])
	}
	// Text columns come in Spec order: Text (the --id column, then the
	// --group-by column), then OptionalText (the default id column).
	d.trials = append(d.trials, make([]*trial.Trial, t.Len())...)
	ids := t.Text[0]
	if o.groupBy != "" && o.id == "" {
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
	if o.groupBy != "" {
		g := 0
		if o.id != "" {
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
}

// groups splits the rows by group label, groups sorted by name.
func (d *frontData) groups() ([]string, [][]int32) {
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

// frontReport is what pareto front prints.
type frontReport struct {
	query    *frontQuery
	data     *frontData
	problems []*frontier.Problem
	names    []string
	results  []frontier.Result
	ranks    bool
	grouped  bool
	warnings []string
	// frontierOnly prints the frontier and the sizes of the other lists.
	frontierOnly bool
	// aggregate names how repeats were combined; baselineSpec is --baseline.
	aggregate, baselineSpec string
}

func analyzeFront(o *frontOptions, q *frontQuery, d *frontData) *frontReport {
	rep := &frontReport{query: q, data: d, ranks: o.ranks, grouped: o.groupBy != "", frontierOnly: o.frontierOnly,
		aggregate: o.aggregate, baselineSpec: o.baseline}
	if d.points == nil {
		rep.aggregate = "none"
	}
	names, rows := d.groups()
	for i, name := range names {
		p := &frontier.Problem{Objectives: q.objectives, Values: d.values, SLOs: q.slos, SLOValues: d.slo,
			Rows: rows[i], Rejected: d.rejected, Ranks: o.ranks, Reference: q.ref, AutoReference: q.autoRef}
		if p.Rows == nil {
			p.Rows = allRows(len(d.ids))
		}
		res, err := frontier.Analyze(p)
		if err != nil {
			rep.warnings = append(rep.warnings, err.Error())
			continue
		}
		rep.problems = append(rep.problems, p)
		rep.names = append(rep.names, name)
		rep.results = append(rep.results, res)
	}
	if len(rep.results) > 0 && rep.results[0].Cyclic {
		rep.warnings = append(rep.warnings, cycleWarning(q.objectives))
	}
	return rep
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

func cycleWarning(objs []frontier.Objective) string {
	return fmt.Sprintf("the noise bands allow dominance cycles (Σ s/(s+d) = %.3f > 1): trials that beat each other "+
		"around a cycle are all kept and marked noise-tied; a minimum improvement of at least %.2f%% on every objective rules cycles out",
		frontier.CycleSum(objs), math.Ceil(frontier.AcyclicMinImprove(objs)*1e4)/100)
}

// cellReason positions a cell that is not a number: file:line[:col].
func cellReason(name string, ce table.CellError) string {
	pos := fmt.Sprintf("%s:%d", name, ce.Line)
	if ce.Col > 0 {
		pos += fmt.Sprintf(":%d", ce.Col)
	}
	return fmt.Sprintf("%s: %s: %q is not a number", pos, ce.Column, ce.Text)
}

// appendOrTake appends src to dst, or takes src itself when dst is empty
// (the first input's columns are used without a copy; they are only read).
func appendOrTake[T any](dst, src []T) []T {
	if len(dst) == 0 {
		return src
	}
	return append(dst, src...)
}
