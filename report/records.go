package report

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Records holds, per trial of a study, what Build decides the page by,
// not the trial: its ID, what names and places it (its case, source,
// CloudAI point, line and index), its problem, its repeat key and the
// value of every plot axis and SLO (or why it does not resolve). From
// them Plan computes the page but for the details of the points it lists
// (Page.Points), and says which trials those are (Plan.IDs): only they
// are read again (Plan.Page). A page of a study of 10⁶ trials, most of
// which only count in a density layer, then holds 10⁶ records of about
// 150 bytes (their IDs included) instead of 10⁶ trials. Build itself
// decides by Records.
//
// Records serve configurations and options that decide by nothing else
// (Recordable): a baseline, a group_by, a comparison or a frontier that
// matches labels read more of the trials, and need Build over them.
type Records struct {
	cfg  *Config
	opts Options
	// cols[p] is the first column of plot p: its x, then y, then its SLOs;
	// axes holds the axis of every column, slo whether it is an SLO.
	cols    []int
	ncol    int
	axes    []*Axis
	slo     []bool
	keyMemo repeat.KeyMemo // computes repeat keys

	id     []string // "" for a row recorded from a table's columns (AddTable)
	name   []string // the trial's id label, when one has one (grows lazily)
	key    []string // repeat key; "" for a trial that repeats no other
	place  []int32  // index in places
	line   []int32
	index  []int32
	values []float64 // ncol per trial
	sels   []int32   // ncol per trial: the resolved measurement, in selNames

	places   []place
	placeOf  map[place]int32
	names    []string // pointName of each place
	selNames []string
	selOf    map[string]int32
	colSel   []int32 // per column, the measurement with exactly its metric and match dimensions; -1 until seen
	problem  map[int32]string
	fails    map[[2]int32]axisFail // by trial and column
	measured map[string]bool       // when an axis names a custom metric
}

// place is what names a trial and places it in its file, but its line
// and index (the fields of its PointInfo that exclusions and messages
// use): trials of one file share it.
type place struct {
	caseID, path, iteration, step, phase string
}

// axisFail is why an axis or SLO does not resolve on a trial: the
// exclusion axisValue records.
type axisFail struct {
	code, reason string
	cands        []string
}

// Recordable reports whether Records can decide the page of cfg and
// opts: no baseline, and no plot that groups by a label or parameter,
// compares frontiers or has a frontier matching labels.
func Recordable(cfg *Config, opts Options) bool {
	if opts.Baseline != nil {
		return false
	}
	for i := range cfg.Plots {
		p := &cfg.Plots[i]
		if p.GroupBy != "" || len(p.Compare) > 0 || slices.ContainsFunc(p.Frontiers, func(f FrontierSpec) bool { return len(f.Match) > 0 }) {
			return false
		}
	}
	return true
}

// NewRecords returns empty records for cfg and opts.
func NewRecords(cfg *Config, opts Options) *Records {
	r := &Records{cfg: cfg, opts: opts, placeOf: map[place]int32{}, selOf: map[string]int32{}, problem: map[int32]string{},
		fails: map[[2]int32]axisFail{}}
	for i := range cfg.Plots {
		p := &cfg.Plots[i]
		r.cols = append(r.cols, r.ncol)
		r.ncol += 2 + len(p.SLOs)
		r.axes, r.slo = append(r.axes, &p.X, &p.Y), append(r.slo, false, false)
		for si := range p.SLOs {
			r.axes, r.slo = append(r.axes, &p.SLOs[si].Axis), append(r.slo, true)
		}
		if p.X.Custom || p.Y.Custom || slices.ContainsFunc(p.SLOs, func(s SLOSpec) bool { return s.Custom }) {
			r.measured = map[string]bool{}
		}
	}
	r.colSel = make([]int32, r.ncol)
	for c := range r.colSel {
		r.colSel[c] = -1
	}
	return r
}

// Grow makes room for n more trials.
func (r *Records) Grow(n int) {
	r.id, r.key, r.place = slices.Grow(r.id, n), slices.Grow(r.key, n), slices.Grow(r.place, n)
	r.line, r.index = slices.Grow(r.line, n), slices.Grow(r.index, n)
	r.values, r.sels = slices.Grow(r.values, n*r.ncol), slices.Grow(r.sels, n*r.ncol)
}

// Len returns the number of trials recorded.
func (r *Records) Len() int { return len(r.id) }

// Add records trial t, keeping none of it but strings it holds (its ID,
// source path and labels).
func (r *Records) Add(t *Trial) {
	key := ""
	if r.opts.Aggregate != repeat.None {
		key, _ = r.keyMemo.Key(t, r.opts.ConfigKeys)
	}
	pl := place{caseID: CaseOf(t), path: t.Source.Path, iteration: t.Labels[trial.LabelIteration], step: t.Labels[trial.LabelStep],
		phase: t.Labels[trial.LabelPhase]}
	if r.measured != nil {
		for _, m := range t.Measurements {
			r.measured[m.Metric] = true
		}
	}
	i, usable := r.add(t.ID, t.Problem, key, pl, t.Source.Line, t.Source.Index)
	r.setName(i, t.Labels[tableID])
	if !usable {
		return
	}
	for c, a := range r.axes {
		r.resolve(i, c, a, r.slo[c], t)
	}
}

