package report

import (
	"github.com/pareto-llm/pareto/trial"
)

// Trial is one input point: a trial, with the run context its details
// show in trial.Deployment (serving layout, GPU counts or why unknown, the
// executed configuration).
type Trial = trial.Trial

// Exclusion codes added by Build (CloudAI's walker adds run_failed,
// result_missing, config_error and not_a_run).
const (
	ExcludeParseError  = "parse_error"           // a result file could not be read
	ExcludeUnusable    = "unusable"              // the trial has a problem (e.g. no successful requests)
	ExcludeMissing     = "measurement_missing"   // an axis selects no measurement
	ExcludeAmbiguous   = "measurement_ambiguous" // an axis selects several measurements
	ExcludeInvalid     = "invalid_value"         // a value the frontier cannot compare
	ExcludeUnavailable = "gpu_count_unknown"     // a per-GPU metric without a GPU count
)

// Exclusion is an input that gives no point (in one plot or in all), with
// the reason and, for selector problems, the candidate measurements.
type Exclusion struct {
	Case      string `json:"case,omitempty"`
	Iteration string `json:"iteration,omitempty"`
	Step      string `json:"step,omitempty"`
	Phase     string `json:"phase,omitempty"`
	Path      string `json:"path,omitempty"`
	// Line and Index place a trial within its file (trial.Source): the
	// line of a JSONL record, the position of a record among the file's.
	Line       int      `json:"line,omitempty"`
	Index      int      `json:"index,omitempty"`
	Code       string   `json:"code"`
	Reason     string   `json:"reason"`
	Candidates []string `json:"candidates,omitempty"`
	// Plot names the plot the exclusion applies to; empty for all plots.
	Plot string `json:"plot,omitempty"`
	// Axis is "x", "y" or an SLO selector for selector problems.
	Axis string `json:"axis,omitempty"`
}

// Page is the data the report embeds: everything the page shows.
type Page struct {
	Title      string          `json:"title"`
	Source     string          `json:"source,omitempty"`
	Plots      []PagePlot      `json:"plots"`
	Points     Points          `json:"points"`
	Layouts    []*trial.Layout `json:"layouts"`
	Configs    []ConfigFile    `json:"configs"`
	Exclusions []Exclusion     `json:"exclusions"`
	Warnings   []string        `json:"warnings,omitempty"`
	// Aggregate says how repeats became points: median, mean or none.
	Aggregate string `json:"aggregate"`
	// Baseline is the baseline selection, when one was given.
	Baseline string `json:"baseline,omitempty"`
	// Comparisons are the comparisons drawn (plots with compare, or
	// pareto compare --html).
	Comparisons []Comparison `json:"comparisons,omitempty"`
}

// ConfigFile is one executed configuration shown in point details.
type ConfigFile struct {
	Path string `json:"path"`
	TOML string `json:"toml"`
}

// PagePlot is one chart.
type PagePlot struct {
	Name string   `json:"name"`
	X    AxisInfo `json:"x"`
	Y    AxisInfo `json:"y"`
	// Sels are the measurement selectors the points resolved to; series
	// refer to them by index.
	Sels   []string `json:"sels"`
	Series []Series `json:"series"`
	SLOs   []string `json:"slos,omitempty"`
	// Bounds describe the SLOs (same order) for the page's simulator.
	Bounds []SLOBound `json:"bounds,omitempty"`
	// Cyclic says the noise parameters allow dominance cycles.
	Cyclic bool `json:"cyclic,omitempty"`
}

// SLOBound is one SLO of a plot: the measurement, the comparison (<=, <,
// >=, >) and the bound.
type SLOBound struct {
	Label string  `json:"label"`
	Unit  string  `json:"unit,omitempty"`
	Op    string  `json:"op"`
	Bound float64 `json:"bound"`
}

// AxisInfo describes an axis.
type AxisInfo struct {
	Label      string  `json:"label"`
	Metric     string  `json:"metric"`
	Unit       string  `json:"unit,omitempty"`
	Direction  string  `json:"direction"`
	Log        bool    `json:"log,omitempty"`
	Noise      float64 `json:"noise,omitempty"`
	MinImprove float64 `json:"min_improve,omitempty"`
}

// Point statuses within a series.
const (
	StatusFrontier   = 0
	StatusDominated  = 1
	StatusInfeasible = 2
	// StatusInvalid marks a point the frontier cannot compare at the
	// report's noise bands but can at others: a value that is not
	// positive, on an axis with a relative band (σ or δ above 0). The page
	// keeps it so that its simulator, at σ = δ = 0 on that axis, ranks it
	// as pareto front does; at the report's settings it is excluded
	// (invalid_value) like every other invalid trial.
	StatusInvalid = 3
)

