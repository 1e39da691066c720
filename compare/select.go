package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Trials is one side's trials before the query: a name and the runs.
type Trials struct {
	Name   string
	Trials []trial.Trial
	// Keys are the condition keys that selected the side (the fields the
	// sides may differ on without crossing scopes).
	Keys []string
}

// ParseSides reads side selections: each a condition (KEY=VALUE, also !=,
// <, <=, >, >=, as --where); "=VALUE" takes the key of the side before it
// (engine_version=0.10.0 =0.11.0).
func ParseSides(specs []string) ([]trial.Condition, error) {
	var out []trial.Condition
	for _, s := range specs {
		if strings.HasPrefix(s, "=") {
			if len(out) == 0 {
				return nil, fmt.Errorf("side %q: a side starting with = needs a KEY=VALUE side before it", s)
			}
			s = out[len(out)-1].Key + s
		}
		c, err := trial.ParseCondition(s)
		if err != nil {
			return nil, fmt.Errorf("side %q: want a result path or KEY=VALUE", s)
		}
		out = append(out, c)
	}
	return out, nil
}

// Select returns the trials of pool that c selects, as a side named c.
func Select(pool []trial.Trial, c trial.Condition) Trials {
	s := Trials{Name: c.String(), Keys: []string{c.Key}}
	for i := range pool {
		if c.Match(&pool[i]) {
			s.Trials = append(s.Trials, pool[i])
		}
	}
	return s
}

// SplitBy returns one side per value of key among pool's trials, in
// natural order of the values (0.9 before 0.10); trials without the key
// are left out.
func SplitBy(pool []trial.Trial, key string) []Trials {
	by := map[string][]trial.Trial{}
	c := trial.Condition{Key: key}
	for i := range pool {
		if v, ok := c.ValueOf(&pool[i]); ok {
			by[v] = append(by[v], pool[i])
		}
	}
	values := make([]string, 0, len(by))
	for v := range by {
		values = append(values, v)
	}
	slices.SortFunc(values, naturalCompare)
	out := make([]Trials, len(values))
	for i, v := range values {
		out[i] = Trials{Name: key + "=" + v, Trials: by[v], Keys: []string{key}}
	}
	return out
}

// naturalCompare orders strings with their digit runs compared as numbers,
// so that versions sort as released (0.9.0 < 0.10.0).
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:da], 10, 64)
			nb, _ := strconv.ParseUint(b[:db], 10, 64)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return strings.Compare(a[:1], b[:1])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && n < 18 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// scopeField returns the environment scope field a condition key names
// (engine_version for "engine_version" or its labels), or "".
func scopeField(key string) string {
	key = strings.TrimPrefix(strings.TrimPrefix(key, "labels."), "label.")
	for _, e := range trial.ScopeLabels {
		if e.Column == key || slices.Contains(e.Labels, key) {
			return e.Column
		}
	}
	return ""
}

// CheckScopes applies the drift rules to the sides: trials compared must
// share their environment scope (engine, engine version, CUDA, driver,
// GPU, Dynamo release) except on the fields the sides were selected by (engine also frees
// the engine version: two engines have their own versions). A side that
// mixes scopes, or a pair of sides that differ on another field, is a
// *repeat.ScopeError naming the values.
func CheckScopes(sides []Trials) error {
	allowed := map[string]bool{}
	for _, s := range sides {
		for _, k := range s.Keys {
			if f := scopeField(k); f != "" {
				allowed[f] = true
				if f == "engine" {
					allowed["engine_version"] = true
				}
			}
		}
	}
	scopes := make([][]repeat.Scope, len(sides))
	for i, s := range sides {
		for j := range s.Trials {
			if sc := repeat.ScopeOf(&s.Trials[j]); !slices.Contains(scopes[i], sc) {
				scopes[i] = append(scopes[i], sc)
			}
		}
		for _, sc := range scopes[i][min(1, len(scopes[i])):] {
			if d := scopes[i][0].Diff(sc); len(d) > 0 {
				return fmt.Errorf("side %s mixes environments: %w", s.Name, &repeat.ScopeError{A: "some of its trials", B: "others", Diffs: d})
			}
		}
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			for _, a := range scopes[i] {
				for _, b := range scopes[j] {
					var diffs []repeat.ScopeDiff
					for _, d := range a.Diff(b) {
						if !allowed[d.Field] {
							diffs = append(diffs, d)
						}
					}
					if len(diffs) > 0 {
						return &repeat.ScopeError{A: sides[i].Name, B: sides[j].Name, Diffs: diffs}
					}
				}
			}
		}
	}
	return nil
}

// FromTrials runs the query over one side's trials (repeats combined,
// SLOs applied, frontiers computed as pareto front does) and returns the
// side with the query's warnings.
func FromTrials(q *query.Query, t Trials) (*Side, []string, error) {
	rows := query.NewRows(q)
	rows.AddTrials(t.Trials)
	res, err := query.Run(q, rows)
	if err != nil {
		return nil, nil, err
	}
	return FromResult(t.Name, res), res.Warnings(), nil
}

// BaselineDrift compares the baseline measured in side a and in side b
// (decide.Drift, as pareto drift does): the newest repeats the selection
// picks in each side's environment. It is nil, with the reason, when
// either side lacks the baseline or they share no workload.
func BaselineDrift(a, b Trials, sel repeat.Selection, keys []string, objs []frontier.Objective, conf float64) (*decide.DriftReport, string, error) {
	sels := make([]trial.Selector, len(objs))
	for i, o := range objs {
		s, err := trial.ParseSelector(o.Name)
		if err != nil {
			return nil, "", err
		}
		sels[i] = s
	}
	var measured [2]decide.Side
	var scopes [2]repeat.Scope
	for i, t := range []Trials{a, b} {
		groups := repeat.GroupRepeats(t.Trials, keys)
		picked := repeat.Select(groups, sel)
		if len(picked) == 0 {
			return nil, fmt.Sprintf("the baseline %s is not in %s", sel.Raw, t.Name), nil
		}
		scopes[i] = picked[0].Scope
		arm, err := decide.Baseline(groups, sel, scopes[i], false)
		if err != nil {
			return nil, "", err
		}
		arm.Name = t.Name
		if measured[i], err = decide.MeasureArm(arm, sels); err != nil {
			return nil, "", err
		}
	}
	rep := &decide.DriftReport{Baseline: sel.Raw, From: scopes[0], To: scopes[1], Differs: scopes[0].Diff(scopes[1]),
		Workloads: decide.Drift(objs, measured[0], measured[1], conf)}
	if rep.Differs == nil {
		rep.Differs = []repeat.ScopeDiff{}
	}
	if len(rep.Workloads) == 0 {
		return nil, fmt.Sprintf("the baseline %s shares no workload between %s and %s", sel.Raw, a.Name, b.Name), nil
	}
	return rep, "", nil
}
