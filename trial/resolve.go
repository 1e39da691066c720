package trial

import (
	"fmt"
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
