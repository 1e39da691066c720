package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
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
	// IDs are the trials' IDs (trial.Trial.ID), in ingest order.
	IDs []string
	// Values[k][i] is the value of spec k for trial IDs[i]. It is
	// frontier.Missing when the trial has no measurement matching the spec,
	// has several (ambiguous, as Resolve says), or has a Problem (unusable);
	// a stored NaN reads as a plain NaN.
	Values [][]float64
	// Problems maps the index in IDs of each trial with a Problem to it.
	Problems map[int]string
	// Sketches[i] is the sketch of trial IDs[i] (its repeat key and what
	// names it), computed when it was ingested; nil when a block of the
	// study has none of the version this pareto reads (see Sketches in
	// the package documentation): a query of repeats then reads the
	// trials.
	Sketches []trial.Sketch
}

// columnsBuilder assembles Columns from the blocks of a study (see
// block), read in any order, and their value columns.
type columnsBuilder struct {
	specs  []ColumnSpec
	dims   []string // encoded dims of each spec
	unique []int    // index of each spec in the deduplicated list

	// keepSQL and keepGo, when not nil, hold the row ids of the trials
	// that satisfy the SQL and the Go conditions.
	keepSQL, keepGo map[int64]bool

	spans    map[int64][2]int // block id -> offset and number of trials
	firsts   map[int64]int64  // block id -> its first row id
	rowIDs   []int64
	arena    []byte
	ends     []int32
	problems map[int]string // by offset
	values   [][]float64    // per unique spec, by offset
	// sketches are the trials' sketches, by offset, while every block read
	// has them (unsketched is then false).
	sketches   []trial.Sketch
	unsketched bool
}

