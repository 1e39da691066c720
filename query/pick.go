package query

import (
	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// Pick answers req over ts: the trials become the query's points (the same
// repeat identity, aggregation and exclusions as pareto front and the
// report), and decide.Pick chooses among them. Nothing feasible is an
// answer, not an error: Choice is -1 and Closest lists the nearest misses.
// An objective or SLO that is not a metric selector is an error.
func Pick(ts []trial.Trial, req decide.PickRequest) (decide.PickReport, error) {
	q := &Query{Objectives: append([]frontier.Objective{req.Pick.Primary}, req.Pick.Others...), SLOs: req.Pick.SLOs,
		Aggregate: req.Aggregation, ConfigKeys: req.ConfigKeys}
	for _, o := range q.Objectives {
		if _, err := trial.ParseSelector(o.Name); err != nil {
			return decide.PickReport{}, err
		}
	}
	for _, s := range q.SLOs {
		if _, err := trial.ParseSelector(s.Name); err != nil {
			return decide.PickReport{}, err
		}
	}
	rows := NewRows(q)
	rows.AddTrials(ts)
	res, err := Run(q, rows)
	if err != nil {
		return decide.PickReport{}, err
	}
	points := res.DecidePoints()
	return decide.PickReport{Points: points, PickResult: decide.Pick(points, req.Pick)}, nil
}
