package report

import (
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/repeat"
)

// Options says how Build turns trials into points and what it compares
// them with. The zero value aggregates repeats by their median and draws
// no baseline.
type Options struct {
	// Aggregate says how the repeats of a configuration become one point:
	// repeat.Median (the default), repeat.Mean, or repeat.None (every
	// run its own point).
	Aggregate repeat.Aggregation
	// ConfigKeys, when not empty, are the parameters that identify a
	// configuration (repeat.Config); by default every parameter but
	// repeat.RunParams does.
	ConfigKeys []string
	// Baseline, when set, selects the baseline every point is compared
	// with, in its frontier group, environment scope and workload.
	Baseline *repeat.Selection
	// AllowCrossScope compares points with a baseline measured in another
	// environment (engine, CUDA, driver or GPU) instead of refusing.
	AllowCrossScope bool
	// Fields names the settings the page's texts name (a baseline
	// reason's allow_cross_scope) as the caller spells them
	// (query.Query.Fields); nil keeps their own names.
	Fields field.Namer
	// DensityBound is the number of dominated points a plot draws one by
	// one: 0 means DensityBound, a negative value no bound.
	DensityBound int
}

// spread is the JSON form of a Stat's spread.
func spread(s repeat.Stat) Spread { return Spread{Min: s.Min, Q1: s.Q1, Q3: s.Q3, Max: s.Max} }

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
