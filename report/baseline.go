package report

import (
	"fmt"
	"strconv"

	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
)

// checkBaseline fails when the baseline selects no usable trial.
func (b *builder) checkBaseline() error {
	sel := b.opts.Baseline
	if sel == nil {
		return nil
	}
	for i := range b.trials {
		if !b.usable[i] {
			continue
		}
		t := &b.trials[i]
		config := repeat.Config(t, b.opts.ConfigKeys)
		key := repeat.Key(config, repeat.WorkloadOf(t))
		if !repeat.KnownConfig(t, b.opts.ConfigKeys) {
			// A result file alone does not record the serving configuration:
			// it is never assumed to repeat another one.
			key = "trial:" + strconv.Itoa(i)
		}
		if sel.Match(&repeat.Group{Key: key, Config: config}, t) {
			return nil
		}
	}
	return fmt.Errorf("baseline %q matches no usable trial", sel.Raw)
}

// seriesBase turns the query's baseline of every point (query.Result:
// the baseline of the point's frontier group measured in its environment
// scope at its workload) into the series' columns, indexed like the
// query's points.
func seriesBase(res *query.Result, s *Series, xLabel, yLabel string) *SeriesBase {
	n := len(s.X)
	base := &SeriesBase{Bases: []BaseValue{}, B: make([]int32, n), DX: make([]*float64, n), DY: make([]*float64, n)}
	index := map[*query.Base]int32{}
	absent := n > 0
	for j := range n {
		bv, why := res.Baseline(int32(j))
		if bv == nil {
			base.B[j] = -1
			if base.Why == nil {
				base.Why = map[int32]string{}
			}
			base.Why[int32(j)] = why
			absent = absent && why == res.BaselineAbsent()
			continue
		}
		absent = false
		k, ok := index[bv]
		if !ok {
			k = int32(len(base.Bases))
			index[bv] = k
			base.Bases = append(base.Bases, baseValue(bv, xLabel, yLabel))
		}
		base.B[j] = k
		base.DX[j], base.DY[j] = delta(s.X[j], base.Bases[k].X), delta(s.Y[j], base.Bases[k].Y)
	}
	if absent {
		base.Note, base.Why = "the baseline "+res.Query().Baseline+" is not in this frontier group", nil
	}
	return base
}

// baseValue describes a baseline on the series' two axes.
func baseValue(b *query.Base, xLabel, yLabel string) BaseValue {
	v := BaseValue{Workload: b.Workload.String(), Scope: b.Scope.String(), IDs: b.IDs, Row: b.Point, NX: b.N[0], NY: b.N[1]}
	axis := func(o int, name string) (*float64, string) {
		if b.N[o] == 0 {
			return nil, "the baseline has no " + name + " value (" + b.Why[o] + ")"
		}
		x := b.Values[o]
		return &x, ""
	}
	v.X, v.NoteX = axis(0, xLabel)
	v.Y, v.NoteY = axis(1, yLabel)
	return v
}

// delta is the relative delta of v to base, nil without a base or when
// the base is zero.
func delta(v float64, base *float64) *float64 {
	if base == nil || *base == 0 {
		return nil
	}
	d := repeat.Delta(v, *base)
	return &d
}

// pointName names trial i for messages: "case · iter 0 · step 1".
func (b *builder) pointName(i int) string { return b.recs.names[b.recs.place[i]] }

// trial returns trial i, nil when the page is decided from the records
// alone.
func (b *builder) trial(i int) *Trial {
	if b.trials == nil {
		return nil
	}
	return &b.trials[i]
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
