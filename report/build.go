package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Label keys Build reads besides the trial package's.
const (
	// LabelBenchmark names the benchmark tool of a CloudAI run
	// ("vllm-bench", "aiperf", ...), matched by the benchmark dimension.
	LabelBenchmark = "benchmark"
)

// CaseOf returns the test case a trial belongs to: its test_case label,
// else its source file.
func CaseOf(t *trial.Trial) string {
	if c := t.Labels[trial.LabelTestCase]; c != "" {
		return c
	}
	return t.Source.Path
}

// Build computes the page: for every plot and frontier group the points
// (the repeats of one configuration aggregated as opts says), their
// frontier status from frontier.Analyze on the plotted values, ties, the
// deltas to the baseline, and the exclusions (inputs given, unusable
// trials, and per plot the trials whose axes select no single
// measurement). A frontier that selects no trial is a configuration error
// (ConfigErrors); a baseline that selects no usable trial is an error. A
// point whose baseline was measured only in another environment (engine,
// CUDA, driver, GPU) gets no delta and says why, unless
// opts.AllowCrossScope compares with it: one engine's baseline still
// grounds that engine's points in an "All configurations" frontier.
func Build(cfg *Config, trials []Trial, excl []Exclusion, opts Options) (*Page, error) {
	b := &builder{cfg: cfg, trials: trials, opts: opts, page: &Page{Title: cfg.Title, Source: cfg.File,
		Plots: []PagePlot{}, Layouts: []*trial.Layout{}, Configs: []ConfigFile{}, Aggregate: opts.Aggregate.String()}}
	if opts.Baseline != nil {
		b.page.Baseline = opts.Baseline.Raw
	}
	b.page.Exclusions = append([]Exclusion{}, excl...)
	b.points()
	if err := b.checkSelections(); err != nil {
		return nil, err
	}
	if err := b.checkBaseline(); err != nil {
		return nil, err
	}
	bound := opts.DensityBound
	if bound == 0 {
		bound = DensityBound
	}
	thinned := false
	for i := range cfg.Plots {
		pp, err := b.plot(&cfg.Plots[i])
		if err != nil {
			return nil, err
		}
		b.thin(&pp, &cfg.Plots[i], bound)
		thinned = thinned || slices.ContainsFunc(pp.Series, func(s Series) bool { return s.D != nil })
		b.page.Plots = append(b.page.Plots, pp)
		if len(cfg.Plots[i].Compare) > 0 {
			c, err := b.comparison(&cfg.Plots[i])
			if err != nil {
				return nil, err
			}
			b.page.Comparisons = append(b.page.Comparisons, c)
		}
	}
	if !thinned {
		b.fillPoints(nil)
		return b.page, nil
	}
	b.usedPoints()
	return b.page, nil
}

type builder struct {
	cfg    *Config
	trials []Trial
	opts   Options
	page   *Page
	usable []bool
	warned map[string]bool
}

// usedPoints lists in Page.Points only the trials a series refers to (its
// points and their repeats), renumbered in order: the points a density
// layer stands for have no details on the page.
func (b *builder) usedPoints() {
	used := make([]bool, len(b.trials))
	for _, pp := range b.page.Plots {
		for _, s := range pp.Series {
			for _, p := range s.P {
				used[p] = true
			}
			for _, r := range s.R {
				for _, m := range r.M {
					used[m] = true
				}
			}
		}
	}
	newIdx := b.fillPoints(used)
	for _, pp := range b.page.Plots {
		for si := range pp.Series {
			s := &pp.Series[si]
			for j, p := range s.P {
				s.P[j] = newIdx[p]
			}
			for k, r := range s.R {
				for j, m := range r.M {
					r.M[j] = newIdx[m]
				}
				s.R[k] = r
			}
		}
	}
}

// points marks the usable trials and excludes the others. Page.Points is
// filled at the end (fillPoints), with the points the page refers to.
func (b *builder) points() {
	b.usable = make([]bool, len(b.trials))
	for i := range b.trials {
		t := &b.trials[i]
		if t.Problem != "" {
			b.exclude(i, ExcludeUnusable, t.Problem, nil, "", "")
			continue
		}
		b.usable[i] = true
	}
}

