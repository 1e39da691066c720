package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// Packed measurements. A trial's measurements are
// one blob of its row (trials.measurements), and each block of trials
// (the trials one ingest added, up to blockTrials) keeps, per (metric,
// dims) pair, the values of its trials in row-id order (block_values), so
// that Columns reads a few blobs per block instead of one index entry per
// measurement.
//
// A trials.measurements blob is, per measurement in order: metric, dims
// (as encodeDims), unit, native and source unit as strings (uvarint length
// and bytes), then the value's IEEE 754 bits (8 bytes, little endian); a
// NaN is stored as math.NaN(), as a SQL NULL read back.

// errPacked reports a blob that does not decode.
var errPacked = errors.New("malformed packed data")

// appendString appends s with its uvarint length.
func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendFloat appends the bits of v, a NaN as math.NaN().
func appendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) {
		v = math.NaN()
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// packMeasurements encodes ms, whose encoded dims are dims, into b.
func packMeasurements(b []byte, ms []trial.Measurement, dims []string) []byte {
	for j := range ms {
		m := &ms[j]
		b = appendString(b, m.Metric)
		b = appendString(b, dims[j])
		b = appendString(b, m.Unit)
		b = appendString(b, m.Native)
		b = appendString(b, m.SourceUnit)
		b = appendFloat(b, m.Value)
	}
	return b
}

// unpacker reads a packed blob.
type unpacker struct {
	b   []byte
	err error
}

func (u *unpacker) bytes() []byte {
	n, k := binary.Uvarint(u.b)
	if k <= 0 || uint64(len(u.b)-k) < n {
		u.err, u.b = errPacked, nil
		return nil
	}
	s := u.b[k : k+int(n)]
	u.b = u.b[k+int(n):]
	return s
}

func (u *unpacker) float() float64 {
	if len(u.b) < 8 {
		u.err, u.b = errPacked, nil
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(u.b))
	u.b = u.b[8:]
	return v
}

func (u *unpacker) uvarint() uint64 {
	n, k := binary.Uvarint(u.b)
	if k <= 0 {
		u.err, u.b = errPacked, nil
		return 0
	}
	u.b = u.b[k:]
	return n
}

// unpackMeasurements decodes a trials.measurements blob, keeping the
// measurements for which keep (when not nil) returns true.
func unpackMeasurements(b []byte, d *decoder, keep func(metric, native []byte) bool) ([]trial.Measurement, error) {
	// The measurements are gathered in the decoder's scratch and copied
	// out at their number: one allocation per trial, not one per doubling.
	out := d.measurements[:0]
	defer func() { d.measurements = out[:0] }()
	u := unpacker{b: b}
	for len(u.b) > 0 {
		metric, dims, unit, native, src := u.bytes(), u.bytes(), u.bytes(), u.bytes(), u.bytes()
		v := u.float()
		if u.err != nil {
			return nil, u.err
		}
		if keep != nil && !keep(metric, native) {
			continue
		}
		ds, err := d.decodeDims(dims)
		if err != nil {
			return nil, err
		}
		out = append(out, trial.Measurement{Metric: d.internBytes(metric), Dims: ds, Value: v,
			Unit: d.internBytes(unit), Native: d.internBytes(native), SourceUnit: d.internBytes(src)})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return slices.Clone(out), nil
}

// blockTrials caps the trials of one block.
const blockTrials = 1 << 16

// missingBits are the bits of frontier.Missing.
var missingBits = math.Float64bits(frontier.Missing)

// block is the columnar copy of some trials of one study, in row-id order:
// rowIDs as uvarint deltas, ids (see appendID), problems as strings, and
// one column of values per (metric, dims) pair, frontier.Missing where a
// trial has no such measurement, several, or a Problem.
type block struct {
	n        int
	first    int64
	last     int64
	rowIDs   []byte
	ids      []byte
	problems []byte
	cols     map[colKey]*[]byte
	order    []colKey
	sk       sketcher // the trials' sketches, when given (see sketch)
}

// colKey names a column of a block: metric and encoded dims.
type colKey struct{ metric, dims string }

func newBlock() *block { return &block{cols: map[colKey]*[]byte{}} }

// add appends a trial, whose row id is above the previous one's.
func (b *block) add(row int64, id, problem string, ms []trial.Measurement, dims []string) {
	if b.n == 0 {
		b.first = row
	}
	b.rowIDs = binary.AppendUvarint(b.rowIDs, uint64(row-b.last))
	b.last = row
	b.ids = appendID(b.ids, id)
	b.problems = appendString(b.problems, problem)
	i := b.n
	b.n++
	if problem != "" {
		return
	}
	for j := range ms {
		k := colKey{ms[j].Metric, dims[j]}
		c := b.cols[k]
		if c == nil {
			c = new([]byte)
			b.cols[k] = c
			b.order = append(b.order, k)
		}
		if len(*c) == 8*(i+1) { // a second measurement of the pair: ambiguous
			binary.LittleEndian.PutUint64((*c)[8*i:], missingBits)
			continue
		}
		*c = padMissing(*c, i)
		*c = appendFloat(*c, ms[j].Value)
	}
}

// sketch adds the sketch of the trial added last: t as stored, whose
// repeat key is key (sketchKey).
func (b *block) sketch(t *trial.Trial, key string) { b.sk.add(t, key) }

// column returns the values of k for every trial of the block.
func (b *block) column(k colKey) []byte {
	return padMissing(*b.cols[k], b.n)
}

// padMissing extends c with frontier.Missing up to n values.
func padMissing(c []byte, n int) []byte {
	for len(c) < 8*n {
		c = binary.LittleEndian.AppendUint64(c, missingBits)
	}
	return c
}

// appendID appends a trial ID: a uvarint x, then, when x is odd, the
// (x-1)/2 bytes of an ID made of lowercase hex digit pairs (a content
// hash, see trial.ComputeID), else the x/2 bytes of the ID as is.
func appendID(b []byte, id string) []byte {
	if lowerHex(id) {
		b = binary.AppendUvarint(b, uint64(len(id))+1) // 2*(len/2)+1
		b, _ = hex.AppendDecode(b, []byte(id))         // lowerHex checked the digits
		return b
	}
	return append(binary.AppendUvarint(b, 2*uint64(len(id))), id...)
}

// lowerHex reports whether id is a non-empty, even number of lowercase
// hex digits.
func lowerHex(id string) bool {
	if len(id) == 0 || len(id)%2 != 0 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// hashKey returns the key under which the SQLite store indexes a trial
// ID: 32 bits of it (the first 8 digits of a hex hash, else of the ID's
// SHA-256), which SQLite stores in 4 bytes. Keys only narrow the search:
// IDs under the same key are compared in full.
func hashKey(id string) int64 {
	if len(id) >= 8 && lowerHex(id) {
		k, _ := strconv.ParseUint(id[:8], 16, 32)
		return int64(int32(k))
	}
	sum := sha256.Sum256([]byte(id))
	return int64(int32(binary.BigEndian.Uint32(sum[:4])))
}

// nextID decodes an ID written by appendID, appending its text to arena.
func (u *unpacker) nextID(arena []byte) []byte {
	x := u.uvarint()
	n := x / 2
	if u.err != nil || uint64(len(u.b)) < n {
		u.err, u.b = errPacked, nil
		return arena
	}
	if x%2 == 1 {
		arena = hex.AppendEncode(arena, u.b[:n])
	} else {
		arena = append(arena, u.b[:n]...)
	}
	u.b = u.b[n:]
	return arena
}
