package trial

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Reasons a selector does not yield a value for a trial.
const (
	ReasonMissing   = "missing"   // no measurement matches
	ReasonAmbiguous = "ambiguous" // more than one measurement matches
	ReasonUnusable  = "unusable"  // the trial has a Problem (e.g. no successful requests)
)

// maxCandidates bounds the candidate list of a ResolveError.
const maxCandidates = 20

// ResolveError says why a selector yields no single measurement.
type ResolveError struct {
	Selector string
	TrialID  string
	// Reason is ReasonMissing, ReasonAmbiguous or ReasonUnusable.
	Reason string
	// Detail is the trial's Problem for ReasonUnusable.
	Detail string
	// Candidates are selectors of measurements that did match (ambiguous) or
	// that share the metric name, or else all metric names (missing).
	Candidates []string
}

// Error renders e.g. `ttft: ambiguous in trial 0123abcd (candidates: ttft.mean, ttft.p99)`.
func (e *ResolveError) Error() string {
	msg := fmt.Sprintf("%s: %s in trial %s", e.Selector, e.Reason, e.TrialID)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if len(e.Candidates) > 0 {
		msg += " (candidates: " + strings.Join(e.Candidates, ", ") + ")"
	}
	return msg
}

// Resolve returns the single measurement of t that s selects. A measurement
// matches when its Metric or Native name equals the selector's name and its
// Dims contain every selector dimension. If several match, those with the
// fewest dimensions are kept (so "ttft.p99" prefers the plain value over
// "ttft.p99{phase=warmup}"); if several still remain, the result is a
// ResolveError with ReasonAmbiguous. No match gives ReasonMissing. An exact
// name that matches no measurement with the requested dims falls back to
// the dot split.
func (s Selector) Resolve(t *Trial) (Measurement, error) {
	var r Resolver // on the stack
	r.prepare(s)
	return r.Resolve(t)
}

func (s Selector) dimsWith(stat string) Dims {
	if len(s.Dims) == 0 {
		return StatDims(stat)
	}
	return s.Dims.With(DimStatistic, stat)
}

// missingCandidates lists the selectors of the metric if it exists with
// other dims, else the distinct metric names of the trial.
func missingCandidates(t *Trial, name string) []string {
	var same []string
	names := map[string]bool{}
	for i := range t.Measurements {
		m := &t.Measurements[i]
		if m.Metric == name || m.Native == name {
			same = append(same, m.String())
		}
		names[m.Metric] = true
	}
	if len(same) > 0 {
		return capList(same)
	}
	all := make([]string, 0, len(names))
	for n := range names {
		all = append(all, n)
	}
	sort.Strings(all)
	return capList(all)
}

func capList(l []string) []string {
	if len(l) > maxCandidates {
		l = append(l[:maxCandidates:maxCandidates], fmt.Sprintf("… %d more", len(l)-maxCandidates))
	}
	return l
}

// Resolver is a Selector prepared to resolve on many trials: the names it
// may match, with the dims each wants, are worked out once, and Resolve
// goes through a trial's measurements once for all of them. Selector.Resolve
// is NewResolver(s).Resolve. A Resolver is safe for concurrent use.
type Resolver struct {
	sel Selector
	// The names Resolve tries, in order (cand): the selector's Name with
	// its Dims (which falls through when no measurement of that name has
	// those dims), each split of Name at a dot before a statistic, and
	// last Metric with its Statistic, which is cand(final) (the same name
	// and dims are tried once): the splits are 1 to splits. The first
	// four are in inline, any others in more.
	inline        [4]resolveCand
	more          []resolveCand
	n             int
	splits, final int
}

// resolveCand is one name a Resolver tries, with the dims it wants.
type resolveCand struct {
	name string
	dims Dims
}

// candMatches is what a pass found of a candidate: whether a measurement
// has its name, and of those that also have its dims the fewest dims, how
// many have that many, and the first of them.
type candMatches struct {
	found         bool
	fewest, count int
	at            int
}

