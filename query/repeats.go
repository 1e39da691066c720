package query

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// point is one aggregated row: the repeats of one configuration under one
// workload in one scope (and one --group-by group).
type point struct {
	// first and n place the rows of the repeats, in input order, in
	// Rows.memberRows (Rows.members); spread is where the point's spread
	// (one Stat per objective, over their values) starts in Rows.spreads,
	// -1 for a single row (Rows.stat computes it).
	first, n, spread int32
	group            *repeat.Group // the repeats as decide sees them (nil without trials)
	cmp              *baseCmp      // nil without a baseline
}

// baseCmp is how a point compares with the baseline: base is the
// baseline it is compared with (nil without one, and why says why); delta
// the relative delta on each objective.
type baseCmp struct {
	base  *Base
	why   string
	delta []float64
}

// compared returns p's comparison with the baseline, made on first use.
func (p *point) compared() *baseCmp {
	if p.cmp == nil {
		p.cmp = &baseCmp{}
	}
	return p.cmp
}

// baseline returns p's comparison with the baseline (zero without one).
func (p *point) baseline() baseCmp {
	if p.cmp == nil {
		return baseCmp{}
	}
	return *p.cmp
}

// aggregate replaces repeated rows by one row each holding the median (or
// mean) of the repeats, keeping the spread. Rows whose values cannot be
// compared (missing, ambiguous, NaN) are not merged: they stay rows of
// their own and are listed as invalid. Only trials whose configuration is
// recorded are merged (repeat.KnownConfig: CloudAI runs, or --config-key);
// table rows are each their own configuration.
func (d *Rows) aggregate(agg repeat.Aggregation, keys []string) {
	// group[r] is the point of row r, the points numbered in the order of
	// their first rows; a row that cannot repeat another is a point of its
	// own, without a key. The members of every point are then laid out in
	// one array, in input order, each point's capped so that nothing
	// appends to it.
	group := make([]int32, len(d.ids))
	sizes := make([]int32, 0, len(d.ids)) // at most a point a row
	index := map[string]int32{}
	for r := range d.ids {
		key, ok := "", false
		if agg != repeat.None {
			key, ok = d.repeatKey(r, keys)
		}
		if ok {
			if g, seen := index[key]; seen {
				group[r] = g
				sizes[g]++
				continue
			}
			index[key] = int32(len(sizes))
		}
		group[r] = int32(len(sizes))
		sizes = append(sizes, 1)
	}
	index = nil
	next := make([]int32, len(sizes)) // where the point's next member goes
	off := int32(0)
	for g, n := range sizes {
		next[g], off = off, off+n
	}
	members := make([]int32, len(d.ids))
	for r, g := range group {
		members[next[g]] = int32(r)
		next[g]++
	}
	// Only points of several rows keep their spread (a single row's is
	// computed when asked, see stat): 10⁶ runs without repeats keep none.
	several := 0
	for _, n := range sizes {
		if n > 1 {
			several++
		}
	}
	nv := int32(len(d.values))
	d.memberRows, d.spreads = members, make([]repeat.Stat, int32(several)*nv)
	d.points = make([]point, len(sizes))
	at := int32(0) // the next point of several rows' spread
	for g, n := range sizes {
		spread := int32(-1)
		if n > 1 {
			spread, at = at, at+nv
		}
		d.points[g] = d.newPoint(next[g]-n, n, spread, agg) // next[g] is one past its last member now
	}
	d.collapse(agg)
}

// members returns the rows point i aggregates, in input order.
func (d *Rows) members(i int32) []int32 {
	p := &d.points[i]
	return d.memberRows[p.first : p.first+p.n : p.first+p.n]
}

// repeatKey returns the key that row r shares with its repeats, and false
// when r repeats no other row: a table row, a row that cannot be compared,
// or a trial that does not record its configuration.
func (d *Rows) repeatKey(r int, keys []string) (string, bool) {
	key := notKeyed
	if r < len(d.keys) {
		key = d.keys[r]
	}
	if key == noKey || !d.comparable(int32(r)) {
		return "", false
	}
	if key == notKeyed {
		t := trialAt(d.trials, int32(r))
		if t == nil {
			return "", false
		}
		k, ok := d.keyMemo.Key(t, keys)
		if !ok {
			return "", false
		}
		key = k
	}
	if d.group == nil {
		return key, true // no group to tell apart: no concatenation per row
	}
	return d.group[r] + "\x00" + key, true
}

