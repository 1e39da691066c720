package shared

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// ColumnsBuilder assembles Columns from the blocks of a study (see
// block), read in any order, and their value columns.
type ColumnsBuilder struct {
	specs  []store.ColumnSpec
	Dims   []string // encoded dims of each spec
	unique []int    // index of each spec in the deduplicated list

	// KeepSQL and keepGo, when not nil, hold the row ids of the trials
	// that satisfy the SQL and the Go conditions.
	KeepSQL, KeepGo map[int64]bool

	spans    map[int64][2]int // block id -> offset and number of trials
	firsts   map[int64]int64  // block id -> its first row id
	RowIDs   []int64          // the row ids of the trials, in ingest order
	arena    []byte
	ends     []int32
	problems map[int]string // by offset
	values   [][]float64    // per unique spec, by offset
	// sketches are the trials' sketches, by offset, while every block read
	// has them (unsketched is then false).
	sketches   []trial.Sketch
	unsketched bool
}

// NewColumnsBuilder returns a builder of the columns of specs.
func NewColumnsBuilder(specs []store.ColumnSpec) *ColumnsBuilder {
	b := &ColumnsBuilder{specs: specs, unique: make([]int, len(specs)), spans: map[int64][2]int{}, firsts: map[int64]int64{}}
	seen := map[[2]string]int{}
	for k, s := range specs {
		key := [2]string{s.Metric, codec.EncodeDims(s.Dims)}
		u, ok := seen[key]
		if !ok {
			u = len(b.Dims)
			seen[key] = u
			b.Dims = append(b.Dims, key[1])
		}
		b.unique[k] = u
	}
	return b
}

// Metric returns the metric of unique spec u.
func (b *ColumnsBuilder) Metric(u int) string { return b.specs[b.specOf(u)].Metric }

// specOf returns the index of the first spec of unique spec u.
func (b *ColumnsBuilder) specOf(u int) int {
	for k, x := range b.unique {
		if x == u {
			return k
		}
	}
	return 0
}

// StoredBlock is a blocks row as read.
type StoredBlock struct {
	ID, First, Last, N    int64  // row id, first and last trial, trials
	RowIDs, IDs, Problems []byte // as columnar.Block keeps them
	Checksum              int64  // codec.BlockChecksum
	// Sketches, SketchVersion and SketchChecksum are the sketches, read by
	// Columns alone.
	Sketches, SketchVersion []byte
	SketchChecksum          int64
}

// dest returns the scan targets of blockColumns.
func (k *StoredBlock) dest() []any {
	return []any{&k.ID, &k.First, &k.Last, &k.N, &k.RowIDs, &k.IDs, &k.Problems, &k.Checksum}
}

// blockColumns are the blocks columns a read verifies, in scan order.
const blockColumns = `id, first_trial, last_trial, trials, row_ids, ids, problems, checksum`

// sketchedBlockColumns are blockColumns and the sketch columns, which
// Columns reads.
const sketchedBlockColumns = blockColumns + `, sketches, sketch_version, sketch_checksum`

// sketchedDest returns the scan targets of sketchedBlockColumns.
func (k *StoredBlock) sketchedDest() []any {
	return append(k.dest(), &k.Sketches, &k.SketchVersion, &k.SketchChecksum)
}

// EachBlock calls fn on each of the study's blocks in row-id order, read
// with its sketches when sketched; the block's slices are valid until fn
// returns.
func EachBlock(tx Querier, studyID int64, sketched bool, fn func(*StoredBlock) error) error {
	var k StoredBlock
	cols, dest := blockColumns, k.dest()
	if sketched {
		cols, dest = sketchedBlockColumns, k.sketchedDest()
	}
	return eachRow(tx, `SELECT `+cols+` FROM blocks WHERE study_id = ? ORDER BY first_trial`, []any{studyID}, dest,
		func() error { return fn(&k) })
}

// Verify checks the block's checksum (BlockChecksum).
func (k *StoredBlock) Verify() error {
	if sum := codec.BlockChecksum(k.First, k.Last, k.N, k.RowIDs, k.IDs, k.Problems); sum != k.Checksum {
		return &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("the checksum of its packed row ids, IDs and problems is %d, not %d", sum, k.Checksum)}
	}
	return nil
}