// Columns returns the axis of every column of the records, in order: per
// plot its x, its y, then its SLOs.
func (r *Records) Columns() []*Axis { return slices.Clone(r.axes) }

// Exact reports whether every column's axis selects, on every trial, the
// one measurement with exactly its metric and match dimensions when there
// is one, as a columnar read of a study gives values (store.ColumnSpec):
// it names a registry metric, and matches on no dimension but the
// statistic (another may be satisfied by the point's own context, see
// resolve).
func (r *Records) Exact() bool {
	for _, a := range r.axes {
		if _, known := trial.Lookup(a.Metric); !known || a.Custom {
			return false
		}
		if slices.ContainsFunc(a.Match, func(d trial.Dim) bool { return d.Key != trial.DimStatistic }) {
			return false
		}
	}
	return true
}

// AddSketch records a trial read column by column (store.Columns) rather
// than whole (Add): its ID, its sketch, its Problem and the value of every
// column (Columns), that of its one measurement with exactly the column's
// metric and match dimensions (see Exact). The sketch's repeat key is
// that of the default configuration keys: the options must name none, or
// not aggregate repeats. A trial on which a column selects no
// measurement, or several, is recorded whole (Add), for its exclusion
// lists the candidates; a value that cannot be compared (NaN, infinite)
// is excluded as Add excludes it. r keeps none of values, and of the
// sketch its strings alone.
func (r *Records) AddSketch(id string, sk *trial.Sketch, problem string, values []float64) {
	pl := place{caseID: sk.Labels[trial.LabelTestCase], path: sk.Path, iteration: sk.Labels[trial.LabelIteration],
		step: sk.Labels[trial.LabelStep], phase: sk.Labels[trial.LabelPhase]}
	if pl.caseID == "" {
		pl.caseID = sk.Path // as CaseOf
	}
	i, usable := r.add(id, problem, sk.Key, pl, sk.Line, sk.Index)
	if !usable {
		return
	}
	for c, a := range r.axes {
		r.value(i, c, a, r.slo[c], trial.Measurement{Metric: a.Metric, Dims: a.Match, Value: values[c]})
	}
}

// add appends the entry of a trial but its values, and returns its index
// and whether it is usable: the caller then records every column.
func (r *Records) add(id, problem, key string, pl place, line, index int) (int32, bool) {
	i := int32(len(r.id))
	r.id = append(r.id, id)
	if r.opts.Aggregate == repeat.None {
		key = "" // repeats are not aggregated
	}
	r.key = append(r.key, key)
	k, ok := r.placeOf[pl]
	if !ok {
		k = int32(len(r.places))
		r.placeOf[pl] = k
		r.places = append(r.places, pl)
		r.names = append(r.names, pointName(pl))
	}
	r.place = append(r.place, k)
	r.line, r.index = append(r.line, int32(line)), append(r.index, int32(index))
	if problem != "" {
		r.problem[i] = problem // never resolved: the trial is excluded as unusable
		for range r.ncol {
			r.values, r.sels = append(r.values, 0), append(r.sels, -1)
		}
		return i, false
	}
	return i, true
}

// resolve records the value of axis a (an SLO when slo) for trial i in
// column col, or why it has none.
func (r *Records) resolve(i int32, col int, a *Axis, slo bool, t *Trial) {
	m, err := resolve(a, t)
	if err == nil {
		r.value(i, col, a, slo, m)
		return
	}
	var re *trial.ResolveError
	if !errors.As(err, &re) {
		r.fail(i, col, axisFail{code: ExcludeMissing, reason: err.Error()})
		return
	}
	f := axisFail{code: ExcludeMissing, reason: fmt.Sprintf("%s: no measurement matches", a.Label()), cands: re.Candidates}
	if re.Reason == trial.ReasonAmbiguous {
		f.code, f.reason = ExcludeAmbiguous, fmt.Sprintf("%s: %d measurements match; add a match key to pick one", a.Label(), len(re.Candidates))
	} else if why := trial.PerGPUUnknown(t, a.Metric); why != "" {
		f.code, f.reason = ExcludeUnavailable, fmt.Sprintf("%s: %s", a.Label(), why)
	}
	r.fail(i, col, f)
}

