package decide

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// The Run functions answer a question of trials end to end: they group
// the trials into repeats, measure the groups and decide, so that every
// caller (the command line among them) gets the same answer.

// PickRequest is Pick's question of trials (answered by RunPick).
type PickRequest struct {
	// ConfigKeys, when set, are the only params that identify a
	// configuration (see repeat.Config).
	ConfigKeys []string
	// Aggregation turns the repeats of a group into one value (None: every
	// trial is its own point).
	Aggregation repeat.Aggregation
	// Pick holds the objectives, whose names are metric selectors, and
	// the SLO bounds.
	Pick PickConfig
}

// PickReport is the answer to a PickRequest (RunPick computes it over
// the points of the query pipeline, as pareto front sees them).
type PickReport struct {
	// Points are the measured groups; each one's Stats hold the primary
	// objective, the other objectives, then the SLO columns. The indices
	// of the result refer to them.
	Points []repeat.Point
	PickResult
}

// Feasible reports whether a configuration meets every bound.
func (r *PickReport) Feasible() bool { return r.Choice >= 0 }

// NoiseRequest is EstimateNoise's question of trials.
type NoiseRequest struct {
	// ConfigKeys, when set, are the only params that identify a
	// configuration (see repeat.Config).
	ConfigKeys []string
	// Metrics are the metric selectors to estimate, in order.
	Metrics []string
	// Confidence is the level of the interval on each coefficient of
	// variation.
	Confidence float64
	// MinRepeats lists the groups with fewer repeats in Few.
	MinRepeats int
}

// RunNoise groups ts into repeats and estimates the run-to-run noise of
// each metric (EstimateNoise).
func RunNoise(ts []trial.Trial, req NoiseRequest) (NoiseReport, error) {
	sels := make([]trial.Selector, len(req.Metrics))
	for i, m := range req.Metrics {
		sel, err := trial.ParseSelector(m)
		if err != nil {
			return NoiseReport{}, err
		}
		sels[i] = sel
	}
	points := repeat.Measure(groupPtrs(repeat.GroupRepeats(ts, req.ConfigKeys)), sels, repeat.Median)
	return EstimateNoise(points, req.Metrics, req.Confidence, req.MinRepeats), nil
}

// DriftRequest is Drift's question of trials: how the baseline moved
// between two environments.
type DriftRequest struct {
	// ConfigKeys, when set, are the only params that identify a
	// configuration (see repeat.Config).
	ConfigKeys []string
	// Baseline selects the baseline configuration.
	Baseline repeat.Selection
	// From and To select the two environments among the baseline's
	// trials (each must select exactly one). When both are zero, the
	// baseline must have been measured in exactly two environments, which
	// are compared in the order they were first seen.
	From, To repeat.Selection
	// Objectives are compared, in order; their names are metric
	// selectors.
	Objectives []frontier.Objective
	// Confidence is the level of the interval on each change.
	Confidence float64
}

// DriftReport is RunDrift's answer.
type DriftReport struct {
	Baseline string             `json:"baseline"`
	From     repeat.Scope       `json:"from"`
	To       repeat.Scope       `json:"to"`
	Differs  []repeat.ScopeDiff `json:"differs"`
	// Workloads holds the baseline's move under every workload measured
	// in both environments.
	Workloads []DriftWorkload `json:"workloads"`
}

// EnvironmentsError is a baseline not measured in exactly two
// environments, when the request does not name them.
type EnvironmentsError struct {
	// Scopes are the environments the baseline was measured in.
	Scopes []repeat.Scope
}

// Error renders "the baseline was measured in 3 environments (…; …; …)".
func (e *EnvironmentsError) Error() string {
	names := make([]string, len(e.Scopes))
	for i, s := range e.Scopes {
		names[i] = s.String()
	}
	return fmt.Sprintf("the baseline was measured in %d environments (%s)", len(e.Scopes), strings.Join(names, "; "))
}

// RunDrift groups ts into repeats, chooses the baseline's two
// environments and compares the newest baseline measured in each (Drift).
// A baseline that shares no workload between them is an error; so is one
// measured in other than two environments when From and To are zero
// (*EnvironmentsError).
func RunDrift(ts []trial.Trial, req DriftRequest) (DriftReport, error) {
	sels, err := selectors(req.Objectives, nil)
	if err != nil {
		return DriftReport{}, err
	}
	groups := repeat.GroupRepeats(ts, req.ConfigKeys)
	from, to, err := driftScopes(groups, &req)
	if err != nil {
		return DriftReport{}, err
	}
	sides := make([]Side, 2)
	for i, sc := range []repeat.Scope{from, to} {
		arm, err := Baseline(groups, req.Baseline, sc, false)
		if err != nil {
			return DriftReport{}, err
		}
		arm.Name = sc.String()
		if sides[i], err = MeasureArm(arm, sels); err != nil {
			return DriftReport{}, err
		}
	}
	rep := DriftReport{Baseline: req.Baseline.Raw, From: from, To: to, Differs: from.Diff(to),
		Workloads: Drift(req.Objectives, sides[0], sides[1], req.Confidence)}
	if len(rep.Workloads) == 0 {
		return rep, fmt.Errorf("the baseline shares no workload between %s and %s", from, to)
	}
	return rep, nil
}

// driftScopes returns the two environments to compare: those selected by
// From and To, else the only two the baseline was measured in.
func driftScopes(groups []repeat.Group, req *DriftRequest) (repeat.Scope, repeat.Scope, error) {
	var none repeat.Scope
	matched := repeat.Select(groups, req.Baseline)
	if len(matched) == 0 {
		return none, none, fmt.Errorf("baseline %q matches no trial", req.Baseline.Raw)
	}
	if req.From.IsZero() != req.To.IsZero() {
		return none, none, errors.New("drift: give both environments, or neither")
	}
	if !req.From.IsZero() {
		from, err := scopeOf(matched, req.From)
		if err != nil {
			return none, none, err
		}
		to, err := scopeOf(matched, req.To)
		return from, to, err
	}
	var scopes []repeat.Scope
	for _, g := range matched {
		if !slices.Contains(scopes, g.Scope) {
			scopes = append(scopes, g.Scope)
		}
	}
	if len(scopes) != 2 {
		return none, none, &EnvironmentsError{Scopes: scopes}
	}
	return scopes[0], scopes[1], nil
}

// scopeOf returns the one environment of the baseline groups that sel
// selects.
func scopeOf(groups []*repeat.Group, sel repeat.Selection) (repeat.Scope, error) {
	var scopes []repeat.Scope
	for _, g := range groups {
		for _, t := range g.Trials {
			if sel.Match(g, t) && !slices.Contains(scopes, g.Scope) {
				scopes = append(scopes, g.Scope)
			}
		}
	}
	if len(scopes) != 1 {
		return repeat.Scope{}, fmt.Errorf("%q selects the baseline in %d environments; want one", sel.Raw, len(scopes))
	}
	return scopes[0], nil
}

// groupPtrs returns a pointer to each group.
func groupPtrs(groups []repeat.Group) []*repeat.Group {
	out := make([]*repeat.Group, len(groups))
	for i := range groups {
		out[i] = &groups[i]
	}
	return out
}