// comparable reports whether row r has a value on every objective and
// SLO column that the frontier can compare.
func (d *Rows) comparable(r int32) bool {
	if _, bad := d.rejected[r]; bad {
		return false
	}
	for _, cols := range [2][][]float64{d.values, d.slo} {
		for _, col := range cols {
			if v := col[r]; math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// newPoint returns the point of the n rows at first in memberRows, its
// spread (one Stat per objective) written at spread in spreads: -1 for a
// single row, whose spread stat computes.
func (d *Rows) newPoint(first, n, spread int32, agg repeat.Aggregation) point {
	p := point{first: first, n: n, spread: spread}
	members := d.memberRows[first : first+n : first+n]
	if spread >= 0 {
		for o := range d.values {
			d.spreads[spread+int32(o)] = repeat.Summarize(gather(d.values[o], members), agg)
		}
	}
	if t := trialAt(d.trials, members[0]); t != nil {
		// The group's configuration, scope and workload are filled by
		// describeGroups when a baseline or pick needs them.
		p.group = &repeat.Group{Newest: int(members[len(members)-1])}
		if len(members) == 1 {
			m := members[0]
			p.group.Trials = d.trials[m : m+1 : m+1]
		} else {
			for _, m := range members {
				p.group.Trials = append(p.group.Trials, trialAt(d.trials, m))
			}
		}
	}
	return p
}

// describeGroups fills every point's configuration, scope, workload and
// repeat key (repeat.Group), once: only a baseline and pick use them.
func (d *Rows) describeGroups() {
	if d.described {
		return
	}
	d.described = true
	for i := range d.points {
		g := d.points[i].group
		if g == nil {
			continue
		}
		t := g.Trials[0]
		g.Config, g.Scope, g.Workload = configOf(t, d.q.ConfigKeys), repeat.ScopeOf(t), repeat.WorkloadOf(t)
		g.Key = repeat.Key(g.Config, g.Workload)
	}
}

// configOf is t's configuration key: repeat.Config when t records its
// configuration (repeat.KnownConfig), else a key of the run alone, which
// is then never taken for another configuration (a baseline selected by
// one vLLM run is that run, not every run with the same client settings).
func configOf(t *trial.Trial, keys []string) string {
	if repeat.KnownConfig(t, keys) || len(t.ID) < repeat.KeyLength {
		return repeat.Config(t, keys)
	}
	return t.ID[:repeat.KeyLength]
}

func gather(col []float64, rows []int32) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = col[r]
	}
	return out
}

// collapse rewrites the row columns so that row i is point i. When no
// rows were merged, point i is row i and the columns are kept as they are,
// the rows as read being the same columns (nothing writes to them after).
func (d *Rows) collapse(agg repeat.Aggregation) {
	n := len(d.points)
	if n == len(d.ids) {
		d.memberIDs, d.orig, d.origSLO, d.origTrials = d.ids, d.values, d.slo, d.trials
		return
	}
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
		members := d.members(int32(i))
		first := members[0]
		ids[i], trials[i] = d.ids[first], trialAt(d.trials, first)
		if group != nil {
			group[i] = d.group[first]
		}
		if why, bad := d.rejected[first]; bad {
			rejected[int32(i)] = why
		}
		for o := range values {
			if p.n == 1 {
				values[o][i] = d.values[o][first] // keep Missing and NaN as read
			} else {
				values[o][i] = d.spreads[p.spread+int32(o)].Value
			}
		}
		for s := range slo {
			slo[s][i] = aggregateSLO(d.slo[s], members, first, agg)
		}
	}
	d.memberIDs, d.orig, d.origSLO, d.origTrials = d.ids, d.values, d.slo, d.trials
	d.ids, d.trials, d.values, d.slo, d.group, d.rejected = ids, trials, values, slo, group, rejected
}

