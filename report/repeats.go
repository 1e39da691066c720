package report

import (
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/decide"
)

// Options says how Build turns trials into points and what it compares
// them with. The zero value aggregates repeats by their median and draws
// no baseline.
type Options struct {
	// Aggregate says how the repeats of a configuration become one point:
	// decide.Median (the default), decide.Mean, or decide.None (every
	// run its own point).
	Aggregate decide.Aggregation
	// ConfigKeys, when not empty, are the parameters that identify a
	// configuration (decide.Config); by default every parameter but
	// decide.RunParams does.
	ConfigKeys []string
	// Baseline, when set, selects the baseline every point is compared
	// with, in its frontier group, environment scope and workload.
	Baseline *decide.Selection
	// AllowCrossScope compares points with a baseline measured in another
	// environment (engine, CUDA, driver or GPU) instead of refusing.
	AllowCrossScope bool
}

// aggPoint is one configuration's repeats within a series.
type aggPoint struct {
	// rows are the member trials (builder indexes) in input order.
	rows   []int
	x, y   decide.Stat
	slo    []float64
	xs, ys int16
}

// aggregate gathers the resolved rows of a series into points: the rows
// with the same repeat key (configuration, scope and workload) become one
// point whose values are the aggregate of theirs; with decide.None every
// row is a point.
func (b *builder) aggregate(p *Plot, rows []int, vals []resolved) []aggPoint {
	out := make([]aggPoint, 0, len(rows))
	index := map[string]int{}
	for _, i := range rows {
		j, ok := index[b.key[i]]
		if !ok || b.opts.Aggregate == decide.None {
			j = len(out)
			index[b.key[i]] = j
			out = append(out, aggPoint{xs: vals[i].xs, ys: vals[i].ys})
		}
		out[j].rows = append(out[j].rows, i)
	}
	for j := range out {
		a := &out[j]
		a.x = b.stat(a.rows, func(i int) float64 { return vals[i].x })
		a.y = b.stat(a.rows, func(i int) float64 { return vals[i].y })
		for k := range p.SLOs {
			a.slo = append(a.slo, b.stat(a.rows, func(i int) float64 { return vals[i].slo[k] }).Value)
		}
	}
	return out
}

// stat summarises one value of rows with the page's aggregation.
func (b *builder) stat(rows []int, value func(int) float64) decide.Stat {
	if len(rows) == 1 {
		v := value(rows[0])
		return decide.Stat{N: 1, Value: v, Median: v, Mean: v, Min: v, Max: v, Q1: v, Q3: v}
	}
	vs := make([]float64, len(rows))
	for k, i := range rows {
		vs[k] = value(i)
	}
	return decide.Summarize(vs, b.opts.Aggregate)
}

// spread is the JSON form of a Stat's spread.
func spread(s decide.Stat) Spread { return Spread{Min: s.Min, Q1: s.Q1, Q3: s.Q3, Max: s.Max} }

// members returns the trials (builder indexes) of series point j.
func members(s *Series, j int32) []int32 {
	if r, ok := s.R[j]; ok {
		return r.M
	}
	return []int32{s.P[j]}
}

// badValue says why a resolved value cannot be aggregated or compared
// (the frontier's reasons: NaN, ±Inf), or "" when it can.
func badValue(v float64, slo bool) string {
	switch {
	case math.IsNaN(v):
		return "value is NaN"
	case math.IsInf(v, 0) && !slo:
		return "value is " + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// int32s converts trial indexes for the JSON.
func int32s(rows []int) []int32 {
	out := make([]int32, len(rows))
	for k, i := range rows {
		out[k] = int32(i)
	}
	return out
}