// AddBlock verifies a block and records its trials from its row_ids, ids
// and problems; the slices may be reused by the caller after the call.
func (b *ColumnsBuilder) AddBlock(k *StoredBlock) error {
	if err := k.Verify(); err != nil {
		return err
	}
	id, n, rowIDs, ids, problems := k.ID, int(k.N), k.RowIDs, k.IDs, k.Problems
	b.firsts[id] = k.First
	off := len(b.RowIDs)
	rows, names, probs := codec.Unpacker{Buf: rowIDs}, codec.Unpacker{Buf: ids}, codec.Unpacker{Buf: problems}
	row := int64(0)
	for i := range n {
		row += int64(rows.Uvarint())
		b.RowIDs = append(b.RowIDs, row)
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
		return &store.IntegrityError{Block: id, Detail: fmt.Sprintf("its packed data does not decode (%v)", err)}
	}
	if n > 0 && (b.RowIDs[off] != k.First || row != k.Last) {
		return &store.IntegrityError{Block: id, Detail: fmt.Sprintf("its trials are rows %d to %d, not %d to %d", b.RowIDs[off], row, k.First, k.Last)}
	}
	b.spans[id] = [2]int{off, n}
	return b.addSketches(k)
}

// addSketches verifies and decodes the block's sketches; a block without
// sketches of SketchVersion leaves the Columns without any.
func (b *ColumnsBuilder) addSketches(k *StoredBlock) error {
	if b.unsketched {
		return nil
	}
	if string(k.SketchVersion) != columnar.SketchVersion {
		b.unsketched, b.sketches = true, nil
		return nil
	}
	if sum := columnar.SketchChecksum(k.First, k.SketchVersion, k.Sketches); sum != k.SketchChecksum {
		return &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("the checksum of its sketches is %d, not %d", sum, k.SketchChecksum)}
	}
	var err error
	if b.sketches, err = columnar.UnpackSketches(k.Sketches, int(k.N), b.sketches); err != nil {
		return &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("its sketches do not decode (%v)", err)}
	}
	return nil
}

// StartValues allocates the columns once every block is known.
func (b *ColumnsBuilder) StartValues() {
	b.values = make([][]float64, len(b.Dims))
	for u := range b.values {
		col := make([]float64, len(b.RowIDs))
		for i := range col {
			col[i] = frontier.Missing
		}
		b.values[u] = col
	}
}