func newColumnsBuilder(specs []ColumnSpec) *columnsBuilder {
	b := &columnsBuilder{specs: specs, unique: make([]int, len(specs)), spans: map[int64][2]int{}, firsts: map[int64]int64{}}
	seen := map[[2]string]int{}
	for k, s := range specs {
		key := [2]string{s.Metric, codec.EncodeDims(s.Dims)}
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

// metric returns the metric of unique spec u.
func (b *columnsBuilder) metric(u int) string { return b.specs[b.specOf(u)].Metric }

// specOf returns the index of the first spec of unique spec u.
func (b *columnsBuilder) specOf(u int) int {
	for k, x := range b.unique {
		if x == u {
			return k
		}
	}
	return 0
}

// storedBlock is a blocks row as read.
type storedBlock struct {
	id, first, last, n    int64
	rowIDs, ids, problems []byte
	checksum              int64
	// the sketches, read by Columns alone
	sketches, sketchVersion []byte
	sketchChecksum          int64
}

// dest returns the scan targets of blockColumns.
func (k *storedBlock) dest() []any {
	return []any{&k.id, &k.first, &k.last, &k.n, &k.rowIDs, &k.ids, &k.problems, &k.checksum}
}

// blockColumns are the blocks columns a read verifies, in scan order.
const blockColumns = `id, first_trial, last_trial, trials, row_ids, ids, problems, checksum`

// sketchedBlockColumns are blockColumns and the sketch columns, which
// Columns reads.
const sketchedBlockColumns = blockColumns + `, sketches, sketch_version, sketch_checksum`

// sketchedDest returns the scan targets of sketchedBlockColumns.
func (k *storedBlock) sketchedDest() []any {
	return append(k.dest(), &k.sketches, &k.sketchVersion, &k.sketchChecksum)
}

// verify checks the block's checksum (BlockChecksum).
func (k *storedBlock) verify() error {
	if sum := codec.BlockChecksum(k.first, k.last, k.n, k.rowIDs, k.ids, k.problems); sum != k.checksum {
		return &IntegrityError{Block: k.id, Detail: fmt.Sprintf("the checksum of its packed row ids, IDs and problems is %d, not %d", sum, k.checksum)}
	}
	return nil
}

// addBlock verifies a block and records its trials from its row_ids, ids
// and problems; the slices may be reused by the caller after the call.
func (b *columnsBuilder) addBlock(k *storedBlock) error {
	if err := k.verify(); err != nil {
		return err
	}
	id, n, rowIDs, ids, problems := k.id, int(k.n), k.rowIDs, k.ids, k.problems
	b.firsts[id] = k.first
	off := len(b.rowIDs)
	rows, names, probs := codec.Unpacker{Buf: rowIDs}, codec.Unpacker{Buf: ids}, codec.Unpacker{Buf: problems}
	row := int64(0)
	for i := range n {
		row += int64(rows.Uvarint())
		b.rowIDs = append(b.rowIDs, row)
		b.arena = names.NextID(b.arena)
		b.ends = append(b.ends, int32(len(b.arena)))
		if p := probs.Bytes(); len(p) > 0 {
			if b.problems == nil {
				b.problems = map[int]string{}
			}
			b.problems[off+i] = string(p)
		}
	}
	if err := errors.Join(rows.Err, names.Err, probs.Err); err != nil {
		return &IntegrityError{Block: id, Detail: fmt.Sprintf("its packed data does not decode (%v)", err)}
	}
	if n > 0 && (b.rowIDs[off] != k.first || row != k.last) {
		return &IntegrityError{Block: id, Detail: fmt.Sprintf("its trials are rows %d to %d, not %d to %d", b.rowIDs[off], row, k.first, k.last)}
	}
	b.spans[id] = [2]int{off, n}
	return b.addSketches(k)
}

// addSketches verifies and decodes the block's sketches; a block without
// sketches of SketchVersion leaves the Columns without any.
func (b *columnsBuilder) addSketches(k *storedBlock) error {
	if b.unsketched {
		return nil
	}
	if string(k.sketchVersion) != columnar.SketchVersion {
		b.unsketched, b.sketches = true, nil
		return nil
	}
	if sum := columnar.SketchChecksum(k.first, k.sketchVersion, k.sketches); sum != k.sketchChecksum {
		return &IntegrityError{Block: k.id, Detail: fmt.Sprintf("the checksum of its sketches is %d, not %d", sum, k.sketchChecksum)}
	}
	var err error
	if b.sketches, err = columnar.UnpackSketches(k.sketches, int(k.n), b.sketches); err != nil {
		return &IntegrityError{Block: k.id, Detail: fmt.Sprintf("its sketches do not decode (%v)", err)}
	}
	return nil
}

// startValues allocates the columns once every block is known.
func (b *columnsBuilder) startValues() {
	b.values = make([][]float64, len(b.dims))
	for u := range b.values {
		col := make([]float64, len(b.rowIDs))
		for i := range col {
			col[i] = frontier.Missing
		}
		b.values[u] = col
	}
}

// addValues copies the values of unique spec u in a block; values of
// blocks not read (other studies) are ignored.
func (b *columnsBuilder) addValues(u int, blockID int64, vals []byte, checksum int64) error {
	span, ok := b.spans[blockID]
	if !ok {
		return nil
	}
	if sum := codec.ValuesChecksum(b.firsts[blockID], b.metric(u), b.dims[u], vals); sum != checksum {
		return &IntegrityError{Block: blockID, Detail: fmt.Sprintf("the checksum of its values of %s is %d, not %d",
			ColumnSpec{Metric: b.metric(u), Dims: b.specs[b.specOf(u)].Dims}, sum, checksum)}
	}
	if len(vals) != 8*span[1] {
		return fmt.Errorf("block %d: %d bytes of values for %d trials: %w", blockID, len(vals), span[1], codec.ErrPacked)
	}
	col := b.values[u][span[0] : span[0]+span[1]]
	for i := range col {
		col[i] = math.Float64frombits(binary.LittleEndian.Uint64(vals[8*i:]))
	}
	return nil
}

// order returns the offsets of the trials kept, in row-id order, or nil
// when that is every trial in the order read.
func (b *columnsBuilder) order() []int {
	byRow := func(i, j int) int { return cmp.Compare(b.rowIDs[i], b.rowIDs[j]) }
	if b.keepSQL == nil && b.keepGo == nil && slices.IsSorted(b.rowIDs) {
		return nil
	}
	out := make([]int, 0, len(b.rowIDs))
	for i, row := range b.rowIDs {
		if (b.keepSQL == nil || b.keepSQL[row]) && (b.keepGo == nil || b.keepGo[row]) {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, byRow)
	return out
}

// result returns the Columns, one column per spec as given.
func (b *columnsBuilder) result() *Columns {
	if b.values == nil {
		b.startValues()
	}
	order := b.order()
	identity := order == nil
	if identity {
		order = make([]int, len(b.rowIDs))
		for i := range order {
			order[i] = i
		}
	}
	out := &Columns{IDs: make([]string, len(order)), Values: make([][]float64, len(b.specs))}
	if !b.unsketched && len(b.sketches) == len(b.rowIDs) {
		out.Sketches = b.sketches
		if !identity {
			out.Sketches = make([]trial.Sketch, len(order))
			for i, k := range order {
				out.Sketches[i] = b.sketches[k]
			}
		}
	}
	all := string(b.arena)
	for i, k := range order {
		start := int32(0)
		if k > 0 {
			start = b.ends[k-1]
		}
		out.IDs[i] = all[start:b.ends[k]]
		if p, ok := b.problems[k]; ok {
			if out.Problems == nil {
				out.Problems = map[int]string{}
			}
			out.Problems[i] = p
		}
	}
	cols := make([][]float64, len(b.values))
	for u, v := range b.values {
		cols[u] = v
		if !identity {
			cols[u] = make([]float64, len(order))
			for i, k := range order {
				cols[u][i] = v[k]
			}
		}
		for i := range out.Problems {
			cols[u][i] = frontier.Missing
		}
	}
	used := make([]bool, len(cols))
	for k, u := range b.unique {
		if used[u] {
			out.Values[k] = slices.Clone(cols[u])
		} else {
			out.Values[k], used[u] = cols[u], true
		}
	}
	return out
}

// rowSet returns the set of row ids.
func rowSet(rows []int64) map[int64]bool {
	m := make(map[int64]bool, len(rows))
	for _, r := range rows {
		m[r] = true
	}
	return m
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
	return slices.Contains(codec.EnvColumns, key)
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

// placeholder renders parameter i: "$i" when numbered, else "?".
func placeholder(numbered bool, i int) string {
	if numbered {
		return "$" + codec.Itoa(i)
	}
	return "?"
}
