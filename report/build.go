package report

import (
	"cmp"
	"encoding/json"
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
	r := NewRecords(cfg, opts)
	r.Grow(len(trials))
	for i := range trials {
		r.Add(&trials[i])
	}
	b, err := plan(cfg, r, trials, excl, opts)
	if err != nil {
		return nil, err
	}
	return b.fill(func(i int) *Trial { return &trials[i] }), nil
}

// plan decides the page from the records r of the trials (nil when the
// page is decided from r alone, see Recordable), all but the details of
// its points (fill).
func plan(cfg *Config, r *Records, trials []Trial, excl []Exclusion, opts Options) (*builder, error) {
	b := &builder{cfg: cfg, recs: r, trials: trials, opts: opts, page: &Page{Title: cfg.Title, Source: cfg.File,
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
		pp, err := b.plot(i)
		if err != nil {
			return nil, err
		}
		autoLog(&pp, &cfg.Plots[i])
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
	if thinned {
		b.used = b.usedTrials()
	}
	return b, nil
}

// fill completes the page with the details of the trials it lists, at(i)
// returning trial i, and returns it.
func (b *builder) fill(at func(int) *Trial) *Page {
	if b.used == nil {
		b.fillPoints(nil, at)
		return b.page
	}
	b.usedPoints(at)
	return b.page
}

type builder struct {
	cfg  *Config
	recs *Records
	// trials are the trials recorded, nil when the page is decided from
	// the records alone.
	trials []Trial
	opts   Options
	page   *Page
	usable []bool
	// used, when a density layer stands for some points, marks the trials
	// a series refers to; nil when the page lists every trial.
	used   []bool
	warned map[string]bool
}

// usedTrials marks the trials a series refers to (its points and their
// repeats).
func (b *builder) usedTrials() []bool {
	used := make([]bool, b.recs.Len())
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
	return used
}

// usedPoints lists in Page.Points only the trials a series refers to
// (used), renumbered in order: the points a density layer stands for have
// no details on the page.
func (b *builder) usedPoints(at func(int) *Trial) {
	newIdx := b.fillPoints(b.used, at)
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
	b.usable = make([]bool, b.recs.Len())
	for i := range b.usable {
		if why, bad := b.recs.problem[int32(i)]; bad {
			b.exclude(i, ExcludeUnusable, why, nil, "", "")
			continue
		}
		b.usable[i] = true
	}
}

// fillPoints fills Page.Points, the layout and the configuration tables
// with the trials that used selects (every trial when used is nil), in
// order, at(i) returning trial i, and returns the index in Page.Points of
// each trial (-1 for one not listed).
func (b *builder) fillPoints(used []bool, at func(int) *Trial) []int32 {
	layouts := map[string]int{}
	configs := map[string]int{}
	n := b.recs.Len()
	index := make([]int32, n)
	listed := n
	if used != nil {
		listed = 0
		for _, u := range used {
			if u {
				listed++
			}
		}
	}
	b.page.Points = make([]PointInfo, 0, listed)
	for i := range n {
		index[i] = -1
		if used != nil && !used[i] {
			continue
		}
		t := at(i)
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
func (b *builder) place(i int) PointInfo { return b.recs.pointPlace(i) }

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

// selects reports whether frontier f gathers trial i: by its case alone
// when f matches no label (see Recordable).
func (b *builder) selects(f *FrontierSpec, i int) bool {
	if len(f.Match) > 0 {
		return selects(f, &b.trials[i])
	}
	return len(f.Cases) == 0 || slices.Contains(f.Cases, b.recs.places[b.recs.place[i]].caseID)
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
			if !b.selectsAny(f) {
				errs = append(errs, configError(b.cfg.File, f.At, fmt.Sprintf("frontier %q of plot %q selects nothing (%s)", f.Name, p.Name, describeSelection(f))))
			}
		}
	}
	return errs.Err()
}

// selectsAny reports whether frontier f gathers any trial.
func (b *builder) selectsAny(f *FrontierSpec) bool {
	for i := range b.recs.Len() {
		if b.selects(f, i) {
			return true
		}
	}
	return false
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

// axisValue returns trial i's value of the axis in column col of the
// records, labelled axis, and its measurement (in Records.selNames), or
// records why it has none.
func (b *builder) axisValue(plot *Plot, col int, axis string, i int) (float64, int32, bool) {
	r := b.recs
	k := i*r.ncol + col
	if s := r.sels[k]; s >= 0 {
		return r.values[k], s, true
	}
	f := r.fails[[2]int32{int32(i), int32(col)}]
	b.exclude(i, f.code, f.reason, f.cands, plot.Name, axis)
	return 0, -1, false
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
