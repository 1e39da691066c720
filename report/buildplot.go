package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
)

// resolved holds one plot's values for a trial.
type resolved struct {
	// x and y hold what did resolve (NaN otherwise: a baseline is
	// measured on the axes that resolve on it), xs and ys index
	// PagePlot.Sels.
	x, y   float64
	xs, ys int16
	// ok says every axis and SLO resolved; tried that the trial is usable
	// and selected by one of the plot's frontiers.
	ok, tried bool
}

// plotValues are the values of one plot for every trial.
type plotValues struct {
	v   []resolved
	why map[int32]string // why an axis or SLO of a trial tried did not resolve
	col int              // the plot's first column in the records
}

// slo returns the SLO values of trial i, which resolved: those the
// records hold.
func (b *builder) slo(pv *plotValues, i, n int) []float64 {
	k := i*b.recs.ncol + pv.col + 2
	return b.recs.values[k : k+n : k+n]
}

// plot builds chart pi.
func (b *builder) plot(pi int) (PagePlot, error) {
	p := &b.cfg.Plots[pi]
	pp := PagePlot{Name: p.Name, X: axisInfo(&p.X), Y: axisInfo(&p.Y)}
	for _, s := range p.SLOs {
		pp.SLOs = append(pp.SLOs, s.slo().String())
		pp.Bounds = append(pp.Bounds, SLOBound{Label: s.Label(), Unit: s.Unit, Op: s.Op.String(), Bound: s.Bound})
	}
	sels := map[int32]int16{} // by Records.selNames
	sel := func(s int32) int16 {
		if i, ok := sels[s]; ok {
			return i
		}
		sels[s] = int16(len(pp.Sels))
		pp.Sels = append(pp.Sels, b.recs.selNames[s])
		return sels[s]
	}
	vals := &plotValues{v: make([]resolved, b.recs.Len()), why: map[int32]string{}, col: b.recs.cols[pi]}
	for i := range vals.v {
		if !b.usable[i] || !slices.ContainsFunc(p.Frontiers, func(f FrontierSpec) bool { return b.selects(&f, i) }) {
			continue
		}
		vals.v[i] = b.resolveAll(p, vals, i, sel)
	}
	for fi := range p.Frontiers {
		for _, g := range b.groups(p, &p.Frontiers[fi], vals) {
			s, cyclic, err := b.series(p, g, vals)
			if err != nil {
				return pp, fmt.Errorf("plot %q, frontier %q: %w", p.Name, g.name, err)
			}
			pp.Cyclic = pp.Cyclic || cyclic
			pp.Series = append(pp.Series, s)
		}
	}
	return pp, nil
}

// resolveAll resolves both axes and the SLOs of trial i, recording in
// pv why one does not resolve.
func (b *builder) resolveAll(p *Plot, pv *plotValues, i int, sel func(int32) int16) resolved {
	r := resolved{tried: true, x: math.NaN(), y: math.NaN()}
	vx, sx, okx := b.axisValue(p, pv.col, "x", i)
	vy, sy, oky := b.axisValue(p, pv.col+1, "y", i)
	if okx {
		r.x = vx
	}
	if oky {
		r.y = vy
	}
	if !okx || !oky {
		pv.why[int32(i)] = b.lastExclusion()
		return r
	}
	r.xs, r.ys = sel(sx), sel(sy)
	for si := range p.SLOs {
		if _, _, ok := b.axisValue(p, pv.col+2+si, "slo "+p.SLOs[si].Label(), i); !ok {
			pv.why[int32(i)] = b.lastExclusion()
			return r
		}
	}
	r.ok = true
	return r
}

// lastExclusion renders the reason of the exclusion recorded last.
func (b *builder) lastExclusion() string {
	x := b.page.Exclusions[len(b.page.Exclusions)-1]
	if len(x.Candidates) > 0 {
		return x.Reason + " (candidates: " + strings.Join(x.Candidates, ", ") + ")"
	}
	return x.Reason
}

// group is the trials of one series.
type group struct {
	name string
	// key is the group_by value ("" without group_by).
	key  string
	rows []int
}