// Tie flags of frontier points.
const (
	TieExact = 1 // identical values to another frontier point
	TieNoise = 2 // in a top cycle of the noise-aware relation
)

// Series is one frontier group of a plot, stored by column.
type Series struct {
	Name string `json:"name"`
	// Frontier is the number of frontier points.
	Frontier int `json:"frontier"`
	// X and Y are the plotted values; P the point index (Page.Points);
	// XS and YS index Sels (left out when every point resolved to the
	// first); S the status; T the tie flags (left out when none); By, for
	// dominated points, the series index of a point that beats it (-1
	// otherwise).
	X  []float64 `json:"x"`
	Y  []float64 `json:"y"`
	P  []int32   `json:"p"`
	XS []int16   `json:"xs,omitempty"`
	YS []int16   `json:"ys,omitempty"`
	S  []int8    `json:"s"`
	T  []int8    `json:"t,omitempty"`
	By []int32   `json:"by"`
	// Line lists the frontier points in drawing order (by x, then y).
	Line []int32 `json:"line"`
	// Notes explain infeasible points, by series index.
	Notes map[int32]string `json:"notes,omitempty"`
	// SLO holds, per SLO of the plot, every point's value (aggregated over
	// its repeats as the axes are), so that the page can move the bounds.
	SLO []Floats `json:"slo,omitempty"`
	// R holds, by series index, the repeats of the points aggregated
	// from more than one trial; a point not in R is a single run (n=1).
	R map[int32]Repeats `json:"r,omitempty"`
	// D, when set, is the density layer standing for the dominated points
	// the series does not list (see DensityBound).
	D *Density `json:"d,omitempty"`
	// Base holds the deltas to the baseline when one was chosen.
	Base *SeriesBase `json:"base,omitempty"`
}

// Repeats describes the trials one point aggregates. A repeat counts when
// both axes and every SLO resolve on it, so n is the same on every axis.
type Repeats struct {
	// M are the member trials (Page.Points indexes) in input order; P
	// of the series holds the first.
	M []int32 `json:"m"`
	X Spread  `json:"x"`
	Y Spread  `json:"y"`
}

// Spread is the distribution of one axis over a point's repeats, with the
// quartiles interpolated linearly between order statistics.
type Spread struct {
	Min float64 `json:"min"`
	Q1  float64 `json:"q1"`
	Q3  float64 `json:"q3"`
	Max float64 `json:"max"`
}

// SeriesBase compares every point of a series with the baseline measured
// in the same frontier group, the same environment scope and the same
// workload.
type SeriesBase struct {
	// Note says why the series has no baseline at all.
	Note string `json:"note,omitempty"`
	// Bases are the baseline measurements the points refer to.
	Bases []BaseValue `json:"bases"`
	// B indexes Bases for each point, -1 when the point has no baseline
	// (Why says why).
	B []int32 `json:"b"`
	// DX and DY are the relative deltas (v-base)/|base| on X and Y; null
	// when there is no baseline value.
	DX []*float64 `json:"dx"`
	DY []*float64 `json:"dy"`
	// Why explains, by series index, a point without a baseline.
	Why map[int32]string `json:"why,omitempty"`
}

// BaseValue is the baseline of one workload in one series.
type BaseValue struct {
	Workload string `json:"workload"`
	Scope    string `json:"scope"`
	// IDs are the baseline's trial IDs; N how many resolved each axis.
	IDs []string `json:"ids"`
	NX  int      `json:"nx"`
	NY  int      `json:"ny"`
	// X and Y are the aggregated values; null with NoteX or NoteY saying
	// why.
	X     *float64 `json:"x"`
	Y     *float64 `json:"y"`
	NoteX string   `json:"note_x,omitempty"`
	NoteY string   `json:"note_y,omitempty"`
	// Row is the series index of the baseline point, -1 when the
	// baseline is not a point of the series (an axis or SLO did not
	// resolve on it).
	Row int32 `json:"row"`
}

// PointInfo is what the details panel shows about one point.
type PointInfo struct {
	ID        string            `json:"id"`
	Case      string            `json:"case"`
	Iteration string            `json:"iteration,omitempty"`
	Step      string            `json:"step,omitempty"`
	Phase     string            `json:"phase,omitempty"`
	Benchmark string            `json:"benchmark,omitempty"`
	Source    string            `json:"source,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
	Workload  trial.Workload    `json:"workload"`
	// Layout and Config index Page.Layouts and Page.Configs, -1 for none.
	Layout int `json:"layout"`
	Config int `json:"config"`
	// Line and Index place the trial within its file (trial.Source).
	Line  int `json:"line,omitempty"`
	Index int `json:"index,omitempty"`
}
