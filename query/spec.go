package query

import (
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Spec is a frontier question as a user writes it: the strings of pareto
// front's flags (or of the MCP front tool's arguments). Spec.Query turns
// it into a Query; it is the one place that does, so that every front of
// the command line and of the MCP server asks the same question.
type Spec struct {
	// Objectives are NAME[:min|:max], in order (ParseObjective).
	Objectives []string
	// Noise and MinImprove are NAME=PCT, or PCT for every objective
	// (ApplyPercents).
	Noise, MinImprove []string
	// SLOs are bounds NAME<=VALUE (also <, >=, >).
	SLOs []string
	// ID is the trial id column of tables; GroupBy gives one frontier per
	// value of a column.
	ID, GroupBy string
	// Ranks reports strict non-dominated ranks; FrontierOnly prints the
	// frontier and the size of every other list.
	Ranks, FrontierOnly bool
	// Ref is "", "auto" or one number per objective (hypervolume).
	Ref string
	// Aggregate combines repeats: median (the default when empty), mean or
	// none.
	Aggregate string
	// ConfigKeys are the params that identify a configuration.
	ConfigKeys []string
	// Baseline is a selection every point is grounded to; AllowCrossScope
	// accepts one measured in another environment.
	Baseline        string
	AllowCrossScope bool
}

// Query validates the spec into a query. Every error is a *field.Error
// naming the field and the value at fault.
func (s Spec) Query() (*Query, error) {
	q := &Query{ID: s.ID, GroupBy: s.GroupBy, Ranks: s.Ranks, FrontierOnly: s.FrontierOnly,
		ConfigKeys: s.ConfigKeys, Baseline: s.Baseline, AllowCrossScope: s.AllowCrossScope}
	if len(s.Objectives) == 0 {
		return nil, field.Required("objectives")
	}
	for _, o := range s.Objectives {
		obj, err := ParseObjective(o)
		if err != nil {
			return nil, err
		}
		if err := q.AddObjective(obj); err != nil {
			return nil, err
		}
	}
	if err := ApplyPercents(q.Objectives, s.Noise, "noise", NoiseBand, func(o *frontier.Objective, v float64) { o.Noise = v }); err != nil {
		return nil, err
	}
	if err := ApplyPercents(q.Objectives, s.MinImprove, "min_improve", MinImprove, func(o *frontier.Objective, v float64) { o.MinImprove = v }); err != nil {
		return nil, err
	}
	if err := q.Check(); err != nil {
		return nil, err
	}
	for _, b := range s.SLOs {
		slo, err := frontier.ParseSLO(b)
		if err != nil {
			return nil, &field.Error{Field: "slo", Value: b, Err: err, Named: true}
		}
		q.SLOs = append(q.SLOs, slo)
	}
	if err := q.ParseReference(s.Ref); err != nil {
		return nil, err
	}
	agg := s.Aggregate
	if agg == "" {
		agg = "median"
	}
	a, err := repeat.ParseAggregation(agg)
	if err != nil {
		return nil, &field.Error{Field: "aggregate", Value: agg, Err: err}
	}
	q.Aggregate = a
	if s.Baseline != "" {
		if _, err := repeat.ParseSelection(s.Baseline); err != nil {
			return nil, &field.Error{Field: "baseline", Value: s.Baseline, Err: err}
		}
	}
	return q, nil
}

// DecideObjectives validates the objectives of a decision (gate, drift,
// tune, ask): Spec's objectives, minimum improvements and SLOs, with each
// objective's noise band defaulting to its minimum improvement, and every
// name a metric selector. Errors are *field.Error.
func DecideObjectives(objectives, noise, minImprove, slos []string) ([]frontier.Objective, []frontier.SLO, error) {
	q, err := Spec{Objectives: objectives, MinImprove: minImprove, SLOs: slos}.Query()
	if err != nil {
		return nil, nil, err
	}
	objs := q.Objectives
	for i := range objs {
		objs[i].Noise = objs[i].MinImprove
	}
	if err := ApplyPercents(objs, noise, "noise", NoiseBand, func(o *frontier.Objective, v float64) { o.Noise = v }); err != nil {
		return nil, nil, err
	}
	for _, o := range objs {
		if _, err := trial.ParseSelector(o.Name); err != nil {
			return nil, nil, &field.Error{Field: "objective", Value: o.Name, Err: err, Named: true}
		}
	}
	for _, b := range q.SLOs {
		if _, err := trial.ParseSelector(b.Name); err != nil {
			return nil, nil, &field.Error{Field: "slo", Value: b.String(), Err: err, Named: true}
		}
	}
	return objs, q.SLOs, nil
}
