package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/compare"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Comparison is one comparison the page draws (assets/report-compare.js):
// both frontiers of every pair, the uplift curve and the bucket values.
type Comparison struct {
	// Name titles it; Plot names the plot it follows, empty on a page of
	// comparisons alone (pareto compare --html).
	Name string `json:"name"`
	Plot string `json:"plot,omitempty"`
	// X and Y describe the axes (the report's first two objectives).
	X AxisInfo `json:"x"`
	Y AxisInfo `json:"y"`
	// Report is the comparison (docs/schema/compare.schema.json).
	Report *compare.Report `json:"report"`
}

// ComparisonPage returns a page of one comparison named name: a report of
// two objectives, drawn as its sides' frontiers, uplift curve and buckets.
func ComparisonPage(title, name string, rep *compare.Report) (*Page, error) {
	if len(rep.Objectives) != 2 {
		return nil, fmt.Errorf("a comparison page needs two objectives, have %d", len(rep.Objectives))
	}
	c := Comparison{Name: name, Report: rep, X: reportAxis(rep.Objectives[0]), Y: reportAxis(rep.Objectives[1])}
	return &Page{Title: title, Plots: []PagePlot{}, Layouts: []*trial.Layout{}, Configs: []ConfigFile{},
		Exclusions: []Exclusion{}, Aggregate: "median", Comparisons: []Comparison{c}, Warnings: rep.Warnings}, nil
}

// reportAxis describes a report's objective as an axis, with the unit
// the metric registry gives it.
func reportAxis(o compare.Objective) AxisInfo {
	a := AxisInfo{Label: o.Name, Metric: o.Name, Direction: o.Direction, Noise: float64(o.Noise), MinImprove: float64(o.MinImprove)}
	if sel, err := trial.ParseSelector(o.Name); err == nil {
		if m, ok := trial.Lookup(sel.Metric); ok {
			a.Metric, a.Unit = sel.Metric, m.Unit
		}
	}
	return a
}

// comparison decodes a plot's compare, at and interpolate keys: compare
// names at least two of the plot's frontiers.
func (d *decoder) comparison(path string, m map[string]any, p *Plot) {
	names, pos := d.strList(join(path, "compare"), m["compare"])
	if m["compare"] == nil {
		for _, k := range []string{"at", "interpolate"} {
			if m[k] != nil {
				d.errorf(join(path, k), "%s needs compare = [FRONTIER, FRONTIER, ...]", k)
			}
		}
		return
	}
	if len(names) < 2 {
		d.errorf(join(path, "compare"), "compare names at least two of the plot's frontiers")
	}
	for i, n := range names {
		if !slices.ContainsFunc(p.Frontiers, func(f FrontierSpec) bool { return f.Name == n }) {
			d.errs = append(d.errs, configError(d.file, pos[i], fmt.Sprintf("compare: %q is not a frontier of the plot (frontiers: %s)", n, frontierNames(p.Frontiers))))
		}
	}
	p.Compare = names
	if v := m["at"]; v != nil {
		list, ok := v.([]any)
		if !ok {
			d.errorf(join(path, "at"), "at must be an array of numbers, got %s", typeName(v))
		}
		for i, el := range list {
			p.Buckets = append(p.Buckets, d.number(join(join(path, "at"), itoa(i)), el))
		}
	}
	if v := m["interpolate"]; v != nil {
		s := d.str(join(path, "interpolate"), v, true)
		var ok bool
		if p.Interpolation, ok = compare.ParseInterpolation(s); !ok {
			d.errorf(join(path, "interpolate"), "interpolate must be \"step\" or \"linear\", got %q", s)
		}
	}
}

func frontierNames(fs []FrontierSpec) string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%q", f.Name))
	}
	return strings.Join(out, ", ")
}

// comparison compares the plot's frontiers named by Compare: each side is
// the usable trials its frontier selects, their repeats combined by the
// median (or the mean) even on a page of single runs, so that the
// comparison has its uncertainty.
func (b *builder) comparison(p *Plot) (Comparison, error) {
	objs := []frontier.Objective{p.X.Objective(), p.Y.Objective()}
	strict := slices.Clone(objs)
	for i := range strict {
		strict[i].Noise, strict[i].MinImprove = 0, 0
	}
	agg := b.opts.Aggregate
	if agg == repeat.None {
		agg = repeat.Median
	}
	q := &query.Query{Objectives: strict, Aggregate: agg, ConfigKeys: b.opts.ConfigKeys}
	for _, s := range p.SLOs {
		q.SLOs = append(q.SLOs, s.slo())
	}
	var sides []*compare.Side
	var warnings []string
	for _, name := range p.Compare {
		f := &p.Frontiers[slices.IndexFunc(p.Frontiers, func(f FrontierSpec) bool { return f.Name == name })]
		t := compare.Trials{Name: name}
		for i := range b.trials {
			if b.usable[i] && selects(f, &b.trials[i]) {
				t.Trials = append(t.Trials, b.trials[i])
			}
		}
		s, w, err := compare.FromTrials(q, t)
		if err != nil {
			return Comparison{}, fmt.Errorf("plot %q, compare %q: %w", p.Name, name, err)
		}
		if len(s.Points) == 0 {
			return Comparison{}, fmt.Errorf("plot %q, compare %q: the frontier has no feasible point", p.Name, name)
		}
		sides, warnings = append(sides, s), append(warnings, w...)
	}
	rep, err := compare.Run(sides, compare.Options{Objectives: objs, At: p.Buckets, Interpolation: p.Interpolation,
		Aggregate: agg, Seed: 1})
	if err != nil {
		return Comparison{}, fmt.Errorf("plot %q: %w", p.Name, err)
	}
	for _, w := range warnings {
		if !slices.Contains(rep.Warnings, w) {
			rep.Warnings = append(rep.Warnings, w)
		}
	}
	return Comparison{Name: p.Name, Plot: p.Name, X: axisInfo(&p.X), Y: axisInfo(&p.Y), Report: rep}, nil
}
