// Package query is the one pipeline every command's answer goes through:
// rows read from any source (benchmark trials resolved by selector, or the
// columns of a generic table) and a Query — objectives, SLOs, groups, how
// repeats are aggregated, what identifies a configuration, a baseline —
// give one typed Result: per group the points (with their spread, members
// and baseline deltas), the frontier, the dominated points with what
// beats them, the infeasible and the invalid ones, and the warnings.
// Result's encoders write it as JSON, CSV or an aligned table.
//
// The data flow is source (package source) → query → encoders; the
// report, pick and the command line all use it, so they cannot disagree.
package query

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Query says what to compute.
type Query struct {
	// Objectives are the frontier's axes, in order; SLOs the feasibility
	// bounds applied first.
	Objectives []frontier.Objective
	SLOs       []frontier.SLO
	// Reference is the hypervolume reference point (one value per
	// objective), or AutoReference for frontier.AutoReference; neither
	// means no hypervolume.
	Reference     []float64
	AutoReference bool
	// Ranks computes strict non-dominated ranks.
	Ranks bool
	// GroupBy, when set, gives one frontier per value of this label,
	// parameter or table column.
	GroupBy string
	// ID names the table column (or trial label or parameter) that names
	// a row; empty means "id" when present, else the source position.
	ID string
	// Aggregate says how repeats of a configuration become one point.
	Aggregate repeat.Aggregation
	// ConfigKeys, when not empty, are the parameters (or labels) that
	// identify a configuration (repeat.Config); by default every
	// parameter but repeat.RunParams does, and only trials that record
	// their configuration (repeat.KnownConfig) are merged.
	ConfigKeys []string
	// Baseline, when set, grounds every point to the baseline point of its
	// group measured under the same workload (a repeat.Selection: k=v,
	// key:HEX or id:ID).
	Baseline string
	// AllowCrossScope compares with a baseline measured in another
	// environment scope instead of refusing.
	AllowCrossScope bool
	// BaselineMayBeAbsent makes a baseline that selects no point a reason
	// on every point (Result.Baseline) instead of an error: the report
	// checks the selection across all its frontiers first.
	BaselineMayBeAbsent bool
	// BaselineScopeAsReason makes a point whose baseline was measured at
	// its workload only in another environment scope get that reason
	// (Result.Baseline) instead of failing the query, unless
	// AllowCrossScope compares with it: the report annotates every point
	// it can ground and says why for the others.
	BaselineScopeAsReason bool
	// FrontierOnly makes the encoders print the frontier and the sizes
	// of the other lists only; the dominated rows are then counted, not
	// listed (frontier.Problem.CountDominated).
	FrontierOnly bool
	// Fields names the query's fields (allow_cross_scope) in the texts of
	// its result, warnings and baseline reasons, as the caller spells
	// them (the command line: --allow-cross-scope); nil keeps their own
	// names.
	Fields field.Namer
}

// Error is a problem with the query or its inputs that is the user's to
// fix (a baseline that selects nothing, say); commands exit 1 on it.
type Error struct{ Err error }

// Error implements error.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ParseObjective reads NAME[:min|:max]. Without a suffix the direction is
// the metric registry's (ttft minimises, output_token_throughput
// maximises); other names need an explicit direction. NAME is a column
// or a selector (METRIC[.STAT][{dims}]). This is the one objective
// parser: front -o, report -x/-y, pick, gate and drift use it.
func ParseObjective(s string) (frontier.Objective, error) {
	name, dir, ok := cutLast(s, ":")
	if ok && strings.Contains(dir, "}") {
		name, ok = s, false // a colon inside {...} is not a direction
	}
	if _, err := trial.ParseSelector(name); errors.Is(err, trial.ErrNotStatistic) {
		return frontier.Objective{}, field.Wrap("objective", s, err) // other selector errors may be column names
	}
	if !ok {
		if d, found := RegistryDirection(s); found {
			return frontier.Objective{Name: s, Direction: d}, nil
		}
		return frontier.Objective{}, field.Invalid("objective", s, fmt.Sprintf("has no direction: write %s:min or %s:max", s, s))
	}
	d, err := frontier.ParseDirection(dir)
	if err != nil || name == "" {
		return frontier.Objective{}, field.Wrap("objective", s, errors.New("want NAME:min or NAME:max"))
	}
	if _, twice, ok := cutLast(name, ":"); ok {
		if _, err := frontier.ParseDirection(twice); err == nil {
			return frontier.Objective{}, field.Wrap("objective", s, errors.New("two directions: want NAME:min or NAME:max"))
		}
	}
	return frontier.Objective{Name: name, Direction: d}, nil
}