// fillPoints fills Page.Points, the layout and the configuration tables
// with the trials that used selects (every trial when used is nil), in
// order, and returns the index in Page.Points of each trial (-1 for one
// not listed).
func (b *builder) fillPoints(used []bool) []int32 {
	layouts := map[string]int{}
	configs := map[string]int{}
	index := make([]int32, len(b.trials))
	b.page.Points = make([]PointInfo, 0, len(b.trials))
	if used != nil {
		b.page.Points = make([]PointInfo, 0, len(b.trials)/8)
	}
	for i := range b.trials {
		index[i] = -1
		if used != nil && !used[i] {
			continue
		}
		t := &b.trials[i]
		p := pointInfo(t)
		p.Layout, p.Config = -1, -1
		dep := t.Deployment
		if dep == nil {
			dep = &trial.Deployment{}
		}
		if dep.Layout != nil {
			key, _ := json.Marshal(dep.Layout)
			idx, ok := layouts[string(key)]
			if !ok {
				idx = len(b.page.Layouts)
				layouts[string(key)] = idx
				b.page.Layouts = append(b.page.Layouts, dep.Layout)
			}
			p.Layout = idx
		}
		if dep.Config != "" {
			key := dep.ConfigPath + "\x00" + dep.Config
			idx, ok := configs[key]
			if !ok {
				idx = len(b.page.Configs)
				configs[key] = idx
				b.page.Configs = append(b.page.Configs, ConfigFile{Path: dep.ConfigPath, TOML: trial.RedactText(dep.Config)})
			}
			p.Config = idx
		}
		index[i] = int32(len(b.page.Points))
		b.page.Points = append(b.page.Points, p)
	}
	return index
}

// place returns what names trial i and places it in its file (the
// fields of its PointInfo that exclusions and messages use).
func (b *builder) place(i int) PointInfo {
	t := &b.trials[i]
	return PointInfo{Case: CaseOf(t), Source: t.Source.Path, Iteration: t.Labels[trial.LabelIteration], Step: t.Labels[trial.LabelStep],
		Phase: t.Labels[trial.LabelPhase], Line: t.Source.Line, Index: t.Source.Index}
}

// pointLabels are the labels PointInfo has fields for.
var pointLabels = []string{trial.LabelTestCase, trial.LabelIteration, trial.LabelStep, trial.LabelPhase, LabelBenchmark}

// pointInfo extracts the details of a trial.
func pointInfo(t *trial.Trial) PointInfo {
	p := PointInfo{ID: t.ID, Case: CaseOf(t), Source: t.Source.Path, Workload: t.Workload,
		Iteration: t.Labels[trial.LabelIteration], Step: t.Labels[trial.LabelStep],
		Phase: t.Labels[trial.LabelPhase], Benchmark: t.Labels[LabelBenchmark], Line: t.Source.Line, Index: t.Source.Index}
	// The details show the other labels. A trial without the ones above
	// shares its map (the page only reads it): 100,000 table rows make no
	// 100,000 copies.
	if !slices.ContainsFunc(pointLabels, func(k string) bool { _, ok := t.Labels[k]; return ok }) {
		if len(t.Labels) > 0 {
			p.Labels = t.Labels
		}
		return p
	}
	for k, v := range t.Labels {
		if slices.Contains(pointLabels, k) {
			continue
		}
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[k] = v
	}
	return p
}

// exclude records an exclusion for trial i.
func (b *builder) exclude(i int, code, reason string, cands []string, plot, axis string) {
	p := b.place(i)
	b.page.Exclusions = append(b.page.Exclusions, Exclusion{Case: p.Case, Iteration: p.Iteration, Step: p.Step,
		Phase: p.Phase, Path: p.Source, Line: p.Line, Index: p.Index, Code: code, Reason: reason, Candidates: cands, Plot: plot, Axis: axis})
}

