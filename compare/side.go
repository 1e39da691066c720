package compare

import (
	"math/rand/v2"
	"slices"

	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
)

// Point is one configuration of a side: its aggregate on each objective
// and the repeats it aggregates.
type Point struct {
	// ID names the point (its first run's display id).
	ID string
	// Values are the aggregates, one per objective.
	Values []float64
	// Runs[o] are the repeats' values on objective o, in the same run
	// order on every objective (a repeat is resampled as a whole); empty
	// or a single run means no measured uncertainty.
	Runs [][]float64
}

// runs returns how many repeats p has (1 without Runs).
func (p *Point) runs() int {
	if len(p.Runs) == 0 {
		return 1
	}
	return len(p.Runs[0])
}

// Side is one selection of trials compared: its feasible points.
type Side struct {
	// Name says how the side was selected.
	Name string
	// Points are the side's feasible points (frontier and dominated):
	// every one may be on the frontier of a resample.
	Points []Point
	// Excluded counts the points left out (infeasible or invalid).
	Excluded int
}

// FromResult returns the side of a query result's groups: its frontier
// and dominated points with the repeats of each (their spread's samples).
func FromResult(name string, r *query.Result) *Side {
	s := &Side{Name: name}
	for _, g := range r.Groups() {
		s.Excluded += len(g.Infeasible) + len(g.Invalid)
		for _, qp := range append(slices.Clip(g.Frontier), g.Dominated...) {
			p := Point{ID: qp.ID, Values: qp.Values}
			if len(qp.Spread) > 0 && len(qp.Spread[0].Samples) > 1 {
				for _, st := range qp.Spread {
					p.Runs = append(p.Runs, st.Samples)
				}
			}
			s.Points = append(s.Points, p)
		}
	}
	return s
}

// sampler draws resamples of a side: every point's repeats drawn with
// replacement, aggregated as the query aggregates them. It draws only the
// points pts, those that may be on the frontier of some resample
// (engine.mayLead): the others never change a frontier, a hypervolume or
// a curve.
type sampler struct {
	side *Side
	pts  []int
	k    int
	agg  repeat.Aggregation
	// buf holds one resample, row-major (point pts[j], objective o at
	// j*k+o).
	buf     []float64
	idx     []int
	scratch []float64
	// orient, xs and ys are buffers of the measures of a resample.
	orient, xs, ys []float64
}

// oriented returns a buffer the size of a resample.
func (s *sampler) oriented() []float64 {
	if s.orient == nil {
		s.orient = make([]float64, len(s.buf))
	}
	return s.orient
}

// estimate fills the buffer with the point estimates.
func (s *sampler) estimate() []float64 {
	for j, i := range s.pts {
		copy(s.buf[j*s.k:], s.side.Points[i].Values)
	}
	return s.buf
}

// draw fills the buffer with one resample drawn from rng.
func (s *sampler) draw(rng *rand.Rand) []float64 {
	for j, i := range s.pts {
		p := &s.side.Points[i]
		row := s.buf[j*s.k : j*s.k+s.k]
		n := p.runs()
		if n < 2 {
			copy(row, p.Values)
			continue
		}
		s.idx = s.idx[:0]
		for range n {
			s.idx = append(s.idx, rng.IntN(n))
		}
		for o := range s.k {
			row[o] = s.aggregate(p.Runs[o])
		}
	}
	return s.buf
}

// aggregate returns the median (or mean) of the drawn runs of vals.
func (s *sampler) aggregate(vals []float64) float64 {
	s.scratch = s.scratch[:0]
	sum := 0.0
	for _, j := range s.idx {
		s.scratch = append(s.scratch, vals[j])
		sum += vals[j]
	}
	if s.agg == repeat.Mean {
		return sum / float64(len(s.idx))
	}
	v := s.scratch
	switch len(v) {
	case 1:
		return v[0]
	case 2:
		return (v[0] + v[1]) / 2
	case 3:
		return max(min(v[0], v[1]), min(max(v[0], v[1]), v[2]))
	}
	if len(v) > 32 {
		slices.Sort(v)
		return repeat.Quantile(v, 0.5)
	}
	// Insertion sort: a configuration has a handful of repeats.
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	return repeat.Quantile(v, 0.5)
}