// value records m, the measurement axis a (an SLO when slo) resolves to
// on trial i, in column col.
func (r *Records) value(i int32, col int, a *Axis, slo bool, m trial.Measurement) {
	if why := badValue(m.Value, slo); why != "" {
		r.fail(i, col, axisFail{code: ExcludeInvalid, reason: a.Label() + ": " + why})
		return
	}
	exact := m.Metric == a.Metric && slices.Equal(m.Dims, a.Match)
	s := r.colSel[col]
	if !exact || s < 0 {
		name := m.String()
		var ok bool
		if s, ok = r.selOf[name]; !ok {
			s = int32(len(r.selNames))
			r.selOf[name] = s
			r.selNames = append(r.selNames, name)
		}
		if exact {
			r.colSel[col] = s // the measurement most trials resolve the column to: named once
		}
	}
	r.values, r.sels = append(r.values, m.Value), append(r.sels, s)
}

// fail records why column col of trial i has no value.
func (r *Records) fail(i int32, col int, f axisFail) {
	r.fails[[2]int32{i, int32(col)}] = f
	r.values, r.sels = append(r.values, 0), append(r.sels, -1)
}

// Metrics returns every metric the trials recorded measure, sorted, when
// an axis names a custom metric (what Config.CheckMetrics checks against;
// nil otherwise, when it checks nothing).
func (r *Records) Metrics() []string {
	if r.measured == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.measured))
}

// Cases returns the test cases of the trials recorded (CaseOf), in the
// order they first appear.
func (r *Records) Cases() []string {
	var out []string
	for _, pl := range r.places {
		if !slices.Contains(out, pl.caseID) {
			out = append(out, pl.caseID)
		}
	}
	return out
}

// pointPlace returns the fields of trial i's PointInfo that name and place
// it (builder.place).
func (r *Records) pointPlace(i int) PointInfo {
	pl := &r.places[r.place[i]]
	return PointInfo{Case: pl.caseID, Source: pl.path, Iteration: pl.iteration, Step: pl.step, Phase: pl.phase,
		Line: int(r.line[i]), Index: int(r.index[i])}
}

// pointName names a place for messages: "case · iter 0 · step 1".
func pointName(pl place) string {
	out := pl.caseID
	for _, part := range [][2]string{{"iter", pl.iteration}, {"step", pl.step}, {"phase", pl.phase}} {
		if part[1] != "" {
			out += " · " + part[0] + " " + part[1]
		}
	}
	return out
}

// Plan is a page decided from Records, but for the details of the points
// it lists: Page fills them from the trials IDs names.
type Plan struct {
	b *builder
}

// Plan decides the page of the trials recorded, with the exclusions excl
// (the inputs that yielded no trial), as Build does. The configuration and
// options r was made with must be Recordable.
func (r *Records) Plan(excl []Exclusion) (*Plan, error) {
	b, err := plan(r.cfg, r, nil, excl, r.opts)
	if err != nil {
		return nil, err
	}
	return &Plan{b: b}, nil
}

// IDs returns the IDs of the trials whose details the page lists, in the
// order recorded.
func (p *Plan) IDs() []string {
	if p.b.used == nil {
		return p.b.recs.id
	}
	var ids []string
	for i, u := range p.b.used {
		if u {
			ids = append(ids, p.b.recs.id[i])
		}
	}
	return ids
}

// Listed reports whether the page lists the details of trial i, in the
// order recorded: so that a second read of the same inputs keeps only
// those trials (PageOf).
func (p *Plan) Listed(i int) bool { return p.b.used == nil || p.b.used[i] }

// PageOf completes the page with ts, the trials Listed accepts in the
// order recorded, read again from the same inputs. A trial whose ID is
// not the one recorded at its place (an input that changed between the
// reads) is an error.
func (p *Plan) PageOf(ts []Trial) (*Page, error) {
	r := p.b.recs
	at := make([]*Trial, r.Len())
	k := 0
	for i := range r.Len() {
		if !p.Listed(i) {
			continue
		}
		if k >= len(ts) || !r.same(i, &ts[k]) {
			return nil, fmt.Errorf("the inputs changed while they were read: trial %d (%s) is not where it was", i+1, r.describe(i))
		}
		at[i] = &ts[k]
		k++
	}
	if k != len(ts) {
		return nil, fmt.Errorf("the inputs changed while they were read: %d trials listed, %d read", k, len(ts))
	}
	return p.b.fill(func(i int) *Trial { return at[i] }), nil
}

// Page completes the page with the trials IDs names (ts, in any order,
// may hold others). A trial it names but ts lacks is an error.
func (p *Plan) Page(ts []Trial) (*Page, error) {
	byID := make(map[string]*Trial, len(ts))
	for i := range ts {
		byID[ts[i].ID] = &ts[i]
	}
	r := p.b.recs
	at := make([]*Trial, r.Len())
	for i := range r.Len() {
		if p.b.used != nil && !p.b.used[i] {
			continue
		}
		t, ok := byID[r.id[i]]
		if !ok {
			return nil, fmt.Errorf("trial %s is no longer in the study", r.id[i])
		}
		at[i] = t
	}
	return p.b.fill(func(i int) *Trial { return at[i] }), nil
}
