package decide

import "math"

// tri is a three-valued truth: known false, unknown, known true.
type tri int8

const (
	triFalse tri = iota - 1
	triUnknown
	triTrue
)

// outcome is the value of a proposition with what would settle it.
type outcome struct {
	v tri
	// likely is the value the point estimates suggest.
	likely bool
	// need holds the runs to add per side (0: candidate, 1+: references)
	// when v is unknown.
	need []int
}

// prop is a proposition over the comparison intervals of the candidate
// against its references.
type prop interface {
	// eval evaluates the proposition; pos says whether it being true
	// favours admission, which selects the confidence level used.
	eval(c *evalCtx, pos bool) outcome
}

// evalCtx holds the intervals and the two confidence levels.
type evalCtx struct {
	// iv[r][w][i] is the oriented log difference (positive: the candidate
	// is better) against reference r on workload w and objective i.
	iv [][][]Interval
	// admit is the level a fact favouring admission must reach; reject
	// the level for a fact against it.
	admit, reject float64
	sides         int
	// seq spends the admission error over the tests and looks of the
	// atoms marked seq (better than the baseline by the minimum
	// improvement), which use its level instead of admit.
	seq spending
	// capCand and capRef[r] cap the runs asked for of the candidate and
	// of reference r.
	capCand int
	capRef  []int
}

// cmpAtom is "d > thr" (gt) or "d < thr" for reference r, workload w,
// objective i. A seq atom is one test of the admission's family: true at
// the level evalCtx.seq gives its look.
type cmpAtom struct {
	r, w, i int
	gt      bool
	thr     float64
	seq     bool
}

func (a cmpAtom) eval(c *evalCtx, pos bool) outcome {
	iv := c.iv[a.r][a.w][a.i]
	likely := iv.Est > a.thr
	if !a.gt {
		likely = iv.Est < a.thr
	}
	conf := fixed(c.reject)
	if likely == pos {
		conf = fixed(c.admit)
		if a.seq {
			conf = c.seq.level
		}
	}
	lo, hi := iv.Bounds(conf(iv.NA, iv.NB))
	out := outcome{v: triUnknown, likely: likely}
	switch {
	case lo > a.thr && a.gt || hi < a.thr && !a.gt:
		out.v = triTrue
	case hi <= a.thr && a.gt || lo >= a.thr && !a.gt:
		out.v = triFalse
	}
	if out.v == triUnknown {
		out.need = make([]int, c.sides)
		out.need[0], out.need[1+a.r] = iv.moreRuns(conf, math.Abs(iv.Est-a.thr), c.capCand, c.capRef[a.r])
	}
	return out
}

// notProp negates a proposition.
type notProp struct{ x prop }

func (n notProp) eval(c *evalCtx, pos bool) outcome {
	o := n.x.eval(c, !pos)
	o.v, o.likely = -o.v, !o.likely
	return o
}

// allProp is a conjunction (anyProp false) or a disjunction (anyProp true).
type allProp struct {
	xs []prop
	or bool
}

func and(xs ...prop) prop { return allProp{xs: xs} }
func or(xs ...prop) prop  { return allProp{xs: xs, or: true} }

// eval combines with Kleene logic. An unknown result needs the runs that
// settle the child most likely to decide it (the cheapest such child), or,
// when every child is likely to go the other way, all of them.
func (p allProp) eval(c *evalCtx, pos bool) outcome {
	decisive := triFalse // the value of one child that decides the whole
	if p.or {
		decisive = triTrue
	}
	out := outcome{v: -decisive, likely: decisive != triTrue}
	var cheapest, all []int
	for _, x := range p.xs {
		o := x.eval(c, pos)
		if o.v == decisive {
			return outcome{v: decisive, likely: decisive == triTrue}
		}
		if o.v != triUnknown {
			continue
		}
		out.v = triUnknown
		all = maxNeed(all, o.need)
		if o.likely == (decisive == triTrue) {
			out.likely = o.likely
			if cheapest == nil || sum(o.need) < sum(cheapest) {
				cheapest = o.need
			}
		}
	}
	if out.v == triUnknown {
		out.need = all
		if cheapest != nil {
			out.need = cheapest
		}
	}
	return out
}

func maxNeed(a, b []int) []int {
	if a == nil {
		return append([]int(nil), b...)
	}
	for i := range a {
		a[i] = max(a[i], b[i])
	}
	return a
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
