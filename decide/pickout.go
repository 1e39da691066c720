package decide

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// PickSpec is a pick as the user writes it: the strings of pareto pick's
// flags (or of the MCP pick tool's arguments).
type PickSpec struct {
	// Maximize and Minimize are objective metrics; the first of Maximize
	// (else of Minimize) is primary, the others break ties in order.
	Maximize, Minimize []string
	// SLOs are bounds NAME<=VALUE (also <, >=, >).
	SLOs []string
	// Aggregate is median (when empty), mean or none; Relax prices each
	// binding bound (10% when empty).
	Aggregate, Relax string
	// ConfigKeys are the params that identify a configuration.
	ConfigKeys []string
}

// Request validates the spec into the library's request. Every error is a
// *field.Error (maximize or minimize, slo, objective, aggregate, relax).
func (s PickSpec) Request() (PickRequest, error) {
	req := PickRequest{ConfigKeys: s.ConfigKeys}
	var objs []frontier.Objective
	for _, m := range s.Maximize {
		objs = append(objs, frontier.Objective{Name: m, Direction: frontier.Maximize})
	}
	for _, m := range s.Minimize {
		objs = append(objs, frontier.Objective{Name: m, Direction: frontier.Minimize})
	}
	if len(objs) == 0 {
		return req, field.Required("maximize", "minimize")
	}
	req.Pick.Primary, req.Pick.Others = objs[0], objs[1:]
	var names []string
	for _, o := range objs {
		names = append(names, o.Name)
	}
	for _, b := range s.SLOs {
		slo, err := frontier.ParseSLO(b)
		if err != nil {
			return req, &field.Error{Field: "slo", Value: b, Err: err, Named: true}
		}
		req.Pick.SLOs = append(req.Pick.SLOs, slo)
		names = append(names, slo.Name)
	}
	for _, n := range names {
		if _, err := trial.ParseSelector(n); err != nil {
			return req, &field.Error{Field: "objective", Value: n, Err: err, Named: true}
		}
	}
	agg, relax := s.Aggregate, s.Relax
	if agg == "" {
		agg = "median"
	}
	if relax == "" {
		relax = "10%"
	}
	var err error
	if req.Aggregation, err = repeat.ParseAggregation(agg); err != nil {
		return req, &field.Error{Field: "aggregate", Value: agg, Err: err, Named: true}
	}
	if req.Pick.Relax, err = query.ParsePercent(relax); err != nil || req.Pick.Relax == 0 {
		return req, field.Wrap("relax", relax, errors.New("want a positive percentage such as 10%"))
	}
	return req, nil
}

// PickOutput is a pick as JSON (docs/schema/pick.schema.json), the same
// for pareto pick --format json and the MCP pick tool.
type PickOutput struct {
	Feasible bool           `json:"feasible" jsonschema:"whether a configuration meets every bound"`
	Choice   *PickPoint     `json:"choice" jsonschema:"the configuration chosen (null when nothing is feasible)"`
	Binding  []PickBinding  `json:"binding" jsonschema:"the binding bounds and what relaxing each would buy"`
	Closest  []PickClosest  `json:"closest" jsonschema:"when nothing is feasible: the closest configurations and what they violate"`
	Excluded []PickExcluded `json:"excluded" jsonschema:"points within every bound whose configuration violates one at another workload"`
}

// PickExcluded is a point within every bound whose configuration violates
// one at another workload.
type PickExcluded struct {
	Config   string `json:"config"`
	Workload string `json:"workload"`
}

// PickPoint is the chosen configuration at one workload.
type PickPoint struct {
	Config        string               `json:"config"`
	Workload      string               `json:"workload"`
	Scope         repeat.Scope         `json:"scope"`
	Trials        []string             `json:"trials"`
	Values        map[string]PickValue `json:"values"`
	Configuration map[string]string    `json:"configuration"`
}

// PickValue is a measured value: exact, as pareto front prints it (IQR,
// derived, has 6 significant digits).
type PickValue struct {
	Value ExactNum `json:"value"`
	N     int      `json:"n"`
	Min   ExactNum `json:"min"`
	Max   ExactNum `json:"max"`
	IQR   Num      `json:"iqr"`
}

// ExactNum renders a number in shortest round-trip form, null when not
// finite.
type ExactNum float64

// MarshalJSON implements json.Marshaler.
func (n ExactNum) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler: null reads as NaN (Num).
func (n *ExactNum) UnmarshalJSON(b []byte) error { return unmarshalNum((*float64)(n), b) }

// PickBinding is a binding bound: relaxed, the primary objective would
// reach Value (a Gain) with configuration With.
type PickBinding struct {
	Bound   string `json:"bound"`
	Relaxed string `json:"relaxed"`
	Value   Num    `json:"value"`
	Gain    Num    `json:"gain"`
	With    string `json:"with"`
}

// PickClosest is an infeasible configuration near the bounds.
type PickClosest struct {
	Config     string   `json:"config"`
	Workload   string   `json:"workload"`
	Violations []string `json:"violations"`
}

// PickColumns returns the columns of the points' Stats (the primary
// objective, the others, then the SLOs' metrics), each name once, with
// its first column.
func PickColumns(cfg PickConfig) ([]string, []int) {
	all := []string{cfg.Primary.Name}
	for _, o := range cfg.Others {
		all = append(all, o.Name)
	}
	for _, s := range cfg.SLOs {
		all = append(all, s.Name)
	}
	var names []string
	var cols []int
	for i, n := range all {
		if !slices.Contains(names, n) {
			names, cols = append(names, n), append(cols, i)
		}
	}
	return names, cols
}

// NewPickOutput renders the answer rep to req.
func NewPickOutput(rep PickReport, req PickRequest) PickOutput {
	label := func(p int) string {
		g := rep.Points[p].Group
		return "key:" + g.Config + " on " + g.Workload.String()
	}
	out := PickOutput{Feasible: rep.Choice >= 0, Binding: []PickBinding{}, Closest: []PickClosest{}, Excluded: []PickExcluded{}}
	for _, p := range rep.Excluded {
		g := rep.Points[p].Group
		out.Excluded = append(out.Excluded, PickExcluded{"key:" + g.Config, g.Workload.String()})
	}
	if rep.Choice >= 0 {
		pt := rep.Points[rep.Choice]
		c := &PickPoint{Config: "key:" + pt.Group.Config, Workload: pt.Group.Workload.String(), Scope: pt.Group.Scope,
			Trials: pt.Group.IDs(), Values: map[string]PickValue{}, Configuration: pt.Group.Params(req.ConfigKeys)}
		names, cols := PickColumns(req.Pick)
		for i, n := range names {
			s := pt.Stats[cols[i]]
			c.Values[n] = PickValue{ExactNum(s.Value), s.N, ExactNum(s.Min), ExactNum(s.Max), Num(s.IQR())}
		}
		out.Choice = c
	}
	for _, b := range rep.Binding {
		out.Binding = append(out.Binding, PickBinding{b.SLO.String(), b.Relaxed.String(), Num(b.Value), Num(b.Gain), label(b.Choice)})
	}
	for _, c := range rep.Closest {
		v := []string{}
		for _, x := range c.Violations {
			v = append(v, x.String())
		}
		g := rep.Points[c.Point].Group
		out.Closest = append(out.Closest, PickClosest{"key:" + g.Config, g.Workload.String(), v})
	}
	return out
}
