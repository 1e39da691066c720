package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// judge classifies B's relative change b/a-1 with percentile interval
// [lo, hi] on objective o with its bands (decide.LogBands): better beyond
// the minimum improvement, worse beyond it, the same within the noise
// band both ways, else uncertain.
func judge(o frontier.Objective, lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) || lo <= -1 || hi <= -1 {
		return Uncertain
	}
	dlo, dhi := math.Log1p(lo), math.Log1p(hi)
	if o.Direction == frontier.Minimize {
		dlo, dhi = -dhi, -dlo
	}
	win, loss, band, refBand := decide.LogBands(o)
	switch {
	case dlo > win:
		return Better
	case dhi < loss:
		return Worse
	case dlo >= band && dhi <= refBand:
		return Same
	}
	return Uncertain
}

// read returns Y of c at x. A step is read within the X noise band: a
// point whose X falls short of x by less than the band reaches x (as
// differences within the band do not count on the noise-aware frontier),
// so that the jitter of repeats around a step does not read the next step.
func (e *engine) read(c *Curve, x float64) float64 {
	if e.opt.Interpolation == Step {
		if s := e.opt.Objectives[0].Noise * math.Abs(x); c.xMax {
			x -= s
		} else {
			x += s
		}
	}
	return c.At(x, e.opt.Interpolation)
}

// pairBoot is a pair's view of its sides' bootstraps: A's reads for the
// pair start at offA.
type pairBoot struct {
	a, b *sideBoot
	offA int
}

// at returns the replicates of side A's (or B's) Y at the pair's X i.
func (pb *pairBoot) at(b bool, i int) []float64 {
	if b {
		return pb.b.at(i)
	}
	return pb.a.at(pb.offA + i)
}

// change returns the replicates of B's relative change at the pair's X i.
func (pb *pairBoot) change(i int) []float64 {
	ya, yb := pb.at(false, i), pb.at(true, i)
	for r := range ya {
		ya[r] = ratio(yb[r], ya[r])
	}
	return ya
}

// uplift fills the 2-objective comparison of pair p and returns what it
// shows (the verdict is the relation's, not the curve's).
func (e *engine) uplift(p *Pair, bt *pairBoot, a, b int) []string {
	ox, oy := e.opt.Objectives[0], e.opt.Objectives[1]
	ca, cb := e.curves[a], e.curves[b]
	grid := e.grids[b]
	u := &Uplift{X: ox.Name, Y: oy.Name, Curve: []Change{}, Buckets: []Bucket{}, Crossings: []Crossover{}}
	loA, hiA := ca.Span()
	loB, hiB := cb.Span()
	u.SpanA, u.SpanB = [2]Num{Num(loA), Num(hiA)}, [2]Num{Num(loB), Num(hiB)}
	conf := e.opt.Confidence
	for i, x := range grid {
		c := Change{X: Num(x), A: Num(e.read(&ca, x)), B: Num(e.read(&cb, x))}
		c.Change = Num(ratio(float64(c.B), float64(c.A)))
		lo, hi := percentiles(bt.change(i), conf)
		c.Interval = [2]Num{Num(lo), Num(hi)}
		c.Status = judge(oy, lo, hi)
		u.Curve = append(u.Curve, c)
	}
	u.Reach = Change{X: Num(math.NaN()), A: Num(ca.Best()), B: Num(cb.Best()), Change: Num(ratio(cb.Best(), ca.Best()))}
	rch := make([]float64, len(bt.a.reach))
	for r := range rch {
		rch[r] = ratio(bt.b.reach[r], bt.a.reach[r])
	}
	rlo, rhi := percentiles(rch, conf)
	u.Reach.Interval = [2]Num{Num(rlo), Num(rhi)}
	u.Reach.Status = judge(ox, rlo, rhi)
	for i, x := range e.opt.At {
		u.Buckets = append(u.Buckets, e.bucket(bt, len(grid)+i, x, &ca, &cb))
	}
	u.Crossings = e.crossings(u.Curve, ca.xMax)
	p.Uplift = u
	return upliftReasons(p, u, len(grid) == 0)
}

