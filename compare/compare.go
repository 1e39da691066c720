package compare

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// DefaultResamples is the number of bootstrap resamples when Options says
// none.
const DefaultResamples = 1000

// MaxCurve bounds the X values of an uplift curve: frontiers with more
// points between them are read at MaxCurve of their X values, evenly
// spread by rank, the span's ends included (a step narrower than that
// spacing may go unread).
const MaxCurve = 1000

// thin returns at most n values of sorted xs, evenly spread by rank, the
// first and last kept.
func thin(xs []float64, n int) []float64 {
	if len(xs) <= n {
		return xs
	}
	out := make([]float64, n)
	for i := range n {
		out[i] = xs[i*(len(xs)-1)/(n-1)]
	}
	return out
}

// Options says how sides are compared.
type Options struct {
	// Objectives are the axes; with two, X is the first and Y the second.
	// Their Noise and MinImprove are the bands verdicts are judged with.
	Objectives []frontier.Objective
	// Reference is the common hypervolume reference point (natural
	// orientation); nil derives it with frontier.AutoReference from the
	// points and every run of every side together (so that no resample
	// falls beyond it).
	Reference []float64
	// At are the X values the two frontiers are read at (buckets).
	At []float64
	// Interpolation reads a frontier between its points.
	Interpolation Interpolation
	// Aggregate is how a resample's drawn repeats become a point (as the
	// query aggregated them).
	Aggregate repeat.Aggregation
	// Resamples is the number of bootstrap resamples (DefaultResamples when
	// zero); Seed seeds them; Confidence is the level of every interval
	// (0.95 when zero).
	Resamples  int
	Seed       uint64
	Confidence float64
	// Fields names the settings that verdict reasons name (an objective's
	// noise and min_improve) as the caller spells them (the command
	// line: --noise); nil keeps their own names.
	Fields field.Namer
}

// Run compares the first side (A) with every other side (B): hypervolume
// against one reference point, and for two objectives the uplift curve
// and buckets, each with a percentile interval from a seeded bootstrap over
// every configuration's repeats, and a verdict. Equal inputs and options
// give equal reports.
func Run(sides []*Side, opt Options) (*Report, error) {
	k := len(opt.Objectives)
	switch {
	case k == 0:
		return nil, errors.New("compare: no objectives")
	case len(sides) < 2:
		return nil, errors.New("compare: want at least two sides")
	case opt.Reference != nil && len(opt.Reference) != k:
		return nil, fmt.Errorf("compare: reference has %d values for %d objectives", len(opt.Reference), k)
	}
	for _, s := range sides {
		if len(s.Points) == 0 {
			return nil, fmt.Errorf("side %s has no feasible point", s.Name)
		}
	}
	if opt.Resamples <= 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 {
		opt.Confidence = 0.95
	}
	objs, info, measured := measureBands(sides, opt.Objectives, opt.Confidence)
	opt.Objectives = objs
	if err := checkPositive(sides, objs); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	e := &engine{opt: opt, k: k, sides: sides, measured: measured, info: info}
	e.reference()
	for _, s := range sides {
		e.active = append(e.active, e.mayLead(s))
	}
	rep := &Report{Interpolation: opt.Interpolation.String(), Resamples: opt.Resamples, Seed: opt.Seed,
		Confidence: Num(opt.Confidence), Reference: nums(e.ref), Warnings: []string{}}
	rep.Objectives = info
	for _, s := range sides {
		rep.Sides = append(rep.Sides, e.summary(s))
		if w := singleRuns(s); w != "" {
			rep.Warnings = append(rep.Warnings, w)
		}
	}
	evals, offsets := e.plan()
	boots := make([]*sideBoot, len(sides))
	for i := range sides {
		boots[i] = e.bootSide(i, evals[i])
		rep.Sides[i].Hypervolume, rep.Sides[i].Interval = Num(boots[i].est), interval(boots[i].hv, opt.Confidence)
	}
	for b := 1; b < len(sides); b++ {
		p, warn := e.pair(0, b, boots[0], boots[b], offsets[b])
		rep.Pairs = append(rep.Pairs, p)
		for _, w := range warn {
			if !slices.Contains(rep.Warnings, w) {
				rep.Warnings = append(rep.Warnings, w)
			}
		}
	}
	return rep, nil
}

