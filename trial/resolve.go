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
	if t.Problem != "" {
		return Measurement{}, &ResolveError{Selector: s.String(), TrialID: t.ID, Reason: ReasonUnusable, Detail: t.Problem}
	}
	if hasName(t, s.Name) {
		m, err := s.pick(t, s.Name, s.Dims)
		if re, ok := err.(*ResolveError); !ok || re.Reason != ReasonMissing {
			return m, err
		}
	}
	for i := 1; i < len(s.Name); i++ {
		if s.Name[i] != '.' {
			continue
		}
		st, ok := NormalizeStatistic(s.Name[i+1:])
		if ok && hasName(t, s.Name[:i]) {
			return s.pick(t, s.Name[:i], s.dimsWith(st))
		}
	}
	want := s.Dims
	if s.Statistic != "" {
		want = s.dimsWith(s.Statistic)
	}
	return s.pick(t, s.Metric, want)
}

func (s Selector) dimsWith(stat string) Dims {
	if len(s.Dims) == 0 {
		return StatDims(stat)
	}
	return s.Dims.With(DimStatistic, stat)
}

func hasName(t *Trial, name string) bool {
	for i := range t.Measurements {
		if m := &t.Measurements[i]; m.Metric == name || m.Native == name {
			return true
		}
	}
	return false
}

func (s Selector) pick(t *Trial, name string, dims Dims) (Measurement, error) {
	var matches []int
	fewest := -1
	for i := range t.Measurements {
		m := &t.Measurements[i]
		if (m.Metric != name && m.Native != name) || !m.Dims.Contains(dims) {
			continue
		}
		switch {
		case fewest < 0 || len(m.Dims) < fewest:
			fewest = len(m.Dims)
			matches = append(matches[:0], i)
		case len(m.Dims) == fewest:
			matches = append(matches, i)
		}
	}
	if len(matches) == 1 {
		return t.Measurements[matches[0]], nil
	}
	e := &ResolveError{Selector: s.String(), TrialID: t.ID, Reason: ReasonMissing}
	if len(matches) > 1 {
		e.Reason = ReasonAmbiguous
		for _, i := range matches {
			e.Candidates = append(e.Candidates, t.Measurements[i].String())
		}
		e.Candidates = capList(e.Candidates)
		return Measurement{}, e
	}
	e.Candidates = missingCandidates(t, name)
	return Measurement{}, e
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
// goes through a trial's measurements once for all of them, where
// Selector.Resolve goes through them for each name it tries. It gives
// what Selector.Resolve gives.
type Resolver struct {
	sel Selector
	// cands are the names Resolve tries, in order: the selector's Name
	// with its Dims (which falls through when no measurement of that name
	// has those dims), each split of Name at a dot before a statistic, and
	// last Metric with its Statistic.
	cands []resolveCand
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
	r := &Resolver{sel: s}
	add := func(name string, dims Dims) {
		for _, c := range r.cands {
			if c.name == name && slices.Equal(c.dims, dims) {
				return // the same name and dims as a candidate tried before
			}
		}
		r.cands = append(r.cands, resolveCand{name: name, dims: dims})
	}
	add(s.Name, s.Dims)
	for i := 1; i < len(s.Name); i++ {
		if s.Name[i] != '.' {
			continue
		}
		if st, ok := NormalizeStatistic(s.Name[i+1:]); ok {
			add(s.Name[:i], s.dimsWith(st))
		}
	}
	want := s.Dims
	if s.Statistic != "" {
		want = s.dimsWith(s.Statistic)
	}
	add(s.Metric, want)
	return r
}

// Resolve returns s.Resolve(t) for r's selector s. A Resolver is safe for
// concurrent use.
func (r *Resolver) Resolve(t *Trial) (Measurement, error) {
	if i, ok := r.pass(t); ok {
		return t.Measurements[i], nil
	}
	return r.sel.Resolve(t) // an unusable trial, or no single measurement: its error
}

// pass goes through t's measurements once and returns the index of the
// measurement Selector.Resolve picks, when it picks one.
func (r *Resolver) pass(t *Trial) (int, bool) {
	var buf [4]candMatches // no allocation: the name, a split or two, Metric
	if len(r.cands) > len(buf) || t.Problem != "" {
		return 0, false // more splits than names have: Selector.Resolve
	}
	cs := buf[:len(r.cands)]
	for k := range cs {
		cs[k].fewest = -1
	}
	for i := range t.Measurements {
		m := &t.Measurements[i]
		for k := range cs {
			c := &cs[k]
			if name := r.cands[k].name; m.Metric != name && m.Native != name {
				continue
			}
			c.found = true
			if !m.Dims.Contains(r.cands[k].dims) {
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
	// As Selector.Resolve decides: the name itself when a measurement of
	// it has the dims, else the first split whose metric is there, else
	// Metric.
	for k := range cs {
		c := &cs[k]
		switch {
		case k == 0 && c.count == 0 && len(cs) > 1:
			continue
		case k == 0 || c.found || k == len(cs)-1:
			return c.at, c.count == 1
		}
	}
	return 0, false
}