// aggregateSLO aggregates an SLO column over the repeats as the
// objectives are (a point's bound is checked on the value it shows).
func aggregateSLO(col []float64, members []int32, first int32, agg repeat.Aggregation) float64 {
	if len(members) == 1 {
		return col[first]
	}
	return repeat.Summarize(gather(col, members), agg).Value
}

// baselineDeltas compares every point with the baseline of its group
// (--group-by) measured at the point's workload (repeat.BaselineAt: the
// newest selected point measured there in the point's environment scope).
// A baseline measured at that workload only in another scope is refused
// (a *repeat.ScopeError) unless allowCross, which compares with it and
// warns; a point whose workload the baseline was never measured at gets no
// delta and the reason. A baseline that selects no point is an error.
func (d *Rows) baselineDeltas(spec string, allowCross bool) error {
	sel, err := repeat.ParseSelection(spec)
	if err != nil {
		return &Error{Err: &field.Error{Field: "baseline", Err: err}}
	}
	d.describeGroups()
	names, rows := d.groups()
	found := false
	for g := range names {
		pts := rows[g]
		if pts == nil {
			pts = allRows(len(d.points))
		}
		ok, err := d.groupBaseline(sel, pts, allowCross)
		if err != nil {
			return err
		}
		found = found || ok
	}
	if !found && !d.q.BaselineMayBeAbsent {
		return &Error{Err: &field.Error{Field: "baseline", Value: spec, Reason: "selects no trial"}}
	}
	return nil
}

// groupBaseline grounds the points pts of one group; ok is false when the
// baseline is not among them.
func (d *Rows) groupBaseline(sel repeat.Selection, pts []int32, allowCross bool) (bool, error) {
	// The decide groups are the points' repeat keys: a baseline run on which
	// an objective does not resolve is a point of its own (invalid), but
	// still part of the baseline, measured on the other objectives.
	var groups []repeat.Group
	var pointsOf [][]int32
	index := map[string]int{}
	for _, i := range pts {
		p := &d.points[i]
		if p.group == nil {
			continue
		}
		k, ok := index[p.group.Key]
		if !ok {
			k = len(groups)
			index[p.group.Key] = k
			g := *p.group
			g.Trials = nil
			groups, pointsOf = append(groups, g), append(pointsOf, nil)
		}
		g := &groups[k]
		g.Trials = append(g.Trials, p.group.Trials...)
		g.Newest = max(g.Newest, p.group.Newest)
		pointsOf[k] = append(pointsOf[k], i)
	}
	selected := repeat.Select(groups, sel)
	if len(selected) == 0 {
		for _, i := range pts {
			d.points[i].compared().why = baselineAbsent(sel.Raw)
		}
		return false, nil
	}
	bases := map[*repeat.Group]*Base{}
	warned := map[[2]repeat.Scope]bool{}
	warnedScope := map[repeat.Scope]bool{}
	for _, i := range pts {
		p := &d.points[i]
		if p.group == nil {
			p.compared().why = "a table row without a trial"
			continue
		}
		bg, cross, err := repeat.BaselineAt(selected, p.group.Scope, p.group.Workload, allowCross)
		var se *repeat.ScopeError
		if errors.As(err, &se) && d.q.BaselineScopeAsReason {
			p.compared().why = fmt.Sprintf("the baseline %s at %s: %v; %s compares with it", sel.Raw, p.group.Workload, se, d.q.Fields.Name("allow_cross_scope"))
			if !warnedScope[p.group.Scope] {
				warnedScope[p.group.Scope] = true
				d.warnings = append(d.warnings, fmt.Sprintf("points measured in %s have no delta: the baseline %s was measured only in another environment (%v); %s compares with it",
					p.group.Scope, sel.Raw, se, d.q.Fields.Name("allow_cross_scope")))
			}
			continue
		}
		if err != nil {
			what := fmt.Sprintf("%s (%s) and the baseline %s at %s: %v", d.ids[i], p.group.Scope, sel.Raw, p.group.Workload, err)
			return true, &Error{Err: &field.Error{Field: "baseline", Named: true, Err: err, Others: []string{"where", "group_by", "allow_cross_scope"},
				Reason: strings.ReplaceAll(what, "%", "%%") + "; restrict the comparison with %s or %s, or pass %s"}}
		}
		if bg == nil {
			p.compared().why = fmt.Sprintf("the baseline %s was not measured at workload %s", sel.Raw, p.group.Workload)
			continue
		}
		if k := [2]repeat.Scope{p.group.Scope, bg.Scope}; cross && !warned[k] {
			warned[k] = true
			d.warnings = append(d.warnings, fmt.Sprintf("points measured in %s are compared with the baseline %s measured in %s (cross-scope comparison allowed)",
				p.group.Scope, sel.Raw, bg.Scope))
		}
		base, ok := bases[bg]
		if !ok {
			base = d.measureBase(bg, pointsOf[index[bg.Key]])
			bases[bg] = base
			if base.Point >= 0 && !slices.Contains(d.baseline, int(base.Point)) {
				d.baseline = append(d.baseline, int(base.Point))
			}
		}
		c := p.compared()
		c.base = base
		c.delta = make([]float64, len(d.values))
		for o := range d.values {
			c.delta[o] = repeat.Delta(d.values[o][i], base.Values[o])
		}
	}
	slices.Sort(d.baseline)
	return true, nil
}