// AddValues copies the values of unique spec u in a block; values of
// blocks not read (other studies) are ignored.
func (b *ColumnsBuilder) AddValues(u int, blockID int64, vals []byte, checksum int64) error {
	span, ok := b.spans[blockID]
	if !ok {
		return nil
	}
	if sum := codec.ValuesChecksum(b.firsts[blockID], b.Metric(u), b.Dims[u], vals); sum != checksum {
		return &store.IntegrityError{Block: blockID, Detail: fmt.Sprintf("the checksum of its values of %s is %d, not %d",
			store.ColumnSpec{Metric: b.Metric(u), Dims: b.specs[b.specOf(u)].Dims}, sum, checksum)}
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
func (b *ColumnsBuilder) order() []int {
	byRow := func(i, j int) int { return cmp.Compare(b.RowIDs[i], b.RowIDs[j]) }
	if b.KeepSQL == nil && b.KeepGo == nil && slices.IsSorted(b.RowIDs) {
		return nil
	}
	out := make([]int, 0, len(b.RowIDs))
	for i, row := range b.RowIDs {
		if (b.KeepSQL == nil || b.KeepSQL[row]) && (b.KeepGo == nil || b.KeepGo[row]) {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, byRow)
	return out
}

// Result returns the Columns, one column per spec as given.
func (b *ColumnsBuilder) Result() *store.Columns {
	if b.values == nil {
		b.StartValues()
	}
	order := b.order()
	identity := order == nil
	if identity {
		order = make([]int, len(b.RowIDs))
		for i := range order {
			order[i] = i
		}
	}
	out := &store.Columns{IDs: make([]string, len(order)), Values: make([][]float64, len(b.specs))}
	if !b.unsketched && len(b.sketches) == len(b.RowIDs) {
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

// RowSet returns the set of row ids.
func RowSet(rows []int64) map[int64]bool {
	m := make(map[int64]bool, len(rows))
	for _, r := range rows {
		m[r] = true
	}
	return m
}

// splitConditions returns the conditions a Columns query can apply in SQL
// (an environment column compared with a non-numeric value, so that the
// comparison is textual in Go too) and the others.
func splitConditions(where []store.Condition) (sqlConds, goConds []store.Condition) {
	for _, c := range where {
		if envColumn(c.Key) && !c.Numeric() {
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
// trial without the label matches no condition); PostgreSQL (numbered)
// compares in byte order, as Go does (COLLATE "C").
func envWhere(sqlConds []store.Condition, numbered bool) (string, []any) {
	collate := ""
	if numbered {
		collate = ` COLLATE "C"`
	}
	var sb []byte
	var args []any
	for _, c := range sqlConds {
		op := string(c.Op)
		if c.Op == store.OpNe {
			op = "<>"
		}
		args = append(args, c.Value)
		sb = append(sb, " AND "+c.Key+" <> '' AND "+c.Key+collate+" "+op+" ?"...)
	}
	return string(sb), args
}

// blockValuesQuery selects the values of one (metric, dims) pair in every
// block of a study: parameters study id, metric, dims.
const blockValuesQuery = `SELECT v.block_id, v.vals, v.checksum FROM blocks b JOIN block_values v ON v.block_id = b.id
	WHERE b.study_id = ? AND v.metric = ? AND v.dims = ?`

// Columns implements store.Reader.Columns: for every trial of the
// study that satisfies where, its ID and the value of each spec.
// Conditions on environment columns with non-numeric values are applied
// in SQL (in byte order, as Go compares), the others by reading the
// trials as Trials does and filtering them in Go.
//
// It reads in one snapshot: the row ids the conditions keep, if any, then
// the study's blocks, then each spec's values in every block (one blob
// per block).
func (r Reads) Columns(ctx context.Context, study string, specs []store.ColumnSpec, where []store.Condition) (*store.Columns, error) {
	b := NewColumnsBuilder(specs)
	err := r.D.ReadStudy(ctx, "reading columns of "+study, study, func(tx StudyTx, studyID int64) error {
		if err := b.filter(tx, studyID, where); err != nil {
			return readingTrials(err, study)
		}
		if err := b.readColumns(tx, studyID); err != nil {
			return fmt.Errorf("reading blocks of %s: %w", study, InStudy(err, study))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Result(), nil
}

// filter sets the row ids that the conditions keep.
func (b *ColumnsBuilder) filter(tx StudyTx, studyID int64, where []store.Condition) error {
	sqlConds, goConds := splitConditions(where)
	if len(goConds) > 0 {
		c := &Collector{Q: store.Query{Where: goConds, Metrics: []string{}}, RowsOnly: true}
		if err := readTrials(tx, studyID, c, codec.NewDecoder()); err != nil {
			return err
		}
		b.KeepGo = RowSet(c.RowIDs)
	}
	if len(sqlConds) == 0 {
		return nil
	}
	cond, args := envWhere(sqlConds, tx.Numbered())
	b.KeepSQL = map[int64]bool{}
	var id int64
	return tx.EachTrial(studyID, "SELECT id FROM trials", cond, args, func(rs RowScanner) (bool, error) {
		if err := rs.Scan(&id); err != nil {
			return false, err
		}
		b.KeepSQL[id] = true
		return true, nil
	})
}

// readColumns reads the study's blocks, then each spec's values.
func (b *ColumnsBuilder) readColumns(tx StudyTx, studyID int64) error {
	if err := EachBlock(tx, studyID, true, b.AddBlock); err != nil {
		return err
	}
	b.StartValues()
	if len(b.RowIDs) == 0 {
		return nil
	}
	var vals []byte
	var id, sum int64
	for u, d := range b.Dims {
		err := eachRow(tx, blockValuesQuery, []any{studyID, b.Metric(u), d}, []any{&id, &vals, &sum},
			func() error { return b.AddValues(u, id, vals, sum) })
		if err != nil {
			return err
		}
	}
	return nil
}
