package query

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Result is a query's answer: per group the frontier analysis of its
// points. Encode it with Write (or WriteJSON, WriteCSV, WriteTable); read
// it with Groups and Points.
type Result struct {
	query    *Query
	data     *Rows
	problems []*frontier.Problem
	names    []string
	results  []frontier.Result
	ranks    bool
	grouped  bool
	warnings []string
	// frontierOnly prints the frontier and the sizes of the other lists.
	frontierOnly bool
	// aggregate names how repeats were combined; baselineSpec is the
	// baseline selection.
	aggregate, baselineSpec string
}

// Run combines repeats, grounds points to the baseline and computes each
// group's frontier (several groups on every core, eachGroup). Its errors are *Error values (a baseline that selects
// nothing or is measured in another scope).
func Run(q *Query, d *Rows) (*Result, error) {
	if err := d.applyRepeats(); err != nil {
		return nil, err
	}
	rep := &Result{query: q, data: d, ranks: q.Ranks, grouped: q.GroupBy != "", frontierOnly: q.FrontierOnly,
		aggregate: q.Aggregate.String(), baselineSpec: q.Baseline}
	if d.points == nil {
		rep.aggregate = "none"
	}
	rep.warnings = append(rep.warnings, d.warnings...)
	names, rows := d.groups()
	if q.GroupBy != "" && len(d.ids) > 0 && len(names) == 1 && names[0] == "" {
		rep.warnings = append(rep.warnings, fmt.Sprintf("%s %s: no trial has a value of it, so there is one group", q.Fields.Name("group_by"), q.GroupBy))
	}
	problems := make([]*frontier.Problem, len(names))
	results := make([]frontier.Result, len(names))
	errs := make([]error, len(names))
	eachGroup(len(names), func(i int) {
		p := &frontier.Problem{Objectives: q.Objectives, Values: d.values, SLOs: q.SLOs, SLOValues: d.slo,
			Rows: rows[i], Rejected: d.rejected, Ranks: q.Ranks, Reference: q.Reference, AutoReference: q.AutoReference,
			CountDominated: q.FrontierOnly}
		if p.Rows == nil {
			p.Rows = allRows(len(d.ids))
		}
		problems[i] = p
		results[i], errs[i] = frontier.Analyze(p)
	})
	for i, name := range names {
		if errs[i] != nil {
			rep.warnings = append(rep.warnings, errs[i].Error())
			continue
		}
		rep.problems = append(rep.problems, problems[i])
		rep.names = append(rep.names, name)
		rep.results = append(rep.results, results[i])
	}
	if len(rep.results) > 0 && rep.results[0].Cyclic {
		rep.warnings = append(rep.warnings, cycleWarning(q.Objectives))
	}
	if n, p := rep.Unusable(); n > 0 {
		rep.warnings = append(rep.warnings, UnusableText(n, p))
	}
	return rep, nil
}

// Unusable returns, when every point of every group is invalid (none has
// a value on every objective and SLO: no trial records a metric, or its
// selector is misspelled or ambiguous), how many there are and the first
// one; 0 when some point can be compared, or there is none.
func (r *Result) Unusable() (n int, first Point) {
	for g := range r.results {
		res := &r.results[g]
		if len(res.Frontier) > 0 || res.DominatedCount > 0 || len(res.Dominated) > 0 || len(res.Infeasible) > 0 {
			return 0, Point{}
		}
		if n == 0 && len(res.Invalid) > 0 {
			first = r.point(res.Invalid[0].Row, res.Invalid[0].Reason)
		}
		n += len(res.Invalid)
	}
	return n, first
}

// UnusableText says that none of n points can be compared, with the
// reason of the first.
func UnusableText(n int, first Point) string {
	return fmt.Sprintf("no trial can be compared: all %d are invalid (%s: %s)", n, first.ID, first.Reason)
}

// eachGroup calls analyze(i) for every group i < n, on every core when
// there are several groups: frontier.Analyze only reads the columns the
// groups share, and each call writes its own index, so the result (and
// its order) is the sequential one. Fifty sets of 10³ 5D points with a
// hypervolume each take half the wall time on two cores.
func eachGroup(n int, analyze func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers < 2 {
		for i := range n {
			analyze(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				analyze(i)
			}
		})
	}
	wg.Wait()
}

// applyRepeats combines repeats and grounds points to the baseline.
// Generic table rows (no trial) are each their own configuration unless
// the query names configuration keys.
func (d *Rows) applyRepeats() error {
	q := d.q
	if len(d.keys) == 0 && !slices.ContainsFunc(d.trials, func(t *trial.Trial) bool { return t != nil }) && q.Baseline == "" {
		return nil
	}
	d.aggregate(q.Aggregate, q.ConfigKeys)
	if q.Baseline != "" {
		return d.baselineDeltas(q.Baseline, q.AllowCrossScope)
	}
	return nil
}

// Query returns the query the result answers.
func (r *Result) Query() *Query { return r.query }

// Warnings returns the result's warnings (noise cycles, groups that could
// not be analysed).
func (r *Result) Warnings() []string { return r.warnings }

