package decide

import (
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Selection picks trials: a condition on labels, parameters or workload
// (KEY=VALUE, as trial.ParseCondition), "key:HEX" for a configuration or
// repeat key prefix, or "id:HEX" for a trial ID prefix.
type Selection struct {
	// Raw is the text the selection was parsed from.
	Raw  string
	cond *trial.Condition
	key  string
	id   string
}

// ParseSelection parses a baseline or candidate selection.
func ParseSelection(s string) (Selection, error) {
	sel := Selection{Raw: s}
	switch {
	case strings.HasPrefix(s, "key:"):
		sel.key = strings.ToLower(s[len("key:"):])
		if len(sel.key) < 4 {
			return sel, fmt.Errorf("selection %q: want key: followed by at least 4 hex digits", s)
		}
	case strings.HasPrefix(s, "id:"):
		sel.id = strings.ToLower(s[len("id:"):])
		if len(sel.id) < 4 {
			return sel, fmt.Errorf("selection %q: want id: followed by at least 4 hex digits", s)
		}
	default:
		c, err := trial.ParseCondition(s)
		if err != nil {
			return sel, fmt.Errorf("selection %q: want KEY=VALUE, key:HEX or id:HEX", s)
		}
		sel.cond = &c
	}
	return sel, nil
}

// empty reports whether s is the zero Selection, which selects nothing
// meaningful.
func (s Selection) empty() bool { return s.cond == nil && s.key == "" && s.id == "" }

// Match reports whether trial t of group g is selected.
func (s Selection) Match(g *Group, t *trial.Trial) bool {
	switch {
	case s.cond != nil:
		return s.cond.Match(t)
	case s.key != "":
		return matchesKey(g.Config, s.key) || matchesKey(g.Key, s.key)
	default:
		return matchesKey(t.ID, s.id)
	}
}

// Select returns the groups with at least one selected trial. A trial ID
// selects its whole configuration: every workload of it.
func Select(groups []Group, s Selection) []*Group {
	configs := map[string]bool{}
	for i := range groups {
		for _, t := range groups[i].Trials {
			if s.Match(&groups[i], t) {
				configs[groups[i].Config] = true
			}
		}
	}
	var out []*Group
	for i := range groups {
		if configs[groups[i].Config] {
			out = append(out, &groups[i])
		}
	}
	return out
}

// Arm is one configuration measured on one or more workloads, one group
// per workload.
type Arm struct {
	// Name says how the arm was chosen (a selection or a configuration key).
	Name   string
	Config string
	Scope  Scope
	Groups []*Group
}

// Workload returns the arm's group for w, or nil.
func (a *Arm) Workload(w Workload) *Group {
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
func Arms(groups []*Group) []Arm {
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
func Baseline(groups []Group, s Selection, scope Scope, allowCross bool) (Arm, error) {
	matched := Select(groups, s)
	if len(matched) == 0 {
		return Arm{}, &BaselineError{Name: s.Raw}
	}
	newest := matched[0]
	var in []*Group
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
			return Arm{}, &ScopeError{A: "candidate", B: "baseline", Diffs: scope.Diff(newest.Scope)}
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
func newestPerWorkload(name string, groups []*Group) Arm {
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

// BaselineAt chooses the baseline a point measured in scope at workload w
// is compared with, among the selected groups (Select): the newest
// measured in scope at w. When the baseline was measured at w only in
// other scopes the result is a *ScopeError naming the differing values,
// unless allowCross, which takes the newest of them (cross reports it).
// It is nil, with no error, when the baseline was never measured at w.
func BaselineAt(selected []*Group, scope Scope, w Workload, allowCross bool) (g *Group, cross bool, err error) {
	var same, other *Group
	for _, h := range selected {
		if h.Workload != w {
			continue
		}
		if h.Scope == scope {
			if same == nil || h.Newest > same.Newest {
				same = h
			}
		} else if other == nil || h.Newest > other.Newest {
			other = h
		}
	}
	switch {
	case same != nil:
		return same, false, nil
	case other == nil:
		return nil, false, nil
	case allowCross:
		return other, true, nil
	}
	return nil, false, &ScopeError{A: "candidate", B: "baseline", Diffs: scope.Diff(other.Scope)}
}
