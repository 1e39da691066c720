package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// Points are the details of every point, one per input trial. They are
// embedded column by column (see pointColumns): a 100,000-point page
// repeats no field name per point, and a text column whose values repeat
// (case, source file, phase) holds each value once.
type Points []PointInfo

// pointColumns is the JSON form of Points. Every column has N entries, or
// is left out when all of them are empty.
type pointColumns struct {
	N         int                    `json:"n"`
	ID        *textColumn            `json:"id,omitempty"`
	Case      *textColumn            `json:"case,omitempty"`
	Iteration *textColumn            `json:"iteration,omitempty"`
	Step      *textColumn            `json:"step,omitempty"`
	Phase     *textColumn            `json:"phase,omitempty"`
	Benchmark *textColumn            `json:"benchmark,omitempty"`
	Source    *textColumn            `json:"source,omitempty"`
	Labels    map[string]*textColumn `json:"labels,omitempty"`
	// Workloads are the distinct workloads; Workload indexes them.
	Workloads []trial.Workload `json:"workloads"`
	Workload  []int32          `json:"workload"`
	// Layout and Config index Page.Layouts and Page.Configs (-1 for none);
	// Line and Index are the trial's place in its file (trial.Source).
	Layout []int32 `json:"layout,omitempty"`
	Config []int32 `json:"config,omitempty"`
	Line   []int32 `json:"line,omitempty"`
	Index  []int32 `json:"index,omitempty"`
}

// textColumn holds N strings: Raw, or Dict indexed by Idx (-1 for "")
// when the values repeat.
type textColumn struct {
	Raw  []string `json:"raw,omitempty"`
	Dict []string `json:"dict,omitempty"`
	Idx  []int32  `json:"idx,omitempty"`
}

// newTextColumn encodes the n values get returns, nil when all are empty.
func newTextColumn(n int, get func(int) string) *textColumn {
	dict := map[string]int32{}
	var order []string
	idx := make([]int32, n)
	empty := true
	for i := range n {
		v := get(i)
		if v == "" {
			idx[i] = -1
			continue
		}
		empty = false
		k, ok := dict[v]
		if !ok {
			if len(order)*2 >= n {
				return rawColumn(n, get) // mostly distinct (trial IDs): no dictionary
			}
			k = int32(len(order))
			dict[v] = k
			order = append(order, v)
		}
		idx[i] = k
	}
	if empty {
		return nil
	}
	return &textColumn{Dict: order, Idx: idx}
}

func rawColumn(n int, get func(int) string) *textColumn {
	raw := make([]string, n)
	for i := range raw {
		raw[i] = get(i)
	}
	return &textColumn{Raw: raw}
}

// at returns value i ("" for a nil column).
func (c *textColumn) at(i int) (string, error) {
	switch {
	case c == nil:
		return "", nil
	case c.Raw != nil:
		if i >= len(c.Raw) {
			return "", fmt.Errorf("text column has %d values, want %d", len(c.Raw), i+1)
		}
		return c.Raw[i], nil
	case i >= len(c.Idx):
		return "", fmt.Errorf("text column has %d values, want %d", len(c.Idx), i+1)
	case c.Idx[i] < 0:
		return "", nil
	case int(c.Idx[i]) >= len(c.Dict):
		return "", fmt.Errorf("text column index %d out of range", c.Idx[i])
	}
	return c.Dict[c.Idx[i]], nil
}

// intColumn returns the n values of get, nil when all equal zero.
func intColumn(n int, get func(int) int) []int32 {
	out := make([]int32, n)
	any := false
	for i := range out {
		out[i] = int32(get(i))
		any = any || out[i] != 0
	}
	if !any {
		return nil
	}
	return out
}

// MarshalJSON encodes the points column by column.
func (ps Points) MarshalJSON() ([]byte, error) { return json.Marshal(ps.columns()) }