// groups splits a frontier's resolved trials by the plot's group_by.
func (b *builder) groups(p *Plot, f *FrontierSpec, pv *plotValues) []group {
	vals := pv.v
	var order []string
	byKey := map[string]*group{}
	for i := range vals {
		if !vals[i].ok || !b.selects(f, i) {
			continue
		}
		key := ""
		if p.GroupBy != "" {
			key = b.groupValue(i, p.GroupBy)
		}
		g, ok := byKey[key]
		if !ok {
			name := f.Name
			if p.GroupBy != "" {
				name = fmt.Sprintf("%s · %s=%s", f.Name, p.GroupBy, key)
			}
			g = &group{name: name, key: key}
			byKey[key] = g
			order = append(order, key)
		}
		g.rows = append(g.rows, i)
	}
	if len(order) == 0 {
		return []group{{name: f.Name}}
	}
	// Trials on which an axis does not resolve are excluded already; they
	// join their group's query only so that a baseline among them is
	// measured on the axes that do resolve.
	for i := range vals {
		if !vals[i].tried || vals[i].ok || !b.selects(f, i) {
			continue
		}
		key := ""
		if p.GroupBy != "" {
			key = b.groupValue(i, p.GroupBy)
		}
		if g, ok := byKey[key]; ok {
			g.rows = append(g.rows, i)
		}
	}
	out := make([]group, 0, len(order))
	for _, k := range order {
		g := byKey[k]
		slices.Sort(g.rows)
		out = append(out, *g)
	}
	return out
}

// groupValue returns a label or parameter value, "(none)" when absent.
func (b *builder) groupValue(i int, key string) string {
	t := &b.trials[i]
	if v, ok := t.Labels[key]; ok {
		return v
	}
	if v, ok := t.Params[key]; ok {
		return v
	}
	if key == "case" || key == "test_case" {
		return CaseOf(t)
	}
	return "(none)"
}

// series aggregates the repeats of one frontier group and computes its
// frontier through the query pipeline (package query), as pareto front
// does: the same repeat identity, the same aggregation of objectives and
// SLO columns, the same frontier.
func (b *builder) series(p *Plot, g group, pv *plotValues) (Series, bool, error) {
	vals := pv.v
	q := &query.Query{Objectives: []frontier.Objective{p.X.Objective(), p.Y.Objective()},
		Aggregate: b.opts.Aggregate, ConfigKeys: b.opts.ConfigKeys, AllowCrossScope: b.opts.AllowCrossScope, Fields: b.opts.Fields,
		BaselineMayBeAbsent: true, BaselineScopeAsReason: true}
	if b.opts.Baseline != nil {
		q.Baseline = b.opts.Baseline.Raw
	}
	for _, slo := range p.SLOs {
		q.SLOs = append(q.SLOs, slo.slo())
	}
	rows := query.NewRows(q)
	rows.Grow(len(g.rows))
	for _, i := range g.rows {
		var slo []float64
		why := ""
		if vals[i].ok {
			slo = b.slo(pv, i, len(p.SLOs))
		} else {
			slo, why = make([]float64, len(p.SLOs)), pv.why[int32(i)]
			for k := range slo {
				slo[k] = math.NaN()
			}
		}
		rows.AddValuesKey(b.trial(i), b.pointName(i), b.recs.key[i], []float64{vals[i].x, vals[i].y}, slo, why)
	}
	s := Series{Name: g.name, Line: []int32{}}
	if len(g.rows) == 0 {
		s.X, s.Y, s.P, s.XS, s.YS, s.S, s.T, s.By = []float64{}, []float64{}, []int32{}, []int16{}, []int16{}, []int8{}, []int8{}, []int32{}
		return s, false, nil
	}
	res, err := query.Run(q, rows)
	if err != nil {
		return s, false, err
	}
	n := res.Len()
	s.X, s.Y, s.P = make([]float64, n), make([]float64, n), make([]int32, n)
	s.XS, s.YS, s.S, s.T, s.By = make([]int16, n), make([]int16, n), make([]int8, n), make([]int8, n), make([]int32, n)
	for j := range n {
		pt := int32(j)
		members := res.Members(pt)
		first := g.rows[members[0]]
		s.X[j], s.Y[j], s.P[j], s.By[j] = res.Value(pt, 0), res.Value(pt, 1), int32(first), -1
		s.XS[j], s.YS[j] = vals[first].xs, vals[first].ys
		if len(members) > 1 {
			if s.R == nil {
				s.R = map[int32]Repeats{}
			}
			m := make([]int32, len(members))
			for k, r := range members {
				m[k] = int32(g.rows[r])
			}
			s.R[pt] = Repeats{M: m, X: spread(res.Stat(pt, 0)), Y: spread(res.Stat(pt, 1))}
		}
	}
	if len(p.SLOs) > 0 {
		s.SLO = make([]Floats, len(p.SLOs))
		for k := range s.SLO {
			s.SLO[k] = make([]float64, n)
			for j := range n {
				s.SLO[k][j] = res.SLOValue(int32(j), k)
			}
		}
	}
	for _, w := range res.Warnings() {
		if !strings.HasPrefix(w, "the noise bands allow") {
			b.warn(fmt.Sprintf("plot %q, frontier %q: %s", p.Name, s.Name, w))
		}
	}
	if b.opts.Baseline != nil {
		s.Base = seriesBase(res, &s, p.X.Label(), p.Y.Label())
	}
	an := res.Analysis(0)
	return b.apply(p, s, an, vals), an.Cyclic, nil
}

