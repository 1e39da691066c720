package decide

import (
	"fmt"
	"github.com/pareto-llm/pareto/repeat"
)

// Arm is one configuration measured on one or more workloads, one group
// per workload.
type Arm struct {
	// Name says how the arm was chosen (a selection or a configuration key).
	Name   string
	Config string
	Scope  repeat.Scope
	Groups []*repeat.Group
}

// Workload returns the arm's group for w, or nil.
func (a *Arm) Workload(w repeat.Workload) *repeat.Group {
	for _, g := range a.Groups {
		if g.Workload == w {
			return g
		}
	}
	return nil
}

// IDs returns the trial IDs of every group, sorted within each group.
func (a *Arm) IDs() []string {
	var out []string
	for _, g := range a.Groups {
		out = append(out, g.IDs()...)
	}
	return out
}

// Arms gathers groups into arms, one per configuration key, in order of
// first appearance.
func Arms(groups []*repeat.Group) []Arm {
	index := map[string]int{}
	var out []Arm
	for _, g := range groups {
		j, ok := index[g.Config]
		if !ok {
			j = len(out)
			index[g.Config] = j
			out = append(out, Arm{Name: "key:" + g.Config, Config: g.Config, Scope: g.Scope})
		}
		out[j].Groups = append(out[j].Groups, g)
	}
	return out
}

// Baseline chooses the baseline among groups: the selected groups measured
// in scope, keeping per workload the one measured last (the newest
// re-benchmark). When the baseline was never measured in scope the result
// is a *ScopeError naming the differing values, unless allowCross, in which
// case the newest selected scope is used.
func Baseline(groups []repeat.Group, s repeat.Selection, scope repeat.Scope, allowCross bool) (Arm, error) {
	matched := repeat.Select(groups, s)
	if len(matched) == 0 {
		return Arm{}, &BaselineError{Name: s.Raw}
	}
	newest := matched[0]
	var in []*repeat.Group
	for _, g := range matched {
		if g.Newest > newest.Newest {
			newest = g
		}
		if g.Scope == scope {
			in = append(in, g)
		}
	}
	if len(in) == 0 {
		if !allowCross {
			return Arm{}, &repeat.ScopeError{A: "candidate", B: "baseline", Diffs: scope.Diff(newest.Scope)}
		}
		for _, g := range matched {
			if g.Scope == newest.Scope {
				in = append(in, g)
			}
		}
	}
	return newestPerWorkload(s.Raw, in), nil
}

// BaselineError is a baseline that matches no trial, or none of the
// session asked for.
type BaselineError struct {
	// Name is how the baseline was given; Session the session asked for
	// (empty: any).
	Name, Session string
}

// Error renders `baseline "role=baseline" matches no trial` or `baseline
// "role=baseline" has no run in session "s1"`.
func (e *BaselineError) Error() string {
	if e.Session != "" {
		return fmt.Sprintf("baseline %q has no run in session %q", e.Name, e.Session)
	}
	return fmt.Sprintf("baseline %q matches no trial", e.Name)
}

// newestPerWorkload keeps, per workload, the group measured last.
func newestPerWorkload(name string, groups []*repeat.Group) Arm {
	arm := Arm{Name: name}
	for _, g := range groups {
		found := false
		for i, h := range arm.Groups {
			if h.Workload == g.Workload {
				found = true
				if g.Newest > h.Newest {
					arm.Groups[i] = g
				}
			}
		}
		if !found {
			arm.Groups = append(arm.Groups, g)
		}
	}
	if len(arm.Groups) > 0 {
		last := arm.Groups[0]
		for _, g := range arm.Groups {
			if g.Newest > last.Newest {
				last = g
			}
		}
		arm.Config, arm.Scope = last.Config, last.Scope
	}
	return arm
}
