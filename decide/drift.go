package decide

import (
	"math"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// Drift verdicts per objective.
const (
	Improved  = "improved"
	Regressed = "regressed"
	Unchanged = "unchanged"
	Uncertain = "uncertain"
)

// DriftObjective is the baseline's move on one objective between scopes.
type DriftObjective struct {
	Name string `json:"name"`
	// From and To are the aggregates in each scope; Delta is To relative
	// to From, Low and High bound the ratio of geometric means minus one.
	From  Num `json:"from"`
	To    Num `json:"to"`
	Delta Num `json:"delta"`
	Low   Num `json:"delta_low"`
	High  Num `json:"delta_high"`
	// Verdict is improved, regressed (beyond the minimum improvement, at
	// the confidence level), unchanged (within the noise band both ways)
	// or uncertain.
	Verdict string `json:"verdict"`
}

// DriftWorkload is the baseline's move under one workload.
type DriftWorkload struct {
	Workload   string           `json:"workload"`
	FromRuns   int              `json:"from_runs"`
	ToRuns     int              `json:"to_runs"`
	Objectives []DriftObjective `json:"objectives"`
}

// Drift compares the same configuration measured in two scopes (for
// example the baseline before and after an engine upgrade), on every
// workload both measured, at two-sided level conf.
func Drift(objs []frontier.Objective, from, to Side, conf float64) []DriftWorkload {
	out := []DriftWorkload{}
	for _, m := range from.Workloads {
		n := to.find(m.Workload)
		if n == nil {
			continue
		}
		dw := DriftWorkload{Workload: m.Workload.String(), FromRuns: runs(&m), ToRuns: runs(n)}
		for i, o := range objs {
			dw.Objectives = append(dw.Objectives, driftObjective(o, m.Stats[i], n.Stats[i], conf))
		}
		out = append(out, dw)
	}
	return out
}

func driftObjective(o frontier.Objective, from, to repeat.Stat, conf float64) DriftObjective {
	iv := oriented(to, from, o)
	lo, hi := iv.Bounds(conf)
	win, loss, band, refBand := thresholds(o)
	d := DriftObjective{Name: o.Name, From: Num(from.Value), To: Num(to.Value), Delta: Num(repeat.Delta(to.Value, from.Value)), Verdict: Uncertain}
	switch {
	case lo > win:
		d.Verdict = Improved
	case hi < loss:
		d.Verdict = Regressed
	case lo >= band && hi <= refBand:
		d.Verdict = Unchanged
	}
	if o.Direction == frontier.Minimize {
		lo, hi = -hi, -lo
	}
	d.Low, d.High = Num(math.Expm1(lo)), Num(math.Expm1(hi))
	return d
}
