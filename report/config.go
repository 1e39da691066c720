package report

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/compare"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/trial"
)

// Config is a decoded [reports.pareto] table, from a CloudAI test-scenario
// TOML or from a standalone pareto.toml with the same tables.
type Config struct {
	// File is the file the configuration was read from.
	File string
	// Enable is [reports.pareto] enable. A scenario leaves the report off
	// unless it sets enable = true (as CloudAI does); a standalone file
	// defaults to on.
	Enable bool
	// Title names the report (the scenario name when there is one).
	Title string
	// Cases are the scenario's [[Tests]] ids in file order; nil for a
	// standalone file, whose cases are checked against the data instead.
	Cases []string
	// Plots are the [[reports.pareto.plots]] entries in file order.
	Plots []Plot
	// From says where ReadScenarioConfig found the table (FromScenario,
	// FromSystem or FromDefault); empty from ReadConfig and ParseConfig.
	From ConfigFrom
	// Notes say what ReadScenarioConfig passed over, e.g. the table of a
	// system TOML that is not a Slurm system's.
	Notes []string
}

// Plot is one chart: two axes and the frontier groups compared on them.
type Plot struct {
	// Name is the chart title; names are unique within a configuration.
	Name string
	// X and Y are the axis selectors.
	X, Y Axis
	// Frontiers are the comparison groups; at least one.
	Frontiers []FrontierSpec
	// SLOs are feasibility bounds applied before dominance (extension).
	SLOs []SLOSpec
	// GroupBy splits every frontier by the value of a label or parameter
	// (extension); CheckGroupBy checks it against the data, GroupByAt is
	// its position.
	GroupBy   string
	GroupByAt Pos
	// Compare, when set, names frontiers of the plot to compare (the
	// first against each other, package compare): the page draws both
	// frontiers, the uplift curve and the values at Buckets, read with
	// Interpolation (extension).
	Compare       []string
	Buckets       []float64
	Interpolation compare.Interpolation
	// At is the position of the plot's table.
	At Pos
}

// Axis selects one measurement per point and says how to compare and draw it.
type Axis struct {
	// Metric is a canonical metric key of the registry.
	Metric string
	// Match holds the dimensions the measurement must have (statistic,
	// phase, benchmark), statistic normalised (median → p50).
	Match trial.Dims
	// Direction is the metric's default direction unless overridden.
	Direction frontier.Direction
	// Noise and MinImprove are the relative noise band σ and minimum
	// improvement δ of the noise-aware frontier (extension).
	Noise, MinImprove float64
	// Log draws the axis on a log scale initially (extension). Without
	// the key, an axis whose values are all positive and span more than
	// two decades is drawn on a log scale (autoLog).
	Log bool
	// logGiven says the configuration set log.
	logGiven bool
	// Unit is the metric's unit.
	Unit string
	// At is the position of the axis key.
	At Pos
	// Custom says Metric is not a registry metric (a column of a generic
	// table): Config.CheckMetrics checks it against the data; MetricAt is
	// the position of its name.
	Custom   bool
	MetricAt Pos
}

// FrontierSpec is one named comparison group of a plot.
type FrontierSpec struct {
	// Name is the series name.
	Name string
	// Cases lists the test case ids it gathers; empty means all cases.
	Cases []string
	// CasePos are the positions of Cases' elements.
	CasePos []Pos
	// Match filters points by their context (phase, benchmark).
	Match trial.Dims
	// At is the position of the frontier's table.
	At Pos
}

// SLOSpec is a feasibility bound on a measurement (extension).
type SLOSpec struct {
	// Axis selects the measurement (Metric and Match only).
	Axis
	// Op and Bound form the bound, e.g. <= 400.
	Op    frontier.Op
	Bound float64
}

// Label renders the axis as a selector, e.g. "tpot.p99" or "ttft.p99{phase=x}".
func (a Axis) Label() string {
	m := trial.Measurement{Metric: a.Metric, Dims: a.Match}
	return m.String()
}

// Objective returns the frontier objective of the axis.
func (a Axis) Objective() frontier.Objective {
	return frontier.Objective{Name: a.Label(), Direction: a.Direction, Noise: a.Noise, MinImprove: a.MinImprove}
}

