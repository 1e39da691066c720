package report

import (
	"fmt"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/trial"
)

// checkBaseline fails when the baseline selects no usable trial.
func (b *builder) checkBaseline() error {
	sel := b.opts.Baseline
	if sel == nil {
		return nil
	}
	for i := range b.trials {
		if b.usable[i] && sel.Match(&decide.Group{Key: b.key[i], Config: b.config[i]}, &b.trials[i].Trial) {
			return nil
		}
	}
	return fmt.Errorf("baseline %q matches no usable trial", sel.Raw)
}

// repeatGroups gathers the usable trials of a frontier group (whether or
// not their axes resolve) into decide groups, and maps their trials back to
// builder indexes.
func (b *builder) repeatGroups(p *Plot, f *FrontierSpec, key string) ([]decide.Group, map[*trial.Trial]int) {
	var out []decide.Group
	idx := map[*trial.Trial]int{}
	index := map[string]int{}
	for i := range b.trials {
		t := &b.trials[i].Trial
		if !b.usable[i] || !selects(f, t) || (p.GroupBy != "" && b.groupValue(i, p.GroupBy) != key) {
			continue
		}
		j, ok := index[b.key[i]]
		if !ok {
			j = len(out)
			index[b.key[i]] = j
			out = append(out, decide.Group{Key: b.key[i], Config: b.config[i], Scope: decide.ScopeOf(t), Workload: decide.WorkloadOf(t)})
		}
		out[j].Trials = append(out[j].Trials, t)
		out[j].Newest = i
		idx[t] = i
	}
	return out, idx
}

// baseline compares every point of s with the baseline of its frontier
// group measured in the point's scope and workload (decide.Baseline: the
// newest selected configuration). A baseline measured only in another
// scope is a *decide.ScopeError unless Options.AllowCrossScope.
func (b *builder) baseline(p *Plot, f *FrontierSpec, g group, s *Series) error {
	sel := b.opts.Baseline
	if sel == nil {
		return nil
	}
	n := len(s.X)
	base := &SeriesBase{Bases: []BaseValue{}, B: make([]int32, n), DX: make([]*float64, n), DY: make([]*float64, n)}
	s.Base = base
	groups, idx := b.repeatGroups(p, f, g.key)
	if len(decide.Select(groups, *sel)) == 0 {
		base.Note = fmt.Sprintf("the baseline %s is not in this frontier group", sel.Raw)
		for j := range base.B {
			base.B[j] = -1
		}
		return nil
	}
	rowOf := map[int]int32{}
	for j := range s.X {
		for _, i := range members(s, int32(j)) {
			rowOf[int(i)] = int32(j)
		}
	}
	arms := map[decide.Scope]*decide.Arm{}
	bases := map[string]int32{}
	for j := range s.X {
		t := &b.trials[s.P[j]].Trial
		sc := decide.ScopeOf(t)
		arm, ok := arms[sc]
		if !ok {
			a, err := decide.Baseline(groups, *sel, sc, b.opts.AllowCrossScope)
			if err != nil {
				return fmt.Errorf("point %s: %w", b.pointName(int(s.P[j])), err)
			}
			arm, arms[sc] = &a, &a
			if a.Scope != sc {
				b.warn(fmt.Sprintf("plot %q, frontier %q: points measured in %s are compared with the baseline %s measured in %s (cross-scope comparison allowed)",
					p.Name, s.Name, sc, sel.Raw, a.Scope))
			}
		}
		w := decide.WorkloadOf(t)
		bg := arm.Workload(w)
		if bg == nil {
			base.B[j] = -1
			if base.Why == nil {
				base.Why = map[int32]string{}
			}
			base.Why[int32(j)] = fmt.Sprintf("the baseline %s was not measured at workload %s", sel.Raw, w)
			continue
		}
		k, ok := bases[bg.Key]
		if !ok {
			k = int32(len(base.Bases))
			bases[bg.Key] = k
			base.Bases = append(base.Bases, b.baseValue(p, bg, idx, rowOf))
		}
		base.B[j] = k
		base.DX[j], base.DY[j] = delta(s.X[j], base.Bases[k].X), delta(s.Y[j], base.Bases[k].Y)
	}
	return nil
}

// baseValue measures the baseline group bg on both axes: the aggregate of
// the repeats on which each axis resolves (with decide.None, the newest
// run alone, as it is a point of its own).
func (b *builder) baseValue(p *Plot, bg *decide.Group, idx map[*trial.Trial]int, rowOf map[int]int32) BaseValue {
	ts := bg.Trials
	if b.opts.Aggregate == decide.None {
		ts = ts[len(ts)-1:]
	}
	v := BaseValue{Workload: bg.Workload.String(), Scope: bg.Scope.String(), Row: -1}
	for _, t := range ts {
		v.IDs = append(v.IDs, t.ID)
		if r, ok := rowOf[idx[t]]; ok && v.Row < 0 {
			v.Row = r
		}
	}
	v.X, v.NX, v.NoteX = b.baseAxis(&p.X, ts)
	v.Y, v.NY, v.NoteY = b.baseAxis(&p.Y, ts)
	return v
}

// baseAxis aggregates axis a over the baseline trials ts, or says why it
// has no value.
func (b *builder) baseAxis(a *Axis, ts []*trial.Trial) (*float64, int, string) {
	var vs []float64
	why := ""
	for _, t := range ts {
		m, err := resolve(a, t)
		if err == nil {
			if bad := badValue(m.Value, false); bad == "" {
				vs = append(vs, m.Value)
				continue
			} else if why == "" {
				why = a.Label() + ": " + bad
			}
		} else if why == "" {
			why = err.Error()
		}
	}
	if len(vs) == 0 {
		return nil, 0, "the baseline has no " + a.Label() + " value (" + why + ")"
	}
	val := decide.Summarize(vs, b.opts.Aggregate).Value
	return &val, len(vs), ""
}

// delta is the relative delta of v to base, nil without a base or when
// the base is zero.
func delta(v float64, base *float64) *float64 {
	if base == nil || *base == 0 {
		return nil
	}
	d := decide.Delta(v, *base)
	return &d
}

// pointName names trial i for messages: "case · iter 0 · step 1".
func (b *builder) pointName(i int) string {
	p := &b.page.Points[i]
	out := p.Case
	for _, part := range [][2]string{{"iter", p.Iteration}, {"step", p.Step}, {"phase", p.Phase}} {
		if part[1] != "" {
			out += " · " + part[0] + " " + part[1]
		}
	}
	return out
}

// warn adds a page warning once.
func (b *builder) warn(msg string) {
	if b.warned == nil {
		b.warned = map[string]bool{}
	}
	if !b.warned[msg] {
		b.warned[msg] = true
		b.page.Warnings = append(b.page.Warnings, msg)
	}
}