// apply copies the analysis into the series, dropping invalid rows into the
// exclusions.
func (b *builder) apply(p *Plot, s Series, res *frontier.Result, vals []resolved) Series {
	drop, dropped := make([]bool, len(s.X)), false
	for _, m := range res.Frontier {
		s.S[m.Row] = StatusFrontier
		if len(m.Ties) > 0 {
			s.T[m.Row] |= TieExact
		}
		if len(m.NoiseTied) > 0 {
			s.T[m.Row] |= TieNoise
		}
		s.Line = append(s.Line, m.Row)
	}
	for _, d := range res.Dominated {
		s.S[d.Row], s.By[d.Row] = StatusDominated, d.By
	}
	for _, inf := range res.Infeasible {
		s.S[inf.Row] = StatusInfeasible
		var parts []string
		for _, v := range inf.Violations {
			parts = append(parts, v.String())
		}
		if s.Notes == nil {
			s.Notes = map[int32]string{}
		}
		s.Notes[inf.Row] = "violates " + strings.Join(parts, ", ")
	}
	for _, inv := range res.Invalid {
		if judgeable(&s, inv.Row) {
			s.S[inv.Row] = StatusInvalid
			if s.Notes == nil {
				s.Notes = map[int32]string{}
			}
			s.Notes[inv.Row] = "invalid: " + inv.Reason
		} else {
			drop[inv.Row], dropped = true, true
		}
		for _, i := range members(&s, inv.Row) {
			if vals[i].ok { // the others are excluded with their reason already
				b.exclude(int(i), ExcludeInvalid, inv.Reason, nil, p.Name, "")
			}
		}
	}
	s.Frontier = len(res.Frontier)
	if dropped {
		s = compact(s, drop)
	}
	sortLine(&s)
	s.XS, s.YS, s.T = nilIfZero(s.XS), nilIfZero(s.YS), nilIfZero(s.T)
	return s
}