// engine holds what every pair shares.
type engine struct {
	opt   Options
	k     int
	sides []*Side
	ref   []float64
	// curves are the sides' point estimates as curves (two objectives);
	// grids the X of each pair's uplift curve (pair b at grids[b]).
	curves []Curve
	grids  [][]float64
	// active are, per side, the points that may be on the frontier of a
	// resample (mayLead).
	active [][]int
	// measured is false when an objective has no band and the repeats
	// cannot measure one (measureBands).
	measured bool
	info     []Objective
}

// sampler returns a sampler of side s's points that may lead.
func (e *engine) sampler(s int) *sampler {
	pts := e.active[s]
	return &sampler{side: e.sides[s], pts: pts, k: e.k, agg: e.opt.Aggregate, buf: make([]float64, len(pts)*e.k)}
}

// mayLead returns the points of s that may be on the frontier of some
// resample: all but those that the worst runs of another point beat
// (strictly dominate) on every objective even against their own best runs.
// An aggregate of drawn repeats (median or mean) lies between the worst
// and the best run, so such a point is dominated in every resample.
func (e *engine) mayLead(s *Side) []int {
	n, k := len(s.Points), e.k
	best, worst := make([]float64, n*k), make([]float64, n*k) // oriented: smaller is better
	for i := range s.Points {
		p := &s.Points[i]
		for o := range k {
			lo, hi := p.Values[o], p.Values[o]
			if p.Runs != nil {
				for _, v := range p.Runs[o] {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			if e.opt.Objectives[o].Direction == frontier.Maximize {
				lo, hi = -hi, -lo
			}
			best[i*k+o], worst[i*k+o] = lo, hi
		}
	}
	var front []int
	for i, by := range frontier.StrictFront(worst, k) {
		if by < 0 {
			front = append(front, i)
		}
	}
	slices.SortFunc(front, func(a, b int) int { return cmp.Compare(worst[a*k], worst[b*k]) })
	out := make([]int, 0, n)
	for i := range n {
		if !beatenAlways(best[i*k:i*k+k], worst, front, k, i) {
			out = append(out, i)
		}
	}
	return out
}

// beatenAlways reports whether some point f of front (sorted by the first
// oriented objective) other than self has worst values that strictly
// dominate b.
func beatenAlways(b, worst []float64, front []int, k, self int) bool {
	for _, f := range front {
		w := worst[f*k : f*k+k]
		if w[0] > b[0] {
			return false
		}
		if f == self {
			continue
		}
		strict, ok := false, true
		for o := range k {
			if w[o] > b[o] {
				ok = false
				break
			}
			strict = strict || w[o] < b[o]
		}
		if ok && strict {
			return true
		}
	}
	return false
}

// plan returns the X values each side is read at in its resamples, and
// where pair b's values start in side 0's list: for two objectives, each
// pair's curve grid (every X of either frontier within both spans) and
// then the buckets.
func (e *engine) plan() (evals [][]float64, offsets []int) {
	evals, offsets = make([][]float64, len(e.sides)), make([]int, len(e.sides))
	if e.k != 2 {
		return evals, offsets
	}
	e.curves, e.grids = make([]Curve, len(e.sides)), make([][]float64, len(e.sides))
	for i := range e.sides {
		sm := e.sampler(i)
		e.curves[i] = e.curveOf(sm, sm.estimate())
	}
	ca := &e.curves[0]
	for b := 1; b < len(e.sides); b++ {
		cb := &e.curves[b]
		loA, hiA := ca.Span()
		loB, hiB := cb.Span()
		lo, hi := max(loA, loB), min(hiA, hiB)
		var grid []float64
		for _, x := range append(slices.Clip(ca.X), cb.X...) {
			if x >= lo && x <= hi {
				grid = append(grid, x)
			}
		}
		slices.Sort(grid)
		e.grids[b] = thin(slices.Compact(grid), MaxCurve)
		evals[b] = append(slices.Clip(e.grids[b]), e.opt.At...)
		offsets[b] = len(evals[0])
		evals[0] = append(evals[0], evals[b]...)
	}
	return evals, offsets
}

// reference sets the common reference point.
func (e *engine) reference() {
	if e.opt.Reference != nil {
		e.ref = slices.Clone(e.opt.Reference)
		return
	}
	// Every run of every side counts, so that no resample's aggregate
	// falls beyond the reference (an aggregate lies within its runs).
	var all []float64
	for _, s := range e.sides {
		for _, p := range s.Points {
			all = append(all, p.Values...)
			for i := range p.runs() {
				for o := range p.Runs {
					all = append(all, p.Runs[o][i])
				}
			}
		}
	}
	all = e.orient(all)
	e.ref = e.orient(frontier.AutoReference(all, e.k))
}

// orient returns v with maximised objectives negated (hypervolume
// minimises); it is its own inverse.
func (e *engine) orient(v []float64) []float64 {
	out := slices.Clone(v)
	for i := range out {
		if e.opt.Objectives[i%e.k].Direction == frontier.Maximize {
			out[i] = -out[i]
		}
	}
	return out
}

// rng returns the generator of resample r of side s: a side's resamples
// are the same in every pair, and a side given twice is resampled alike.
func (e *engine) rng(s, r int) *rand.Rand {
	s = slices.Index(e.sides, e.sides[s])
	return rand.New(rand.NewPCG(e.opt.Seed, uint64(s)<<32|uint64(r)))
}

// parallel runs f over [0, Resamples) in contiguous chunks, one per CPU.
func (e *engine) parallel(f func(r0, r1 int)) {
	n := e.opt.Resamples
	workers := min(runtime.GOMAXPROCS(0), max(n/16, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { f(n*w/workers, n*(w+1)/workers) })
	}
	wg.Wait()
}

// summary describes a side.
func (e *engine) summary(s *Side) SideSummary {
	sum := SideSummary{Name: s.Name, Points: len(s.Points), Excluded: s.Excluded, Frontier: []FrontierPoint{}}
	for i := range s.Points {
		sum.Runs += s.Points[i].runs()
	}
	data := make([]float64, 0, len(s.Points)*e.k)
	for _, p := range s.Points {
		data = append(data, e.orient(p.Values)...)
	}
	var rows []int
	for i, by := range frontier.StrictFront(data, e.k) {
		if by < 0 {
			rows = append(rows, i)
		}
	}
	if e.k == 2 {
		// Ascending X, as the curve is read.
		slices.SortStableFunc(rows, func(a, b int) int {
			return cmp.Compare(s.Points[a].Values[0], s.Points[b].Values[0])
		})
	}
	for _, r := range rows {
		sum.Frontier = append(sum.Frontier, FrontierPoint{ID: s.Points[r].ID, Values: nums(s.Points[r].Values)})
	}
	return sum
}

// singleRuns warns when points of s have one run only.
func singleRuns(s *Side) string {
	n := 0
	for i := range s.Points {
		if s.Points[i].runs() < 2 {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("side %s: %d of %d points have a single run: their uncertainty is not measured (intervals are narrower than the truth)", s.Name, n, len(s.Points))
}

// pair compares side b with side a (whose reads for this pair start at
// offset in its bootstrap), with the warnings it draws.
func (e *engine) pair(a, b int, ba, bb *sideBoot, offset int) (Pair, []string) {
	p := Pair{A: e.sides[a].Name, B: e.sides[b].Name, Reasons: []string{}}
	p.Hypervolume = HVChange{A: Num(ba.est), B: Num(bb.est), Change: Num(ratio(bb.est, ba.est))}
	ch := make([]float64, e.opt.Resamples)
	for r := range ch {
		ch[r] = ratio(bb.hv[r], ba.hv[r])
	}
	p.Hypervolume.Interval = interval(ch, e.opt.Confidence)
	var curveWhy []string
	if e.k == 2 {
		curveWhy = e.uplift(&p, &pairBoot{a: ba, b: bb, offA: offset}, a, b)
	}
	warn := e.verdict(&p, a, b)
	p.Reasons = append(p.Reasons, curveWhy...)
	if len(p.Reasons) == 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("%s and %s reach each other's frontier points within the noise bands", p.B, p.A))
	}
	return p, warn
}

// ratio returns b/a - 1 (NaN when a is zero or either is not finite).
func ratio(b, a float64) float64 {
	if a == 0 || !finite(a) || !finite(b) {
		return math.NaN()
	}
	return b/a - 1
}

// interval returns the percentile interval of the finite values at level
// conf (NaN bounds when none is finite).
func interval(vals []float64, conf float64) [2]Num {
	lo, hi := percentiles(vals, conf)
	return [2]Num{Num(lo), Num(hi)}
}

func percentiles(vals []float64, conf float64) (lo, hi float64) {
	fin := make([]float64, 0, len(vals))
	for _, v := range vals {
		if finite(v) {
			fin = append(fin, v)
		}
	}
	if len(fin) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(fin)
	return repeat.Quantile(fin, (1-conf)/2), repeat.Quantile(fin, (1+conf)/2)
}

func nums(v []float64) []Num {
	out := make([]Num, len(v))
	for i, x := range v {
		out[i] = Num(x)
	}
	return out
}
