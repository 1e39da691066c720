package repeat

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

// IsZero reports whether s is the zero Selection, which selects nothing
// meaningful.
func (s Selection) IsZero() bool { return s.cond == nil && s.key == "" && s.id == "" }

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
