package trial

import (
	"fmt"
	"sort"
	"strings"
)

// Selector picks one measurement of a trial. Its text form is
//
//	METRIC[.STATISTIC][{dim=value,...}]
//
// Name is the text before the braces. When a trial has a measurement whose
// Metric or Native name equals Name exactly, that wins; otherwise Name is
// split at a dot into a metric and a statistic (trying each dot from the
// left, so "ttft.p99.9" is ttft at p99.9).
type Selector struct {
	// Raw is the text the selector was parsed from.
	Raw string
	// Name is the text before any braces, e.g. "ttft.p99".
	Name string
	// Metric and Statistic are the default split of Name ("ttft", "p99");
	// Statistic is empty when Name has no statistic suffix.
	Metric    string
	Statistic string
	// Dims are the dimensions given in braces, sorted by key.
	Dims Dims
}

// SelectorError is a syntax error in a selector or objective.
type SelectorError struct {
	// Input is the whole text; Offset is the 0-based byte offset of the error.
	Input  string
	Offset int
	Msg    string
	// Err is the cause, if any: ErrNotStatistic for a statistic out of
	// range (ttft.p101).
	Err error
}

// Error renders `selector "ttft{x": col 6: expected '='`.
func (e *SelectorError) Error() string {
	return fmt.Sprintf("selector %q: col %d: %s", e.Input, e.Offset+1, e.Msg)
}

// Unwrap returns the cause.
func (e *SelectorError) Unwrap() error { return e.Err }

// ParseSelector parses METRIC[.STATISTIC][{dim=value,...}].
func ParseSelector(s string) (Selector, error) {
	sel := Selector{Raw: s}
	brace := strings.IndexByte(s, '{')
	name := s
	if brace >= 0 {
		name = s[:brace]
	}
	if i := strings.IndexAny(name, "},=: \t"); i >= 0 {
		return sel, &SelectorError{s, i, fmt.Sprintf("unexpected %q in metric name", name[i]), nil}
	}
	if name == "" {
		return sel, &SelectorError{s, 0, "missing metric name", nil}
	}
	if name[len(name)-1] == '.' {
		return sel, &SelectorError{s, len(name) - 1, "missing statistic after '.'", nil}
	}
	sel.Name = name
	sel.Metric, sel.Statistic = splitStatistic(name)
	if i := strings.LastIndexByte(name, '.'); sel.Statistic == "" && i > 0 && percentileLike(name[i+1:]) {
		if _, known := Lookup(name[:i]); known { // ttft.p101: a metric's percentile out of range
			_, err := ParseStatistic(name[i+1:])
			return sel, &SelectorError{s, i + 1, err.Error(), err}
		}
	}
	if brace >= 0 {
		dims, err := parseDims(s, brace)
		if err != nil {
			return sel, err
		}
		sel.Dims = dims
	}
	if st, ok := sel.Dims.Get(DimStatistic); ok && percentileLike(st) {
		if _, err := ParseStatistic(st); err != nil {
			return sel, &SelectorError{s, brace, err.Error(), err}
		}
	}
	if st, ok := sel.Dims.Get(DimStatistic); ok {
		if sel.Statistic != "" && sel.Statistic != st {
			return sel, &SelectorError{s, brace, fmt.Sprintf("statistic given twice (%s and %s)", sel.Statistic, st), nil}
		}
	}
	return sel, nil
}

// splitStatistic splits at the first dot whose suffix is a statistic.
func splitStatistic(name string) (metric, stat string) {
	for i := 0; i < len(name); i++ {
		if name[i] != '.' || i == 0 {
			continue
		}
		if st, ok := NormalizeStatistic(name[i+1:]); ok {
			return name[:i], st
		}
	}
	return name, ""
}

func parseDims(s string, open int) (Dims, error) {
	if !strings.HasSuffix(s, "}") {
		return nil, &SelectorError{s, len(s), "missing '}'", nil}
	}
	body := s[open+1 : len(s)-1]
	if strings.TrimSpace(body) == "" {
		return nil, &SelectorError{s, open + 1, "empty braces", nil}
	}
	var dims Dims
	pos := open + 1
	for _, part := range strings.Split(body, ",") {
		eq := strings.IndexByte(part, '=')
		if eq < 0 {
			return nil, &SelectorError{s, pos + len(part), "expected '=' in dimension", nil}
		}
		k, v := strings.TrimSpace(part[:eq]), strings.TrimSpace(part[eq+1:])
		if bad := strings.IndexAny(part, "{}"); bad >= 0 {
			return nil, &SelectorError{s, pos + bad, fmt.Sprintf("unexpected %q", part[bad]), nil}
		}
		if k == "" {
			return nil, &SelectorError{s, pos, "empty dimension name", nil}
		}
		if v == "" {
			return nil, &SelectorError{s, pos + eq + 1, fmt.Sprintf("empty value for %s", k), nil}
		}
		if k == DimStatistic {
			if st, ok := NormalizeStatistic(v); ok {
				v = st
			}
		}
		if _, dup := dims.Get(k); dup {
			return nil, &SelectorError{s, pos, fmt.Sprintf("dimension %s given twice", k), nil}
		}
		dims = append(dims, Dim{k, v})
		pos += len(part) + 1
	}
	sort.Slice(dims, func(i, j int) bool { return dims[i].Key < dims[j].Key })
	return dims, nil
}

// String returns Raw, or a canonical rendering when Raw is empty.
func (s Selector) String() string {
	if s.Raw != "" {
		return s.Raw
	}
	out := s.Name
	if len(s.Dims) > 0 {
		out += "{" + s.Dims.String() + "}"
	}
	return out
}