// selects reports whether frontier f gathers trial t.
func selects(f *FrontierSpec, t *trial.Trial) bool {
	if len(f.Cases) > 0 && !slices.Contains(f.Cases, CaseOf(t)) {
		return false
	}
	for _, d := range f.Match {
		if contextValue(t, d.Key) != d.Value {
			return false
		}
	}
	return true
}

// contextValue returns the point's phase or benchmark.
func contextValue(t *trial.Trial, key string) string {
	if key == trial.DimBenchmark {
		return t.Labels[LabelBenchmark]
	}
	return t.Labels[key]
}

// checkSelections reports frontiers that select no trial at all.
func (b *builder) checkSelections() error {
	var errs ConfigErrors
	for _, p := range b.cfg.Plots {
		for fi := range p.Frontiers {
			f := &p.Frontiers[fi]
			if !slices.ContainsFunc(b.trials, func(t Trial) bool { return selects(f, &t) }) {
				errs = append(errs, configError(b.cfg.File, f.At, fmt.Sprintf("frontier %q of plot %q selects nothing (%s)", f.Name, p.Name, describeSelection(f))))
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func describeSelection(f *FrontierSpec) string {
	var parts []string
	if len(f.Cases) > 0 {
		parts = append(parts, "cases "+strings.Join(f.Cases, ", "))
	} else {
		parts = append(parts, "all cases")
	}
	for _, d := range f.Match {
		parts = append(parts, d.Key+"="+d.Value)
	}
	return "no result has " + strings.Join(parts, " and ")
}

// resolve picks the measurement of axis a for t. Point-context dimensions
// (phase, benchmark) that equal the point's own are satisfied by the point
// and removed before matching measurement dimensions.
func resolve(a *Axis, t *trial.Trial) (trial.Measurement, error) {
	sel := trial.Selector{Name: a.Metric, Metric: a.Metric}
	for _, d := range a.Match {
		if d.Key != trial.DimStatistic && contextValue(t, d.Key) == d.Value {
			continue
		}
		sel.Dims = append(sel.Dims, d)
	}
	sel.Raw = a.Label()
	return sel.Resolve(t)
}

// axisValue resolves one axis and records why it fails.
func (b *builder) axisValue(plot *Plot, a *Axis, axis string, i int) (trial.Measurement, bool) {
	m, err := resolve(a, &b.trials[i])
	if err == nil {
		if why := badValue(m.Value, axis != "x" && axis != "y"); why != "" {
			b.exclude(i, ExcludeInvalid, a.Label()+": "+why, nil, plot.Name, axis)
			return m, false
		}
		return m, true
	}
	var re *trial.ResolveError
	if !errors.As(err, &re) {
		b.exclude(i, ExcludeMissing, err.Error(), nil, plot.Name, axis)
		return m, false
	}
	code, reason := ExcludeMissing, fmt.Sprintf("%s: no measurement matches", a.Label())
	if re.Reason == trial.ReasonAmbiguous {
		code, reason = ExcludeAmbiguous, fmt.Sprintf("%s: %d measurements match; add a match key to pick one", a.Label(), len(re.Candidates))
	} else if why := unavailable(&b.trials[i], a.Metric); why != "" {
		code, reason = ExcludeUnavailable, fmt.Sprintf("%s: %s", a.Label(), why)
	}
	b.exclude(i, code, reason, re.Candidates, plot.Name, axis)
	return m, false
}

// sortLine orders frontier points by x, then y.
func sortLine(s *Series) {
	slices.SortFunc(s.Line, func(a, c int32) int {
		if r := cmp.Compare(s.X[a], s.X[c]); r != 0 {
			return r
		}
		return cmp.Compare(s.Y[a], s.Y[c])
	})
}

func axisInfo(a *Axis) AxisInfo {
	return AxisInfo{Label: a.Label(), Metric: a.Metric, Unit: a.Unit, Direction: a.Direction.String(),
		Log: a.Log, Noise: a.Noise, MinImprove: a.MinImprove}
}
