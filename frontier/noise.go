package frontier

import (
	"math"
	"slices"
)

// NoiseResult is the outcome of NoiseFront.
type NoiseResult struct {
	// By holds, for every point, a point that beats it under the
	// noise-aware relation, or -1 when the point is on the frontier.
	By []int32
	// Tied lists the top cycles: groups of frontier points that beat each
	// other around a cycle, so that none is better than the rest beyond
	// the thresholds. Each group is sorted by index.
	Tied [][]int32
	// Cyclic reports whether the parameters allow dominance cycles at all
	// (CycleSum > 1).
	Cyclic bool
}

// Beats reports whether point a beats point b under the noise-aware
// relation of objs: no worse than b beyond b's noise band on every
// objective and better than b by more than the minimum improvement on one.
// With zero bands this is strict Pareto dominance.
func Beats(a, b []float64, objs []Objective) bool {
	win := false
	for i, o := range objs {
		if o.Direction == Maximize {
			if a[i] < b[i]*(1-o.Noise) {
				return false
			}
			if a[i] > b[i]*(1+o.MinImprove) {
				win = true
			}
			continue
		}
		if a[i] > b[i]*(1+o.Noise) {
			return false
		}
		if a[i] < b[i]*(1-o.MinImprove) {
			win = true
		}
	}
	return win
}

// CycleSum returns Σ s_i/(s_i+d_i) with s_i = ln(1+σ_i) and
// d_i = -ln(1-δ_i). The noise-aware relation is acyclic exactly when the
// sum is at most 1.
func CycleSum(objs []Objective) float64 {
	sum := 0.0
	for _, o := range objs {
		s, d := math.Log1p(o.Noise), -math.Log1p(-o.MinImprove)
		if s+d > 0 {
			sum += s / (s + d)
		}
	}
	return sum
}

// AcyclicMinImprove returns the smallest minimum improvement δ that, used
// on every objective with the given noise bands, rules out dominance
// cycles.
func AcyclicMinImprove(objs []Objective) float64 {
	f := func(d float64) float64 {
		sum := 0.0
		for _, o := range objs {
			s := math.Log1p(o.Noise)
			if s+d > 0 {
				sum += s / (s + d)
			}
		}
		return sum
	}
	lo, hi := 0.0, 1.0
	for f(hi) > 1 {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) > 1 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return -math.Expm1(-hi)
}

// NoiseFront computes the noise-aware frontier of n = len(data)/len(objs)
// points given row-major in their natural orientation (not negated). Every
// value on an objective with a band must be finite and positive; other
// values must be finite.
//
// The frontier is the Schwartz set of the relation Beats. Because a point
// that weakly Pareto-dominates a beater is itself a beater, only the strict
// frontier F needs to be searched for beaters: every point is queried
// against an orthant index over F. When the parameters allow cycles, the
// points reachable from unbeaten points are removed by repeated orthant
// queries against the strict frontier of the reached set, and strongly
// connected components are computed on the (usually small) remainder.
func NoiseFront(data []float64, objs []Objective) NoiseResult {
	k := len(objs)
	if k == 0 || len(data)%k != 0 {
		panic("frontier: NoiseFront: data length is not a multiple of the objective count")
	}
	m := minSpace(data, objs)
	by := StrictFront(m, k)
	res := NoiseResult{By: by, Cyclic: CycleSum(objs) > 1}
	if !anyBand(objs) {
		return res
	}
	n := len(by)
	q := newCorners(data, objs)
	front := make([]int32, 0)
	for i, d := range by {
		if d < 0 {
			front = append(front, int32(i))
		}
	}
	ix := newOrthantIndex(m, k, front)
	for i := range n {
		le, lt := q.at(i)
		by[i] = ix.find(le, lt)
	}
	if res.Cyclic {
		res.Tied = schwartz(data, m, objs, q, by)
	}
	preferFrontierBeaters(m, k, q, by)
	return res
}

// preferFrontierBeaters re-points each beaten point at a beater on the
// frontier when one exists. The relation is not transitive, so the beater
// found first may itself be off the frontier; naming a frontier member
// makes the explanation actionable.
func preferFrontierBeaters(m []float64, k int, q *corners, by []int32) {
	var front []int32
	for i, d := range by {
		if d < 0 {
			front = append(front, int32(i))
		}
	}
	ix := newOrthantIndex(m, k, front)
	for i, d := range by {
		if d >= 0 && by[d] >= 0 {
			le, lt := q.at(i)
			if f := ix.find(le, lt); f >= 0 {
				by[i] = f
			}
		}
	}
}

func anyBand(objs []Objective) bool {
	return slices.ContainsFunc(objs, Objective.Relative)
}

// minSpace returns data with maximised columns negated, for exact
// comparisons only (never for bands): a copy when any column is
// maximised, else data itself (every caller only reads it).
func minSpace(data []float64, objs []Objective) []float64 {
	k := len(objs)
	if !slices.ContainsFunc(objs, func(o Objective) bool { return o.Direction == Maximize }) {
		return data
	}
	m := slices.Clone(data)
	for c, o := range objs {
		if o.Direction == Maximize {
			for i := c; i < len(m); i += k {
				m[i] = -m[i]
			}
		}
	}
	return m
}

// corners computes the orthant corners of each point in the min-oriented
// space: le is the edge of the noise band and lt the edge of a meaningful
// win. Bands are applied to the original values and negated afterwards.
type corners struct {
	data   []float64
	objs   []Objective
	le, lt []float64
}

func newCorners(data []float64, objs []Objective) *corners {
	k := len(objs)
	return &corners{data: data, objs: objs, le: make([]float64, k), lt: make([]float64, k)}
}

func (q *corners) at(i int) (le, lt []float64) {
	k := len(q.objs)
	for c, o := range q.objs {
		v := q.data[i*k+c]
		if o.Direction == Maximize {
			q.le[c] = -(v * (1 - o.Noise))
			q.lt[c] = -(v * (1 + o.MinImprove))
		} else {
			q.le[c] = v * (1 + o.Noise)
			q.lt[c] = v * (1 - o.MinImprove)
		}
	}
	return q.le, q.lt
}
