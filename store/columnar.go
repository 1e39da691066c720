package store

import (
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// ColumnSpec selects one measurement of each trial for Columns: the
// measurement whose Metric is Metric (the canonical key; the Native name is
// not consulted) and whose Dims equal Dims exactly (no containment, no
// fallback to fewer dimensions).
//
// A trial.Selector such as "ttft.p99" maps to {Metric: "ttft", Dims:
// trial.StatDims("p99")} when the study's measurements use canonical
// metric names; selectors that Resolve would satisfy through a Native name
// or by dims containment (a selector without dims matching a measurement
// with dims) must be resolved per trial with Trials instead.
type ColumnSpec struct {
	Metric string
	Dims   trial.Dims
}

// String renders the spec as a selector.
func (c ColumnSpec) String() string {
	return trial.Measurement{Metric: c.Metric, Dims: c.Dims}.String()
}

// Columns is a columnar read of a study: for each trial, in ingest order,
// its ID and the value of every ColumnSpec.
type Columns struct {
	// IDs are the trials' content hashes (trial.Trial.ID), in ingest order.
	IDs []string
	// Values[k][i] is the value of spec k for trial IDs[i]. It is
	// frontier.Missing when the trial has no measurement matching the spec,
	// has several (ambiguous, as Resolve says), or has a Problem (unusable);
	// a stored NaN reads as a plain NaN.
	Values [][]float64
	// Problems maps the index in IDs of each trial with a Problem to it.
	Problems map[int]string
}

// columnsBuilder assembles Columns from a trial scan in row-id order and
// measurement rows in any order.
type columnsBuilder struct {
	specs  []ColumnSpec
	dims   []string // encoded dims of each spec
	unique []int    // index of each spec in the deduplicated list
	keep   map[string]bool

	rowIDs   []int64
	arena    []byte
	ends     []int32
	problems map[int]string

	values [][]float64 // per unique spec
	state  [][]uint8   // per unique spec: 0 unset, 1 set, 2 ambiguous or unusable
	hint   []int
}

func newColumnsBuilder(specs []ColumnSpec) *columnsBuilder {
	b := &columnsBuilder{specs: specs, unique: make([]int, len(specs))}
	seen := map[[2]string]int{}
	for k, s := range specs {
		key := [2]string{s.Metric, encodeDims(s.Dims)}
		u, ok := seen[key]
		if !ok {
			u = len(b.dims)
			seen[key] = u
			b.dims = append(b.dims, key[1])
		}
		b.unique[k] = u
	}
	return b
}

// addTrial records the next trial of the scan; hash and problem may be
// reused by the caller after the call.
func (b *columnsBuilder) addTrial(rowID int64, hash, problem []byte) {
	if b.keep != nil && !b.keep[string(hash)] {
		return
	}
	if len(problem) > 0 {
		if b.problems == nil {
			b.problems = map[int]string{}
		}
		b.problems[len(b.rowIDs)] = string(problem)
	}
	b.rowIDs = append(b.rowIDs, rowID)
	b.arena = append(b.arena, hash...)
	b.ends = append(b.ends, int32(len(b.arena)))
}

// startValues allocates the columns once every trial is known.
func (b *columnsBuilder) startValues() {
	n := len(b.rowIDs)
	b.values = make([][]float64, len(b.dims))
	b.state = make([][]uint8, len(b.dims))
	b.hint = make([]int, len(b.dims))
	for u := range b.values {
		col := make([]float64, n)
		for i := range col {
			col[i] = frontier.Missing
		}
		st := make([]uint8, n)
		for i := range b.problems {
			st[i] = 2
		}
		b.values[u], b.state[u] = col, st
	}
}

// addValue records the value of unique spec u for trial row rowID; rows of
// trials outside the scan (other studies, filtered out) are ignored.
func (b *columnsBuilder) addValue(u int, rowID int64, v float64) {
	i, ids := b.hint[u], b.rowIDs
	switch {
	case i < len(ids) && ids[i] == rowID:
	case i+1 < len(ids) && ids[i+1] == rowID:
		i++
	default:
		var ok bool
		if i, ok = slices.BinarySearch(ids, rowID); !ok {
			return
		}
	}
	b.hint[u] = i + 1
	switch b.state[u][i] {
	case 0:
		b.values[u][i], b.state[u][i] = v, 1
	case 1:
		b.values[u][i], b.state[u][i] = frontier.Missing, 2
	}
}

// result returns the Columns, one column per spec as given.
func (b *columnsBuilder) result() *Columns {
	out := &Columns{IDs: make([]string, len(b.rowIDs)), Values: make([][]float64, len(b.specs)), Problems: b.problems}
	all := string(b.arena)
	start := int32(0)
	for i, end := range b.ends {
		out.IDs[i] = all[start:end]
		start = end
	}
	used := make([]bool, len(b.values))
	for k, u := range b.unique {
		if used[u] {
			out.Values[k] = slices.Clone(b.values[u])
		} else {
			out.Values[k], used[u] = b.values[u], true
		}
	}
	return out
}

// maxRowID is the last trial's row id, or -1.
func (b *columnsBuilder) maxRowID() int64 {
	if len(b.rowIDs) == 0 {
		return -1
	}
	return b.rowIDs[len(b.rowIDs)-1]
}

// splitConditions returns the conditions a Columns query can apply in SQL
// (an environment column compared with a non-numeric value, so that the
// comparison is textual in Go too) and the others.
func splitConditions(where []Condition) (sqlConds, goConds []Condition) {
	for _, c := range where {
		_, numErr := strconv.ParseFloat(c.Value, 64)
		if envColumn(c.Key) && numErr != nil {
			sqlConds = append(sqlConds, c)
		} else {
			goConds = append(goConds, c)
		}
	}
	return sqlConds, goConds
}

func envColumn(key string) bool {
	return slices.Contains(envColumns, key)
}

// envWhere renders sqlConds as " AND col <> ” AND col OP ?" terms (a
// trial without the label matches no condition); collate is appended to
// each comparison (PostgreSQL needs byte order: COLLATE "C").
func envWhere(sqlConds []Condition, first int, numbered bool, collate string) (string, []any) {
	var sb []byte
	var args []any
	for _, c := range sqlConds {
		op := string(c.Op)
		if c.Op == OpNe {
			op = "<>"
		}
		args = append(args, c.Value)
		sb = append(sb, " AND "+c.Key+" <> '' AND "+c.Key+collate+" "+op+" "+placeholder(numbered, first+len(args)-1)...)
	}
	return string(sb), args
}

// keepIDs returns the hashes of the trials a collector kept.
func keepIDs(c *collector) map[string]bool {
	keep := make(map[string]bool, len(c.trials))
	for i := range c.trials {
		keep[c.trials[i].ID] = true
	}
	return keep
}