// RegistryDirection returns the direction the metric registry gives the
// selector s, and whether it gives one.
func RegistryDirection(s string) (frontier.Direction, bool) {
	sel, err := trial.ParseSelector(s)
	if err != nil {
		return 0, false
	}
	if m, found := trial.Lookup(sel.Metric); found && m.Ranked {
		return m.Direction, true
	}
	if m, found := trial.Lookup(sel.Name); found && m.Ranked {
		return m.Direction, true
	}
	return 0, false
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// ApplyPercents sets a per-objective band of kind k (ParseBand: a noise
// band or a minimum improvement) from NAME=PCT or PCT values, the request
// field named name; a bad value is a *field.Error on it.
func ApplyPercents(objs []frontier.Objective, vals []string, name string, k BandKind, set func(*frontier.Objective, float64)) error {
	for _, s := range vals {
		obj, pct, named := cutLast(s, "=")
		if !named {
			pct = s
		}
		v, err := ParseBand(pct, k)
		if err != nil {
			return field.Wrap(name, s, err)
		}
		hit := false
		for i := range objs {
			if !named || objs[i].Name == obj {
				set(&objs[i], v)
				hit = true
			}
		}
		if !hit {
			return field.Wrap(name, s, fmt.Errorf("%q is not an objective (have %s)", obj, objectiveNames(objs)))
		}
	}
	return nil
}

func objectiveNames(objs []frontier.Objective) string {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// ParsePercent reads "15%" as 0.15 and "0.15" as 0.15, and refuses a
// negative or infinite value.
func ParsePercent(s string) (float64, error) {
	v, ok := parseFraction(s)
	if !ok || math.IsInf(v, 0) || v < 0 {
		return 0, errors.New("want a non-negative percentage such as 5% or 0.05")
	}
	return v, nil
}

// parseFraction is the one reader of relative values: a percentage
// ("15%", "15 %") or a fraction ("0.15"), as a fraction; not NaN.
func parseFraction(s string) (float64, bool) {
	t, scale := strings.TrimSpace(s), 1.0
	if u, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = strings.TrimSpace(u), 0.01
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) {
		return 0, false
	}
	return v * scale, true
}

// A BandKind says which relative band a value is, and so its range.
type BandKind int

const (
	// NoiseBand is a noise band σ: 0 or more. A band of 100% or more is
	// allowed (pareto noise may suggest one): on a maximised objective it
	// ties every value.
	NoiseBand BandKind = iota
	// MinImprove is a minimum improvement δ: at least 0 and below 100%.
	MinImprove
)

// ParseBand reads a relative band of kind k, written as a percentage
// ("15%") or a fraction ("0.15"), and checks it (CheckBand). It is the one
// parser of bands, whatever their source: --noise and --min-improve, and
// the noise and min_improve of a report configuration (which may also
// give a number, checked by CheckBand).
func ParseBand(s string, k BandKind) (float64, error) {
	v, ok := parseFraction(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage such as 5%% or a fraction such as 0.05", s)
	}
	return v, CheckBand(v, k)
}

// CheckBand checks a relative band of kind k given as a fraction.
func CheckBand(v float64, k BandKind) error {
	pct := strconv.FormatFloat(v*100, 'g', 6, 64) + "%"
	switch {
	case k == MinImprove && !(v >= 0 && v < 1):
		return fmt.Errorf("%s is not a minimum improvement: want at least 0%% and below 100%%, such as 5%% or 0.05", pct)
	case k == NoiseBand && !(v >= 0 && !math.IsInf(v, 1)):
		return fmt.Errorf("%s is not a noise band: want 0%% or more, such as 5%% or 0.05", pct)
	}
	return nil
}

// ParseReference reads a hypervolume reference (the request field ref):
// "", "auto" or one number per objective.
func (q *Query) ParseReference(s string) error {
	switch s {
	case "":
		return nil
	case "auto":
		q.AutoReference = true
		return nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != len(q.Objectives) {
		return &field.Error{Field: "ref", Reason: fmt.Sprintf("has %d values for %d objectives", len(parts), len(q.Objectives))}
	}
	for _, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) {
			return &field.Error{Field: "ref", Reason: fmt.Sprintf("value %q is not a number", p)}
		}
		q.Reference = append(q.Reference, v)
	}
	return nil
}

// AddObjective appends an objective, refusing one given twice.
func (q *Query) AddObjective(obj frontier.Objective) error {
	if slices.ContainsFunc(q.Objectives, func(x frontier.Objective) bool { return x.Name == obj.Name }) {
		return field.Invalid("objective", obj.Name, "given twice")
	}
	q.Objectives = append(q.Objectives, obj)
	return nil
}

// Check validates the objectives' bands.
func (q *Query) Check() error {
	if len(q.Objectives) == 0 {
		return field.Required("objectives")
	}
	for _, obj := range q.Objectives {
		if err := CheckBand(obj.Noise, NoiseBand); err != nil {
			return &field.Error{Field: "noise", Reason: "for " + obj.Name, Err: err}
		}
		if err := CheckBand(obj.MinImprove, MinImprove); err != nil {
			return &field.Error{Field: "min_improve", Reason: "for " + obj.Name, Err: err}
		}
	}
	return nil
}

// NeedsTrials reports whether generic table rows must be read as trials
// (AddTrials) rather than columns (AddTable): configuration keys merge
// rows into repeats and a baseline selects by label or parameter. Without
// either, every table row is its own point and both give the same rows.
func (q *Query) NeedsTrials() bool {
	return q.Baseline != "" || len(q.ConfigKeys) > 0
}

func cycleWarning(objs []frontier.Objective) string {
	return fmt.Sprintf("the noise bands allow dominance cycles (Σ s/(s+d) = %.3f > 1): trials that beat each other "+
		"around a cycle are all kept and marked noise-tied; a minimum improvement of at least %.2f%% on every objective rules cycles out",
		frontier.CycleSum(objs), math.Ceil(frontier.AcyclicMinImprove(objs)*1e4)/100)
}
