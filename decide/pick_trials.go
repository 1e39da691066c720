package decide

import (
	"errors"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/trial"
)

// RunPick answers req over ts: the trials become the query's points (the same
// repeat identity, aggregation and exclusions as pareto front and the
// report), and Pick chooses among them. Nothing feasible is an
// answer, not an error: Choice is -1 and Closest lists the nearest misses.
// An objective or SLO that is not a metric selector is an error, and so
// are trials none of which has every objective and SLO (query.Unusable).
func RunPick(ts []trial.Trial, req PickRequest) (PickReport, error) {
	q := &query.Query{Objectives: append([]frontier.Objective{req.Pick.Primary}, req.Pick.Others...), SLOs: req.Pick.SLOs,
		Aggregate: req.Aggregation, ConfigKeys: req.ConfigKeys}
	for _, o := range q.Objectives {
		if _, err := trial.ParseSelector(o.Name); err != nil {
			return PickReport{}, err
		}
	}
	for _, s := range q.SLOs {
		if _, err := trial.ParseSelector(s.Name); err != nil {
			return PickReport{}, err
		}
	}
	rows := query.NewRows(q)
	rows.AddTrials(ts)
	res, err := query.Run(q, rows)
	if err != nil {
		return PickReport{}, err
	}
	if n, p := res.Unusable(); n > 0 {
		return PickReport{}, errors.New(query.UnusableText(n, p))
	}
	points := res.DecidePoints()
	return PickReport{Points: points, PickResult: Pick(points, req.Pick)}, nil
}