// Group is one group's answer in plain values.
type Group struct {
	// Name is the group's value of Query.GroupBy ("" without it).
	Name string
	// Frontier, Dominated, Infeasible and Invalid list the points by
	// display id; Frontier in the frontier's order, the others in input
	// order. With Query.FrontierOnly, Dominated is empty
	// (Analysis.DominatedCount counts it).
	Frontier, Dominated, Infeasible, Invalid []Point
	// Analysis is the frontier analysis; its rows index Points.
	Analysis *frontier.Result
}

// Point is one point of a group: a row, or the repeats of one
// configuration under one workload.
type Point struct {
	// ID names the point (its first member's display id).
	ID string
	// Values are the objective values (the aggregate of the repeats);
	// SLOValues the SLO columns, aggregated the same way.
	Values, SLOValues []float64
	// Spread is, per objective, the summary of the members' values.
	Spread []repeat.Stat
	// Members are the display ids of the runs the point aggregates.
	Members []string
	// Reason says why an invalid point cannot be compared.
	Reason string
	// Deltas are the relative deltas to the baseline, nil without one.
	Deltas []float64
	// Trial is the first member's trial (nil for table rows).
	Trial *trial.Trial
}

// Groups returns every group's points in plain values.
func (r *Result) Groups() []Group {
	out := make([]Group, len(r.results))
	for g := range r.results {
		res := &r.results[g]
		gr := Group{Name: r.names[g], Analysis: res}
		for _, m := range res.Frontier {
			gr.Frontier = append(gr.Frontier, r.point(m.Row, ""))
		}
		for _, m := range res.Dominated {
			gr.Dominated = append(gr.Dominated, r.point(m.Row, ""))
		}
		for _, m := range res.Infeasible {
			gr.Infeasible = append(gr.Infeasible, r.point(m.Row, ""))
		}
		for _, m := range res.Invalid {
			gr.Invalid = append(gr.Invalid, r.point(m.Row, m.Reason))
		}
		out[g] = gr
	}
	return out
}

func (r *Result) point(row int32, reason string) Point {
	d := r.data
	p := Point{ID: d.ids[row], Reason: reason, Trial: trialAt(d.trials, row)}
	for o := range d.values {
		p.Values = append(p.Values, d.values[o][row])
		p.Spread = append(p.Spread, d.stat(row, o))
	}
	for s := range d.slo {
		p.SLOValues = append(p.SLOValues, d.slo[s][row])
	}
	if d.points != nil {
		for _, m := range d.members(int32(row)) {
			p.Members = append(p.Members, d.memberIDs[m])
		}
		p.Deltas = d.points[row].baseline().delta
	} else {
		p.Members = []string{p.ID}
	}
	return p
}

// Len returns the number of points (rows of every group's analysis).
func (r *Result) Len() int { return len(r.data.ids) }

// Analysis returns group g's frontier analysis; its rows are points.
func (r *Result) Analysis(g int) *frontier.Result { return &r.results[g] }

// Members returns the input rows (in the order they were added) that
// point p aggregates.
func (r *Result) Members(p int32) []int32 {
	if r.data.points == nil {
		return []int32{p}
	}
	return r.data.members(p)
}

// Baseline returns the baseline point p is compared with, or nil and why
// it has none (empty without a baseline).
func (r *Result) Baseline(p int32) (*Base, string) {
	if r.data.points == nil {
		return nil, ""
	}
	c := r.data.points[p].baseline()
	return c.base, c.why
}

// BaselineAbsent is the reason Baseline gives for the points of a group
// the baseline is not in (with Query.BaselineMayBeAbsent).
func (r *Result) BaselineAbsent() string { return baselineAbsent(r.query.Baseline) }

func baselineAbsent(spec string) string { return "the baseline " + spec + " is not in this group" }

// Value returns point p's value on objective o.
func (r *Result) Value(p int32, o int) float64 { return r.data.values[o][p] }

// SLOValue returns point p's value on SLO column s, aggregated over its
// repeats as the objectives are.
func (r *Result) SLOValue(p int32, s int) float64 { return r.data.slo[s][p] }

// Stat returns the summary of point p's members on objective o.
func (r *Result) Stat(p int32, o int) repeat.Stat { return r.data.stat(p, o) }

// DecidePoints returns every point as decide sees it (for decide.Pick):
// its repeats as a repeat.Group, and one Stat per objective then per SLO,
// aggregated as the query says; a point that cannot be compared carries
// the reason in Err. Rows without a trial (table columns) have an empty
// group.
func (r *Result) DecidePoints() []repeat.Point {
	d := r.data
	if d.points != nil {
		d.describeGroups()
	}
	out := make([]repeat.Point, len(d.ids))
	for i := range out {
		row := int32(i)
		p := repeat.Point{Group: &repeat.Group{}}
		members := []int32{row}
		orig := d.values
		origSLO := d.slo
		if d.points != nil {
			if g := d.points[i].group; g != nil {
				c := *g
				p.Group = &c
			}
			members = d.members(int32(i))
			orig, origSLO = d.orig, d.origSLO
		}
		for o := range d.values {
			p.Stats = append(p.Stats, repeat.Summarize(gather(orig[o], members), r.query.Aggregate))
		}
		for s := range d.slo {
			p.Stats = append(p.Stats, repeat.Summarize(gather(origSLO[s], members), r.query.Aggregate))
		}
		if why, bad := d.rejected[row]; bad {
			p.Err = why
		}
		out[i] = p
	}
	return out
}