// ReadConfig reads a CloudAI test-scenario TOML or a standalone pareto.toml.
// A file with [[Tests]] is a scenario: its test ids are the known cases.
// Every problem is reported with its position; the error is a ConfigErrors
// or a *ConfigError.
func ReadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading report config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig decodes data as ReadConfig does; file names it in errors.
func ParseConfig(file string, data []byte) (*Config, error) {
	doc, err := decodeTOML(file, data)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: file, ix: position.IndexTOML(data)}
	return d.result(d.document(doc))
}

// decodeTOML decodes data, the TOML file named file, into a generic tree.
func decodeTOML(file string, data []byte) (map[string]any, error) {
	var doc map[string]any
	if err := position.DecodeTOML(file, data, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// result returns cfg, or the errors found, in file order.
func (d *decoder) result(cfg *Config) (*Config, error) {
	if len(d.errs) > 0 {
		d.errs.Sort()
		return nil, d.errs
	}
	return cfg, nil
}

// decoder walks the generic TOML tree, collecting positioned errors.
type decoder struct {
	file string
	ix   position.TOMLIndex
	errs ConfigErrors
}

func (d *decoder) errorf(path, format string, args ...any) {
	d.errs = append(d.errs, configError(d.file, d.ix[path], fmt.Sprintf(format, args...)))
}

// document decodes the top level: [[Tests]] (scenario) and [reports.pareto].
func (d *decoder) document(doc map[string]any) *Config {
	cfg := &Config{File: d.file, Enable: true}
	tests, scenario := doc["Tests"]
	if scenario {
		cfg.Enable = false
		cfg.Cases = d.testIDs(tests)
		cfg.Title, _ = doc["name"].(string)
	} else {
		d.keys("", doc, "reports", "name")
		cfg.Title, _ = doc["name"].(string)
	}
	reports, ok := d.table("reports", doc["reports"])
	if !ok {
		d.errs = append(d.errs, &ConfigError{File: d.file, Msg: "no [reports.pareto] table"})
		return cfg
	}
	if !scenario {
		d.keys("reports", reports, "pareto")
	}
	d.pareto(cfg, reports["pareto"])
	return cfg
}

// pareto decodes a [reports.pareto] table into cfg.
func (d *decoder) pareto(cfg *Config, v any) {
	pareto, ok := d.table("reports.pareto", v)
	if !ok {
		d.errs = append(d.errs, &ConfigError{File: d.file, Msg: "no [reports.pareto] table"})
		return
	}
	d.keys("reports.pareto", pareto, "enable", "plots")
	if v, ok := pareto["enable"]; ok {
		cfg.Enable = d.boolean("reports.pareto.enable", v)
	}
	cfg.Plots = d.plots(pareto["plots"])
	d.checkCases(cfg)
}

// testIDs lists the id of every [[Tests]] entry.
func (d *decoder) testIDs(v any) []string {
	list, _ := v.([]any)
	ids := []string{}
	for _, t := range list {
		if m, ok := t.(map[string]any); ok {
			if id, ok := m["id"].(string); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// plots decodes [[reports.pareto.plots]].
func (d *decoder) plots(v any) []Plot {
	const path = "reports.pareto.plots"
	if v == nil {
		d.errs = append(d.errs, configError(d.file, d.ix["reports.pareto"], "reports.pareto has no plots: add a [[reports.pareto.plots]] table"))
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.errorf(path, "plots must be an array of tables")
		return nil
	}
	return namedTables(d, path, list, "duplicate plot name %q (first at plots[%d])", func(p string, m map[string]any) (Plot, string) {
		plot := d.plot(p, m)
		return plot, plot.Name
	})
}

// namedTables decodes each table of list, the array at path, with decode,
// which returns the element and its name; a name given again is reported
// at its name key with dup (the name and the index of its first use).
func namedTables[T any](d *decoder, path string, list []any, dup string, decode func(path string, m map[string]any) (T, string)) []T {
	var out []T
	seen := map[string]int{}
	for i, el := range list {
		p := join(path, itoa(i))
		m, ok := d.table(p, el)
		if !ok {
			continue
		}
		v, name := decode(p, m)
		if first, again := seen[name]; again && name != "" {
			d.errorf(join(p, "name"), dup, name, first)
		} else {
			seen[name] = i
		}
		out = append(out, v)
	}
	return out
}

// plot decodes one [[reports.pareto.plots]] table.
func (d *decoder) plot(path string, m map[string]any) Plot {
	d.keys(path, m, "name", "x", "y", "frontiers", "slo", "group_by", "compare", "at", "interpolate")
	p := Plot{At: d.ix[path]}
	p.Name = d.str(join(path, "name"), m["name"], true)
	p.X = d.axis(join(path, "x"), m["x"], true)
	p.Y = d.axis(join(path, "y"), m["y"], true)
	p.Frontiers = d.frontiers(path, m["frontiers"])
	p.SLOs = d.slos(join(path, "slo"), m["slo"])
	if v, ok := m["group_by"]; ok {
		p.GroupBy, p.GroupByAt = d.str(join(path, "group_by"), v, true), d.ix[join(path, "group_by")]
	}
	d.comparison(path, m, &p)
	return p
}

// frontiers decodes a plot's frontiers list; absent means one group "All".
func (d *decoder) frontiers(plot string, v any) []FrontierSpec {
	path := join(plot, "frontiers")
	if v == nil {
		return []FrontierSpec{{Name: "All", At: d.ix[plot]}}
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		d.errorf(path, "frontiers must be a non-empty array of tables such as [{ name = \"All\" }]")
		return nil
	}
	return namedTables(d, path, list, "duplicate frontier name %q in the plot (first at frontiers[%d])", func(p string, m map[string]any) (FrontierSpec, string) {
		d.keys(p, m, "name", "cases", "match")
		f := FrontierSpec{At: d.ix[p], Name: d.str(join(p, "name"), m["name"], true)}
		f.Cases, f.CasePos = d.strList(join(p, "cases"), m["cases"])
		f.Match = d.pointMatch(join(p, "match"), m["match"])
		return f, f.Name
	})
}

// checkCases reports frontier case ids that the scenario does not define.
func (d *decoder) checkCases(cfg *Config) {
	if cfg.Cases == nil {
		return
	}
	for _, p := range cfg.Plots {
		for _, f := range p.Frontiers {
			for i, c := range f.Cases {
				if !slices.Contains(cfg.Cases, c) {
					d.errs = append(d.errs, configError(d.file, f.CasePos[i], fmt.Sprintf("unknown case id %q (scenario test ids: %s)", c, strings.Join(cfg.Cases, ", "))))
				}
			}
		}
	}
}

// CheckMetrics reports the axes whose metric is neither a registry
// metric nor one of known (the metrics of the data read); nil when all
// are found.
func (c *Config) CheckMetrics(known []string) error {
	var errs ConfigErrors
	check := func(a *Axis) {
		if a.Custom && !slices.Contains(known, a.Metric) {
			errs = append(errs, configError(c.File, a.MetricAt, fmt.Sprintf("unknown metric %q (pareto's metrics: %s; metrics in the data: %s)", a.Metric, metricKeys(), strings.Join(known, ", "))))
		}
	}
	for i := range c.Plots {
		p := &c.Plots[i]
		check(&p.X)
		check(&p.Y)
		for j := range p.SLOs {
			check(&p.SLOs[j].Axis)
		}
	}
	return errs.Err()
}

// CheckGroupBy reports the plots whose group_by is none of known (the
// label and parameter keys of the data read; "case" and "test_case"
// always group); nil when all are found.
func (c *Config) CheckGroupBy(known []string) error {
	var errs ConfigErrors
	for _, p := range c.Plots {
		if p.GroupBy == "" || p.GroupBy == "case" || p.GroupBy == "test_case" || slices.Contains(known, p.GroupBy) {
			continue
		}
		errs = append(errs, configError(c.File, p.GroupByAt, fmt.Sprintf("group_by %q is no label or parameter of the data (have case, %s)", p.GroupBy, strings.Join(known, ", "))))
	}
	return errs.Err()
}

// CheckCases reports frontier case ids not in known, for standalone
// configurations checked against the data; nil when all are known.
func (c *Config) CheckCases(known []string) error {
	var errs ConfigErrors
	for _, p := range c.Plots {
		for _, f := range p.Frontiers {
			for i, id := range f.Cases {
				if !slices.Contains(known, id) {
					errs = append(errs, configError(c.File, f.CasePos[i], fmt.Sprintf("unknown case id %q (cases in the data: %s)", id, strings.Join(known, ", "))))
				}
			}
		}
	}
	return errs.Err()
}
