package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/trial"
)

// point is one aggregated row: the repeats of one configuration under one
// workload in one scope (and one --group-by group).
type point struct {
	members []int32        // rows of the repeats, in input order
	spread  []decide.Stat  // per objective, over the members' values
	group   decide.Group   // the repeats as decide sees them (trials only)
	base    map[int]string // objective -> why no baseline delta, when unknown
	delta   []float64      // per objective relative delta to the baseline; nil without one
}

// aggregate replaces repeated rows by one row each holding the median (or
// mean) of the repeats, keeping the spread. Rows whose values cannot be
// compared (missing, ambiguous, NaN) are not merged: they stay rows of
// their own and are listed as invalid. Only trials whose configuration is
// recorded are merged (decide.KnownConfig: CloudAI runs, or --config-key);
// table rows are each their own configuration.
func (d *Rows) aggregate(agg decide.Aggregation, keys []string) {
	keyOf := func(r int) string {
		t := d.trials[r]
		if t == nil || !d.comparable(int32(r)) || !decide.KnownConfig(t, keys) {
			return "row\x00" + strconv.Itoa(r)
		}
		g := ""
		if d.group != nil {
			g = d.group[r]
		}
		return g + "\x00" + decide.Key(decide.Config(t, keys), decide.WorkloadOf(t))
	}
	var order []string
	rows := map[string][]int32{}
	for r := range d.ids {
		k := keyOf(r)
		if _, ok := rows[k]; !ok {
			order = append(order, k)
		}
		rows[k] = append(rows[k], int32(r))
	}
	if agg == decide.None {
		order, rows = perRow(len(d.ids))
	}
	d.points = make([]point, len(order))
	for i, k := range order {
		d.points[i] = d.newPoint(rows[k], agg, keys)
	}
	d.collapse(agg)
}

func perRow(n int) ([]string, map[string][]int32) {
	order := make([]string, n)
	rows := make(map[string][]int32, n)
	for r := range n {
		order[r] = strconv.Itoa(r)
		rows[order[r]] = []int32{int32(r)}
	}
	return order, rows
}

// comparable reports whether row r has a value on every objective and
// SLO column that the frontier can compare.
func (d *Rows) comparable(r int32) bool {
	if _, bad := d.rejected[r]; bad {
		return false
	}
	for _, col := range append(append([][]float64(nil), d.values...), d.slo...) {
		if v := col[r]; math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func (d *Rows) newPoint(members []int32, agg decide.Aggregation, keys []string) point {
	p := point{members: members, spread: make([]decide.Stat, len(d.values))}
	for o, col := range d.values {
		p.spread[o] = decide.Summarize(gather(col, members), agg)
	}
	if t := d.trials[members[0]]; t != nil {
		p.group = decide.Group{Config: decide.Config(t, keys), Scope: decide.ScopeOf(t), Workload: decide.WorkloadOf(t)}
		p.group.Key = decide.Key(p.group.Config, p.group.Workload)
		for _, m := range members {
			p.group.Trials = append(p.group.Trials, d.trials[m])
		}
	}
	return p
}

func gather(col []float64, rows []int32) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = col[r]
	}
	return out
}

// collapse rewrites the row columns so that row i is point i.
func (d *Rows) collapse(agg decide.Aggregation) {
	n := len(d.points)
	ids, trials := make([]string, n), make([]*trial.Trial, n)
	values, slo := make([][]float64, len(d.values)), make([][]float64, len(d.slo))
	for o := range values {
		values[o] = make([]float64, n)
	}
	for s := range slo {
		slo[s] = make([]float64, n)
	}
	var group []string
	if d.group != nil {
		group = make([]string, n)
	}
	rejected := map[int32]string{}
	for i, p := range d.points {
		first := p.members[0]
		ids[i], trials[i] = d.ids[first], d.trials[first]
		if group != nil {
			group[i] = d.group[first]
		}
		if why, bad := d.rejected[first]; bad {
			rejected[int32(i)] = why
		}
		for o := range values {
			values[o][i] = p.spread[o].Value
			if len(p.members) == 1 {
				values[o][i] = d.values[o][first] // keep Missing and NaN as read
			}
		}
		for s := range slo {
			slo[s][i] = aggregateSLO(d.slo[s], p.members, first, agg)
		}
	}
	d.memberIDs, d.orig, d.origSLO = d.ids, d.values, d.slo
	d.ids, d.trials, d.values, d.slo, d.group, d.rejected = ids, trials, values, slo, group, rejected
}