// NewResolver prepares s (see Resolver).
func NewResolver(s Selector) *Resolver {
	r := &Resolver{}
	r.prepare(s)
	return r
}

// prepare makes r a Resolver of s.
func (r *Resolver) prepare(s Selector) {
	r.sel = s
	r.add(s.Name, s.Dims)
	for i := 1; i < len(s.Name); i++ {
		if s.Name[i] != '.' {
			continue
		}
		if st, ok := NormalizeStatistic(s.Name[i+1:]); ok {
			r.add(s.Name[:i], s.dimsWith(st)) // a prefix of Name: neither Name nor another split
			r.splits++
		}
	}
	want := s.Dims
	if s.Statistic != "" {
		want = s.dimsWith(s.Statistic)
	}
	r.final = r.add(s.Metric, want)
}

// add makes name with dims the next name r tries, unless it is one
// already, and returns its index.
func (r *Resolver) add(name string, dims Dims) int {
	for k := range r.n {
		if c := r.cand(k); c.name == name && slices.Equal(c.dims, dims) {
			return k
		}
	}
	if c := (resolveCand{name: name, dims: dims}); r.n < len(r.inline) {
		r.inline[r.n] = c
	} else {
		r.more = append(r.more, c)
	}
	r.n++
	return r.n - 1
}

// cand returns the k-th name r tries.
func (r *Resolver) cand(k int) *resolveCand {
	if k < len(r.inline) {
		return &r.inline[k]
	}
	return &r.more[k-len(r.inline)]
}

// Resolve returns the single measurement of t that r's selector selects
// (Selector.Resolve).
func (r *Resolver) Resolve(t *Trial) (Measurement, error) {
	if t.Problem != "" {
		return Measurement{}, &ResolveError{Selector: r.sel.String(), TrialID: t.ID, Reason: ReasonUnusable, Detail: t.Problem}
	}
	var buf [4]candMatches // no allocation for the name, a split and Metric
	var cs []candMatches
	if r.n > len(buf) {
		cs = make([]candMatches, r.n)
	} else {
		cs = buf[:r.n]
	}
	k := r.pass(t, cs)
	c := &cs[k]
	if c.count == 1 {
		return t.Measurements[c.at], nil
	}
	cand := r.cand(k)
	e := &ResolveError{Selector: r.sel.String(), TrialID: t.ID, Reason: ReasonMissing}
	if c.count > 1 {
		e.Reason = ReasonAmbiguous
		for i := c.at; i < len(t.Measurements); i++ {
			if m := &t.Measurements[i]; (m.Metric == cand.name || m.Native == cand.name) && len(m.Dims) == c.fewest && m.Dims.Contains(cand.dims) {
				e.Candidates = append(e.Candidates, m.String())
			}
		}
		e.Candidates = capList(e.Candidates)
		return Measurement{}, e
	}
	e.Candidates = missingCandidates(t, cand.name)
	return Measurement{}, e
}

// pass goes through t's measurements once, filling cs (one per candidate),
// and returns the candidate that decides: the selector's Name when a
// measurement of it has the dims, else the first split whose metric is
// there, else Metric.
func (r *Resolver) pass(t *Trial, cs []candMatches) int {
	cands := r.inline[:min(r.n, len(r.inline))]
	if len(r.more) > 0 {
		cands = append(slices.Clone(cands), r.more...)
	}
	for k := range cs {
		cs[k] = candMatches{fewest: -1}
	}
	for i := range t.Measurements {
		m := &t.Measurements[i]
		for k := range cands {
			cand := &cands[k]
			if m.Metric != cand.name && m.Native != cand.name {
				continue
			}
			c := &cs[k]
			c.found = true
			if !m.Dims.Contains(cand.dims) {
				continue
			}
			switch n := len(m.Dims); {
			case c.fewest < 0 || n < c.fewest:
				c.fewest, c.count, c.at = n, 1, i
			case n == c.fewest:
				c.count++
			}
		}
	}
	if cs[0].count > 0 {
		return 0
	}
	for k := 1; k <= r.splits; k++ {
		if cs[k].found {
			return k
		}
	}
	return r.final
}
