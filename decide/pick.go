package decide

import (
	"cmp"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// PickConfig is an ε-constraint question: the best point on Primary among
// those meeting every SLO, ties broken by Others in order.
type PickConfig struct {
	Primary frontier.Objective
	Others  []frontier.Objective
	SLOs    []frontier.SLO
	// Relax is the fraction by which each bound is relaxed to price it
	// (0.1 when zero).
	Relax float64
	// Closest is how many infeasible points to list when nothing is
	// feasible (3 when zero).
	Closest int
}

// PickResult is Pick's answer. Point indices refer to the points given.
type PickResult struct {
	// Choice is the chosen point, -1 when nothing is feasible.
	Choice int
	// Binding lists the bounds whose relaxation would buy a better primary
	// value, in SLO order.
	Binding []Relaxation
	// Closest lists, when nothing is feasible, the points that violate the
	// bounds least, with what they violate.
	Closest []Closest
	// Excluded lists the points that meet every bound but were not
	// eligible because their configuration violates one at another of its
	// workloads: a configuration is judged across all its workloads.
	Excluded []int
}

// Relaxation prices one binding bound.
type Relaxation struct {
	SLO, Relaxed frontier.SLO
	// Choice is the point chosen with the relaxed bound, Value its primary
	// value and Gain its relative change from the current choice.
	Choice int
	Value  float64
	Gain   float64
}

// Closest is an infeasible point with its violations and their total
// relative size.
type Closest struct {
	Point      int
	Violations []frontier.Violation
	Distance   float64
}

// Pick answers the question for points whose Stats hold the primary
// objective, then Others, then the SLO columns, in order. Points with an
// Err or a missing value are never chosen, nor the points of a
// configuration (Group.Config) that violates a bound at any of its
// workloads: a configuration fast at one load but over the latency bound
// at another is not feasible. It never relaxes a bound by itself: Binding
// only reports what relaxing would buy.
func Pick(points []repeat.Point, cfg PickConfig) PickResult {
	if cfg.Relax <= 0 {
		cfg.Relax = 0.1
	}
	if cfg.Closest <= 0 {
		cfg.Closest = 3
	}
	res := PickResult{Choice: best(points, cfg, cfg.SLOs)}
	k := 1 + len(cfg.Others)
	bad := violators(points, k, cfg.SLOs)
	for p := range points {
		if g := points[p].Group; g != nil && bad[g.Config] && usable(points[p], k) && len(violations(points[p], k, cfg.SLOs)) == 0 {
			res.Excluded = append(res.Excluded, p)
		}
	}
	if res.Choice < 0 {
		res.Closest = closest(points, cfg)
		return res
	}
	cur := value(points[res.Choice], 0)
	for s, slo := range cfg.SLOs {
		relaxed := slices.Clone(cfg.SLOs)
		relaxed[s] = relax(slo, cfg.Relax)
		c := best(points, cfg, relaxed)
		if c < 0 || c == res.Choice || better(cfg.Primary, cur, value(points[c], 0)) || value(points[c], 0) == cur {
			continue
		}
		v := value(points[c], 0)
		res.Binding = append(res.Binding, Relaxation{SLO: slo, Relaxed: relaxed[s], Choice: c, Value: v, Gain: repeat.Delta(v, cur)})
	}
	return res
}

// relax loosens a bound by frac of its magnitude.
func relax(s frontier.SLO, frac float64) frontier.SLO {
	d := frac * math.Abs(s.Bound)
	if s.Op == frontier.LE || s.Op == frontier.LT {
		s.Bound += d
	} else {
		s.Bound -= d
	}
	return s
}

// best returns the feasible point best on the primary objective, ties
// broken by the other objectives, then by position; -1 when none. A point
// is feasible when it and every other usable point of its configuration
// meet slos.
func best(points []repeat.Point, cfg PickConfig, slos []frontier.SLO) int {
	choice := -1
	objs := append([]frontier.Objective{cfg.Primary}, cfg.Others...)
	bad := violators(points, len(objs), slos)
	for p := range points {
		if !usable(points[p], len(objs)) || len(violations(points[p], len(objs), slos)) > 0 {
			continue
		}
		if g := points[p].Group; g != nil && bad[g.Config] {
			continue
		}
		if choice < 0 || lexBetter(points[p], points[choice], objs) {
			choice = p
		}
	}
	return choice
}

func lexBetter(a, b repeat.Point, objs []frontier.Objective) bool {
	for i, o := range objs {
		va, vb := value(a, i), value(b, i)
		if va != vb {
			return better(o, va, vb)
		}
	}
	return false
}

// better reports whether a is strictly better than b on o.
func better(o frontier.Objective, a, b float64) bool {
	if o.Direction == frontier.Maximize {
		return a > b
	}
	return a < b
}

func value(p repeat.Point, c int) float64 {
	if c >= len(p.Stats) || p.Stats[c].N == 0 {
		return math.NaN()
	}
	return p.Stats[c].Value
}

func usable(p repeat.Point, k int) bool {
	if p.Err != "" {
		return false
	}
	for c := range k {
		if v := value(p, c); math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// violators returns the configurations with a usable point (k objective
// columns) that violates slos.
func violators(points []repeat.Point, k int, slos []frontier.SLO) map[string]bool {
	bad := map[string]bool{}
	for _, p := range points {
		if p.Group != nil && usable(p, k) && len(violations(p, k, slos)) > 0 {
			bad[p.Group.Config] = true
		}
	}
	return bad
}

// violations lists the bounds p violates; SLO columns follow the k
// objective columns. A missing value violates its bound.
func violations(p repeat.Point, k int, slos []frontier.SLO) []frontier.Violation {
	var out []frontier.Violation
	for s, slo := range slos {
		if v := value(p, k+s); math.IsNaN(v) || !slo.Holds(v) {
			out = append(out, frontier.Violation{SLO: slo, Value: v})
		}
	}
	return out
}

// closest ranks the usable points by their total relative violation.
func closest(points []repeat.Point, cfg PickConfig) []Closest {
	k := 1 + len(cfg.Others)
	var out []Closest
	for p := range points {
		if !usable(points[p], k) {
			continue
		}
		c := Closest{Point: p, Violations: violations(points[p], k, cfg.SLOs)}
		for _, v := range c.Violations {
			c.Distance += math.Abs(v.Value-v.SLO.Bound) / math.Max(math.Abs(v.SLO.Bound), 1e-12)
		}
		if math.IsNaN(c.Distance) {
			c.Distance = math.Inf(1)
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Closest) int { return cmp.Compare(a.Distance, b.Distance) })
	return out[:min(len(out), cfg.Closest)]
}