// Base is the baseline a point is compared with: one configuration's runs
// at the point's workload.
type Base struct {
	// Point is the baseline's point among the result's points, -1 when
	// none of its runs can be compared on every objective.
	Point int32
	// Values holds, per objective, the aggregate of the baseline's runs on
	// which that objective resolves (NaN when none does; Why then says
	// why), and N how many runs that is. Without aggregation the newest
	// run alone is the baseline.
	Values []float64
	N      []int
	Why    []string
	// IDs are the trial IDs of the baseline's runs.
	IDs []string
	// Workload and Scope are where the baseline was measured.
	Workload repeat.Workload
	Scope    repeat.Scope
}

// measureBase measures the baseline group g, whose points are pts.
func (d *Rows) measureBase(g *repeat.Group, pts []int32) *Base {
	b := &Base{Point: -1, Workload: g.Workload, Scope: g.Scope, Values: make([]float64, len(d.values)),
		N: make([]int, len(d.values)), Why: make([]string, len(d.values))}
	var rows []int32
	for _, i := range pts {
		if _, bad := d.rejected[i]; !bad && (b.Point < 0 || d.points[i].n > d.points[b.Point].n) {
			b.Point = i
		}
		rows = append(rows, d.members(i)...)
	}
	slices.Sort(rows)
	if d.q.Aggregate == repeat.None {
		rows = rows[len(rows)-1:]
		b.Point = -1
		for _, i := range pts {
			if d.members(i)[0] == rows[0] {
				if _, bad := d.rejected[i]; !bad {
					b.Point = i
				}
			}
		}
	}
	for _, r := range rows {
		b.IDs = append(b.IDs, trialAt(d.origTrials, r).ID)
	}
	for o := range d.values {
		var vs []float64
		for _, r := range rows {
			if v := d.orig[o][r]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				vs = append(vs, v)
			} else if b.Why[o] == "" {
				b.Why[o] = d.rowReason(r)
			}
		}
		b.N[o] = len(vs)
		b.Values[o] = repeat.Summarize(vs, d.q.Aggregate).Value
		if len(vs) > 0 {
			b.Why[o] = ""
		}
	}
	return b
}

// rowReason says why input row r has no value (its point's rejection).
func (d *Rows) rowReason(r int32) string {
	for i := range d.points {
		if slices.Contains(d.members(int32(i)), r) {
			if why, bad := d.rejected[int32(i)]; bad {
				return why
			}
		}
	}
	return "no value"
}

// stat returns the spread of row r on objective o (n = 1 for a single run).
func (d *Rows) stat(r int32, o int) repeat.Stat {
	if d.points == nil {
		return repeat.Stat{N: 1}
	}
	p := &d.points[r]
	if p.spread < 0 { // a single row (d.orig holds the rows as read)
		return repeat.Summarize(gather(d.orig[o], d.members(r)), d.q.Aggregate)
	}
	return d.spreads[p.spread+int32(o)]
}

// n returns how many runs row r aggregates.
func (d *Rows) n(r int32) int {
	if d.points == nil {
		return 1
	}
	return int(d.points[r].n)
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