// aggregateSLO aggregates an SLO column over the repeats as the
// objectives are (a point's bound is checked on the value it shows).
func aggregateSLO(col []float64, members []int32, first int32, agg decide.Aggregation) float64 {
	if len(members) == 1 {
		return col[first]
	}
	return decide.Summarize(gather(col, members), agg).Value
}

// baselineDeltas marks the baseline points and gives every other point
// its relative delta to the baseline of the same group and workload. A
// baseline measured in another environment scope is refused unless
// allowCross.
func (d *Rows) baselineDeltas(spec string, allowCross bool) error {
	sel, err := decide.ParseSelection(spec)
	if err != nil {
		return &Error{Err: fmt.Errorf("--baseline: %w", err)}
	}
	var base []int
	for i := range d.points {
		if d.selects(sel, i) {
			base = append(base, i)
		}
	}
	if len(base) == 0 {
		return inputErrorf("--baseline %s selects no trial", spec)
	}
	d.baseline = base
	for i := range d.points {
		b, ok := d.baselineFor(base, i)
		if !ok {
			d.points[i].delta = nil
			continue
		}
		if err := d.sameScope(b, i, allowCross); err != nil {
			return err
		}
		p := &d.points[i]
		p.delta = make([]float64, len(d.values))
		for o := range d.values {
			p.delta[o] = decide.Delta(d.values[o][i], d.values[o][b])
		}
	}
	return nil
}

// selects reports whether point i matches the selection: for trials by
// label, parameter, workload, configuration key or trial ID; for table
// rows by id:ID.
func (d *Rows) selects(sel decide.Selection, i int) bool {
	p := &d.points[i]
	if len(p.group.Trials) == 0 {
		id, ok := strings.CutPrefix(sel.Raw, "id:")
		return ok && d.ids[i] == id
	}
	for _, t := range p.group.Trials {
		if sel.Match(&p.group, t) {
			return true
		}
	}
	return false
}

// baselineFor returns the baseline point for point i: in the same group
// and under the same workload, the newest when several match.
func (d *Rows) baselineFor(base []int, i int) (int, bool) {
	best := -1
	for _, b := range base {
		if d.group != nil && d.group[b] != d.group[i] {
			continue
		}
		if d.points[b].group.Workload != d.points[i].group.Workload {
			continue
		}
		best = b
	}
	return best, best >= 0
}

func (d *Rows) sameScope(b, i int, allowCross bool) error {
	pb, pi := &d.points[b], &d.points[i]
	if allowCross || pb.group.Scope == pi.group.Scope {
		return nil
	}
	return inputErrorf("baseline %s (%s) and %s (%s) were measured in different environments; "+
		"restrict the comparison with --where or --group-by, or pass --allow-cross-scope",
		d.ids[b], pb.group.Scope, d.ids[i], pi.group.Scope)
}

// stat returns the spread of row r on objective o (n = 1 for a single run).
func (d *Rows) stat(r int32, o int) decide.Stat {
	if d.points == nil {
		return decide.Stat{N: 1}
	}
	return d.points[r].spread[o]
}

// n returns how many runs row r aggregates.
func (d *Rows) n(r int32) int {
	if d.points == nil {
		return 1
	}
	return len(d.points[r].members)
}

// isBaseline reports whether row r is a baseline point.
func (d *Rows) isBaseline(r int32) bool {
	for _, b := range d.baseline {
		if int32(b) == r {
			return true
		}
	}
	return false
}