// autoLog draws on a log scale each axis of pp whose configuration does
// not say (no log key) and whose values are all positive and span more
// than two decades (a latency of 21 ms to 8 s on a linear axis piles the
// points near zero).
func autoLog(pp *PagePlot, p *Plot) {
	for _, ax := range []struct {
		info *AxisInfo
		cfg  *Axis
		col  func(*Series) []float64
	}{{&pp.X, &p.X, func(s *Series) []float64 { return s.X }}, {&pp.Y, &p.Y, func(s *Series) []float64 { return s.Y }}} {
		if ax.cfg.logGiven || ax.info.Log {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for si := range pp.Series {
			for _, v := range ax.col(&pp.Series[si]) {
				if bad(v) {
					continue
				}
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		ax.info.Log = lo > 0 && hi/lo > 100
	}
}

// judgeable reports whether the invalid row r of s has values the
// simulator can compare at some setting: both axes and every SLO are
// numbers (finite on the axes), so only a relative band made it invalid.
// Such a row stays on the page (StatusInvalid).
func judgeable(s *Series, r int32) bool {
	if bad(s.X[r]) || bad(s.Y[r]) {
		return false
	}
	for _, col := range s.SLO {
		if math.IsNaN(col[r]) {
			return false
		}
	}
	return true
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// nilIfZero returns nil for a column of zeros, which the page data leaves
// out.
func nilIfZero[T int8 | int16](col []T) []T {
	for _, v := range col {
		if v != 0 {
			return col
		}
	}
	return nil
}

// compact removes dropped rows and renumbers By, Line and Notes.
func compact(s Series, drop []bool) Series {
	newIdx := make([]int32, len(s.X))
	out := Series{Name: s.Name, Frontier: s.Frontier, Line: []int32{}}
	for j := range s.X {
		if drop[j] {
			newIdx[j] = -1
			continue
		}
		newIdx[j] = int32(len(out.X))
		out.X, out.Y, out.P = append(out.X, s.X[j]), append(out.Y, s.Y[j]), append(out.P, s.P[j])
		out.XS, out.YS, out.S, out.T = appendAt(out.XS, s.XS, j), appendAt(out.YS, s.YS, j), append(out.S, s.S[j]), appendAt(out.T, s.T, j)
		out.By = append(out.By, s.By[j])
		for k := range s.SLO {
			if out.SLO == nil {
				out.SLO = make([]Floats, len(s.SLO))
			}
			out.SLO[k] = append(out.SLO[k], s.SLO[k][j])
		}
	}
	for j := range out.By {
		if out.By[j] >= 0 {
			out.By[j] = newIdx[out.By[j]]
		}
	}
	for _, r := range s.Line {
		out.Line = append(out.Line, newIdx[r])
	}
	for r, note := range s.Notes {
		if out.Notes == nil {
			out.Notes = map[int32]string{}
		}
		out.Notes[newIdx[r]] = note
	}
	if s.Base != nil {
		out.Base = compactBase(s.Base, drop, newIdx)
	}
	for r, rep := range s.R {
		if newIdx[r] < 0 {
			continue
		}
		if out.R == nil {
			out.R = map[int32]Repeats{}
		}
		out.R[newIdx[r]] = rep
	}
	return out
}

// appendAt appends col[j] to out, or nothing when col is nil (a column of
// zeros the page data leaves out, see nilIfZero).
func appendAt[T int8 | int16](out, col []T, j int) []T {
	if col == nil {
		return out
	}
	return append(out, col[j])
}

// slo returns the frontier bound of an SLO spec.
func (s SLOSpec) slo() frontier.SLO {
	return frontier.SLO{Name: s.Label(), Op: s.Op, Bound: s.Bound}
}

// compactBase removes dropped rows from a series' baseline columns and
// renumbers the baseline rows.
func compactBase(b *SeriesBase, drop []bool, newIdx []int32) *SeriesBase {
	out := &SeriesBase{Note: b.Note, Bases: b.Bases, B: []int32{}, DX: []*float64{}, DY: []*float64{}}
	for j := range b.B {
		if drop[j] {
			continue
		}
		out.B, out.DX, out.DY = append(out.B, b.B[j]), append(out.DX, b.DX[j]), append(out.DY, b.DY[j])
	}
	for r, why := range b.Why {
		if newIdx[r] >= 0 {
			if out.Why == nil {
				out.Why = map[int32]string{}
			}
			out.Why[newIdx[r]] = why
		}
	}
	for k := range out.Bases {
		if r := out.Bases[k].Row; r >= 0 {
			out.Bases[k].Row = newIdx[r]
		}
	}
	return out
}