// columns returns the column form of the points.
func (ps Points) columns() pointColumns {
	n := len(ps)
	c := pointColumns{N: n, Workload: make([]int32, n), Workloads: []trial.Workload{}}
	text := func(f func(*PointInfo) string) *textColumn {
		return newTextColumn(n, func(i int) string { return f(&ps[i]) })
	}
	c.ID = text(func(p *PointInfo) string { return p.ID })
	c.Case = text(func(p *PointInfo) string { return p.Case })
	c.Iteration = text(func(p *PointInfo) string { return p.Iteration })
	c.Step = text(func(p *PointInfo) string { return p.Step })
	c.Phase = text(func(p *PointInfo) string { return p.Phase })
	c.Benchmark = text(func(p *PointInfo) string { return p.Benchmark })
	c.Source = text(func(p *PointInfo) string { return p.Source })
	keys := map[string]bool{}
	for i := range ps {
		for k := range ps[i].Labels {
			keys[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if c.Labels == nil {
			c.Labels = map[string]*textColumn{}
		}
		if col := text(func(p *PointInfo) string { return p.Labels[k] }); col != nil {
			c.Labels[k] = col
		}
	}
	workloads := map[trial.Workload]int32{}
	for i := range ps {
		w := ps[i].Workload
		k, ok := workloads[w]
		if !ok {
			k = int32(len(c.Workloads))
			workloads[w] = k
			c.Workloads = append(c.Workloads, w)
		}
		c.Workload[i] = k
	}
	// Layout and Config are stored plus one, so that "none" (-1) is the
	// zero a column of nones leaves out.
	c.Layout = intColumn(n, func(i int) int { return ps[i].Layout + 1 })
	c.Config = intColumn(n, func(i int) int { return ps[i].Config + 1 })
	c.Line = intColumn(n, func(i int) int { return ps[i].Line })
	c.Index = intColumn(n, func(i int) int { return ps[i].Index })
	return c
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (ps *Points) UnmarshalJSON(b []byte) error {
	var c pointColumns
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	if c.N < 0 || len(c.Workload) != c.N {
		return fmt.Errorf("points: %d workload indexes for %d points", len(c.Workload), c.N)
	}
	out := make(Points, c.N)
	ints := func(col []int32, i int) (int, error) {
		if col == nil {
			return 0, nil
		}
		if i >= len(col) {
			return 0, fmt.Errorf("points: integer column has %d values for %d points", len(col), c.N)
		}
		return int(col[i]), nil
	}
	for i := range out {
		p := &out[i]
		var err error
		for _, f := range []struct {
			col *textColumn
			dst *string
		}{{c.ID, &p.ID}, {c.Case, &p.Case}, {c.Iteration, &p.Iteration}, {c.Step, &p.Step}, {c.Phase, &p.Phase},
			{c.Benchmark, &p.Benchmark}, {c.Source, &p.Source}} {
			if *f.dst, err = f.col.at(i); err != nil {
				return fmt.Errorf("points: %w", err)
			}
		}
		for k, col := range c.Labels {
			v, err := col.at(i)
			if err != nil {
				return fmt.Errorf("points: label %s: %w", k, err)
			}
			if v != "" {
				if p.Labels == nil {
					p.Labels = map[string]string{}
				}
				p.Labels[k] = v
			}
		}
		w := c.Workload[i]
		if w < 0 || int(w) >= len(c.Workloads) {
			return fmt.Errorf("points: workload index %d out of range", w)
		}
		p.Workload = c.Workloads[w]
		if p.Layout, err = ints(c.Layout, i); err != nil {
			return err
		}
		if p.Config, err = ints(c.Config, i); err != nil {
			return err
		}
		p.Layout--
		p.Config--
		if p.Line, err = ints(c.Line, i); err != nil {
			return err
		}
		if p.Index, err = ints(c.Index, i); err != nil {
			return err
		}
	}
	*ps = out
	return nil
}

// Floats is a column of values that may be infinite (an SLO measurement
// may be): JSON has no infinity, so ±Inf are written as the strings
// "Infinity" and "-Infinity", which the page's Number() reads back.
type Floats []float64

// MarshalJSON writes the column.
func (f Floats) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 8*len(f)+2)
	out = append(out, '[')
	for i, v := range f {
		if i > 0 {
			out = append(out, ',')
		}
		switch {
		case math.IsInf(v, 1):
			out = append(out, `"Infinity"`...)
		case math.IsInf(v, -1):
			out = append(out, `"-Infinity"`...)
		case math.IsNaN(v):
			out = append(out, `"NaN"`...)
		default:
			out = strconv.AppendFloat(out, v, 'g', -1, 64)
		}
	}
	return append(out, ']'), nil
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (f *Floats) UnmarshalJSON(b []byte) error {
	var raw []any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(Floats, len(raw))
	for i, v := range raw {
		switch v := v.(type) {
		case float64:
			out[i] = v
		case string:
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("float column: %q is not a number", v)
			}
			out[i] = x
		default:
			return fmt.Errorf("float column: %v is not a number", v)
		}
	}
	*f = out
	return nil
}