// bucket reads both curves at x (evaluated X i of the bootstrap).
func (e *engine) bucket(bt *pairBoot, i int, x float64, ca, cb *Curve) Bucket {
	conf := e.opt.Confidence
	read := func(c *Curve, b bool) Reading {
		if out := c.Outside(x); out != "" {
			nan := Num(math.NaN())
			return Reading{Value: nan, Interval: [2]Num{nan, nan}, Outside: out}
		}
		return Reading{Value: Num(e.read(c, x)), Interval: interval(bt.at(b, i), conf), Interpolated: !c.Measured(x)}
	}
	bk := Bucket{X: Num(x), A: read(ca, false), B: read(cb, true), Status: Outside}
	bk.Change = Num(ratio(float64(bk.B.Value), float64(bk.A.Value)))
	bk.Interval = [2]Num{Num(math.NaN()), Num(math.NaN())}
	if bk.A.Outside == "" && bk.B.Outside == "" {
		lo, hi := percentiles(bt.change(i), conf)
		bk.Interval = [2]Num{Num(lo), Num(hi)}
		bk.Status = judge(e.opt.Objectives[1], lo, hi)
	}
	return bk
}

// crossings finds the changes of lead along the curve: between the last
// comparison one side is significantly ahead and the first where the
// other is. At is where the point estimates cross: with steps, the X of
// the frontier point where the step changes; linearly, the intersection.
func (e *engine) crossings(curve []Change, xMax bool) []Crossover {
	out := []Crossover{}
	last, leader := -1, ""
	for i, c := range curve {
		var l string
		switch c.Status {
		case Better:
			l = "b"
		case Worse:
			l = "a"
		default:
			continue
		}
		if leader != "" && l != leader {
			out = append(out, Crossover{At: Num(e.crossAt(curve[last:i+1], xMax)),
				Range: [2]Num{curve[last].X, c.X}, Below: leader, Above: l})
		}
		last, leader = i, l
	}
	return out
}

// crossAt returns where the point estimates of seg (from one leader's
// last comparison to the other's first) change sign.
func (e *engine) crossAt(seg []Change, xMax bool) float64 {
	yMax := e.opt.Objectives[1].Direction == frontier.Maximize
	lead := func(c Change) float64 {
		d := float64(c.B - c.A)
		if !yMax {
			d = -d
		}
		return d
	}
	for j := 0; j+1 < len(seg); j++ {
		d0, d1 := lead(seg[j]), lead(seg[j+1])
		if d0 == 0 || math.Signbit(d0) == math.Signbit(d1) && d1 != 0 {
			continue
		}
		x0, x1 := float64(seg[j].X), float64(seg[j+1].X)
		switch {
		case e.opt.Interpolation == Linear:
			return x0 + (x1-x0)*d0/(d0-d1)
		case xMax:
			return x0
		}
		return x1
	}
	return float64(seg[0].X)
}

// upliftReasons says what the uplift curve shows.
func upliftReasons(p *Pair, u *Uplift, disjoint bool) []string {
	var out []string
	if disjoint {
		out = append(out, fmt.Sprintf("the frontiers share no %s range (%s: %s to %s, %s: %s to %s): the uplift curve is empty",
			u.X, p.A, sig(u.SpanA[0]), sig(u.SpanA[1]), p.B, sig(u.SpanB[0]), sig(u.SpanB[1])))
	}
	count := map[string][]Change{}
	for _, c := range u.Curve {
		count[c.Status] = append(count[c.Status], c)
	}
	for _, st := range []string{Worse, Better, Uncertain} {
		cs := count[st]
		if len(cs) == 0 {
			continue
		}
		best := cs[0]
		for _, c := range cs {
			if math.Abs(float64(c.Change)) > math.Abs(float64(best.Change)) {
				best = c
			}
		}
		out = append(out, fmt.Sprintf(statusWord(st)+" at %d of %d values of %s (largest change %s at %s=%s)",
			p.B, p.A, u.Y, len(cs), len(u.Curve), u.X, fmtPct(best.Change), u.X, fmtNum(best.X)))
	}
	for _, c := range u.Crossings {
		out = append(out, fmt.Sprintf("the frontiers cross at %s=%s: %s leads below, %s above", u.X, fmtNum(c.At), sideName(p, c.Below), sideName(p, c.Above)))
	}
	return out
}

// statusWord is the format of a reason for comparisons of status st (B,
// A and Y follow).
func statusWord(st string) string {
	switch st {
	case Worse:
		return "%s is worse than %s on %s beyond the minimum improvement"
	case Better:
		return "%s is better than %s on %s beyond the minimum improvement"
	}
	return "%s against %s on %s is uncertain"
}

func sideName(p *Pair, s string) string {
	if s == "a" {
		return p.A
	}
	return p.B
}

func fmtNum(n Num) string {
	if !finite(float64(n)) {
		return "-"
	}
	return trial.FormatFloat(float64(n))
}

// fmtPct renders a relative change as "+12.3%".
func fmtPct(n Num) string {
	v := float64(n)
	if !finite(v) {
		return "-"
	}
	s := fmt.Sprintf("%+.1f%%", 100*v)
	return strings.Replace(s, "+0.0%", "0.0%", 1)
}
