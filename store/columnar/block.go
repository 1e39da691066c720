package columnar

import (
	"encoding/binary"
	"math"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// BlockTrials caps the trials of one block.
const BlockTrials = 1 << 16

// missingBits are the bits of frontier.Missing.
var missingBits = math.Float64bits(frontier.Missing)

// Block is the columnar copy of some trials of one study, in row-id order:
// rowIDs as uvarint deltas, ids (see AppendID), problems as strings, and
// one column of values per (metric, dims) pair, frontier.Missing where a
// trial has no such measurement, several, or a Problem.
type Block struct {
	N        int                // the number of trials
	First    int64              // the first trial's row id
	Last     int64              // the last trial's row id
	RowIDs   []byte             // the row ids, as uvarint deltas
	IDs      []byte             // the trial IDs (AppendID)
	Problems []byte             // the trials' problems, as strings
	Cols     map[ColKey]*[]byte // the value columns, float64s
	Order    []ColKey           // the columns in the order first seen
	Sketcher Sketcher           // the trials' sketches, when given (see sketch)
}

// ColKey names a column of a block: metric and encoded dims.
type ColKey struct {
	Metric string // trial.Measurement.Metric
	Dims   string // the dims, encoded (codec.EncodeDims)
}

// NewBlock returns an empty block.
func NewBlock() *Block { return &Block{Cols: map[ColKey]*[]byte{}} }

// Add appends a trial, whose row id is above the previous one's.
func (b *Block) Add(row int64, id, problem string, ms []trial.Measurement, dims []string) {
	if b.N == 0 {
		b.First = row
	}
	b.RowIDs = binary.AppendUvarint(b.RowIDs, uint64(row-b.Last))
	b.Last = row
	b.IDs = codec.AppendID(b.IDs, id)
	b.Problems = codec.AppendString(b.Problems, problem)
	i := b.N
	b.N++
	if problem != "" {
		return
	}
	for j := range ms {
		k := ColKey{ms[j].Metric, dims[j]}
		c := b.Cols[k]
		if c == nil {
			c = new([]byte)
			b.Cols[k] = c
			b.Order = append(b.Order, k)
		}
		if len(*c) == 8*(i+1) { // a second measurement of the pair: ambiguous
			binary.LittleEndian.PutUint64((*c)[8*i:], missingBits)
			continue
		}
		*c = padMissing(*c, i)
		*c = codec.AppendFloat(*c, ms[j].Value)
	}
}

// Sketch adds the sketch of the trial added last: t as stored, whose
// repeat key is key (SketchKey).
func (b *Block) Sketch(t *trial.Trial, key string) { b.Sketcher.Add(t, key) }

// Column returns the values of k for every trial of the block.
func (b *Block) Column(k ColKey) []byte {
	return padMissing(*b.Cols[k], b.N)
}

// padMissing extends c with frontier.Missing up to n values.
func padMissing(c []byte, n int) []byte {
	for len(c) < 8*n {
		c = binary.LittleEndian.AppendUint64(c, missingBits)
	}
	return c
}
