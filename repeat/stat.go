package repeat

import (
	"fmt"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/trial"
)

// Aggregation says how repeats become one value.
type Aggregation int8

const (
	// Median takes the per-metric median of the repeats (the default).
	Median Aggregation = iota
	// Mean takes the per-metric arithmetic mean.
	Mean
	// None keeps every run as its own point.
	None
)

// ParseAggregation accepts median, mean and none.
func ParseAggregation(s string) (Aggregation, error) {
	switch s {
	case "median", "":
		return Median, nil
	case "mean":
		return Mean, nil
	case "none":
		return None, nil
	}
	return Median, fmt.Errorf("unknown aggregation %q (want median, mean or none)", s)
}

// String returns median, mean or none.
func (a Aggregation) String() string { return [...]string{"median", "mean", "none"}[a] }

// Stat summarises the repeats of one metric.
type Stat struct {
	// N is the number of repeats; Value is their aggregate (median or
	// mean, the single value for one run).
	N     int
	Value float64
	// Median, Mean, Min, Max and the quartiles Q1, Q3 (linear
	// interpolation between order statistics) describe the spread.
	Median, Mean, Min, Max, Q1, Q3 float64
	// Samples are the values in trial order.
	Samples []float64
}

// IQR returns the interquartile range Q3-Q1.
func (s Stat) IQR() float64 { return s.Q3 - s.Q1 }

// Summarize computes the Stat of values (not modified); it is the zero
// Stat with NaN values when values is empty.
func Summarize(values []float64, agg Aggregation) Stat {
	s := Stat{N: len(values), Samples: values}
	if len(values) == 0 {
		nan := math.NaN()
		s.Value, s.Median, s.Mean, s.Min, s.Max, s.Q1, s.Q3 = nan, nan, nan, nan, nan, nan, nan
		return s
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	s.Median, s.Q1, s.Q3 = Quantile(sorted, 0.5), Quantile(sorted, 0.25), Quantile(sorted, 0.75)
	sum := 0.0
	for _, v := range sorted {
		sum += v
	}
	s.Mean = sum / float64(len(sorted))
	s.Value = s.Median
	if agg == Mean {
		s.Value = s.Mean
	}
	return s
}

// Point is a group measured on a list of selectors.
type Point struct {
	Group *Group
	// Stats holds one summary per selector.
	Stats []Stat
	// Err, when not empty, says why the point cannot be compared (a
	// selector that resolves on no repeat, or ambiguously).
	Err string
}

// Measure resolves each selector on every repeat of each group and
// summarises the values. With None every trial becomes its own point.
func Measure(groups []*Group, sels []trial.Selector, agg Aggregation) []Point {
	if agg == None {
		groups = split(groups)
	}
	out := make([]Point, len(groups))
	for i, g := range groups {
		out[i] = measureGroup(g, sels, agg)
	}
	return out
}

func measureGroup(g *Group, sels []trial.Selector, agg Aggregation) Point {
	p := Point{Group: g, Stats: make([]Stat, len(sels))}
	for c, sel := range sels {
		vals := make([]float64, 0, len(g.Trials))
		r := trial.NewResolver(sel)
		for _, t := range g.Trials {
			m, err := r.Resolve(t)
			if err != nil {
				if p.Err == "" {
					p.Err = err.Error()
				}
				continue
			}
			vals = append(vals, m.Value)
		}
		p.Stats[c] = Summarize(vals, agg)
	}
	return p
}

// split turns every trial of groups into a group of its own.
func split(groups []*Group) []*Group {
	var out []*Group
	for _, g := range groups {
		for _, t := range g.Trials {
			h := *g
			h.Trials = []*trial.Trial{t}
			out = append(out, &h)
		}
	}
	return out
}

// Delta returns the relative difference (v-base)/|base|: +0.35 is 35% more.
func Delta(v, base float64) float64 { return (v - base) / math.Abs(base) }

// Quantile returns the p quantile (0 <= p <= 1) of sorted, non-empty
// values, interpolating linearly between order statistics (the quartiles
// of Stat are computed this way).
func Quantile(sorted []float64, p float64) float64 {
	h := p * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
