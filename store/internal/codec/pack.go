package codec

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// Packed measurements. A trial's measurements are
// one blob of its row (trials.measurements), and each block of trials
// (the trials one ingest added, up to BlockTrials) keeps, per (metric,
// dims) pair, the values of its trials in row-id order (block_values), so
// that Columns reads a few blobs per block instead of one index entry per
// measurement.
//
// A trials.measurements blob is, per measurement in order: metric, dims
// (as EncodeDims), unit, native and source unit as strings (uvarint length
// and bytes), then the value's IEEE 754 bits (8 bytes, little endian); a
// NaN is stored as math.NaN(), as a SQL NULL read back.

// ErrPacked reports a blob that does not decode.
var ErrPacked = errors.New("malformed packed data")

// AppendString appends s with its uvarint length.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// AppendFloat appends the bits of v, a NaN as math.NaN().
func AppendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) {
		v = math.NaN()
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// PackMeasurements encodes ms, whose encoded dims are dims, into b.
func PackMeasurements(b []byte, ms []trial.Measurement, dims []string) []byte {
	for j := range ms {
		m := &ms[j]
		b = AppendString(b, m.Metric)
		b = AppendString(b, dims[j])
		b = AppendString(b, m.Unit)
		b = AppendString(b, m.Native)
		b = AppendString(b, m.SourceUnit)
		b = AppendFloat(b, m.Value)
	}
	return b
}

// Unpacker reads a packed blob.
type Unpacker struct {
	Buf []byte // what is left to read
	Err error  // the first error, ErrPacked
}

// Bytes reads a length-prefixed byte string.
func (u *Unpacker) Bytes() []byte {
	n, k := binary.Uvarint(u.Buf)
	if k <= 0 || uint64(len(u.Buf)-k) < n {
		u.Err, u.Buf = ErrPacked, nil
		return nil
	}
	s := u.Buf[k : k+int(n)]
	u.Buf = u.Buf[k+int(n):]
	return s
}

func (u *Unpacker) float() float64 {
	if len(u.Buf) < 8 {
		u.Err, u.Buf = ErrPacked, nil
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(u.Buf))
	u.Buf = u.Buf[8:]
	return v
}

// Uvarint reads an unsigned varint.
func (u *Unpacker) Uvarint() uint64 {
	n, k := binary.Uvarint(u.Buf)
	if k <= 0 {
		u.Err, u.Buf = ErrPacked, nil
		return 0
	}
	u.Buf = u.Buf[k:]
	return n
}

// UnpackMeasurements decodes a trials.measurements blob, keeping the
// measurements for which keep (when not nil) returns true.
func UnpackMeasurements(b []byte, d *Decoder, keep func(metric, native []byte) bool) ([]trial.Measurement, error) {
	// The measurements are gathered in the decoder's scratch and copied
	// out at their number: one allocation per trial, not one per doubling.
	out := d.measurements[:0]
	defer func() { d.measurements = out[:0] }()
	u := Unpacker{Buf: b}
	for len(u.Buf) > 0 {
		metric, dims, unit, native, src := u.Bytes(), u.Bytes(), u.Bytes(), u.Bytes(), u.Bytes()
		v := u.float()
		if u.Err != nil {
			return nil, u.Err
		}
		if keep != nil && !keep(metric, native) {
			continue
		}
		ds, err := d.decodeDims(dims)
		if err != nil {
			return nil, err
		}
		out = append(out, trial.Measurement{Metric: d.InternBytes(metric), Dims: ds, Value: v,
			Unit: d.InternBytes(unit), Native: d.InternBytes(native), SourceUnit: d.InternBytes(src)})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return slices.Clone(out), nil
}

// AppendID appends a trial ID: a uvarint x, then, when x is odd, the
// (x-1)/2 bytes of an ID made of lowercase hex digit pairs (a content
// hash, see trial.ComputeID), else the x/2 bytes of the ID as is.
func AppendID(b []byte, id string) []byte {
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

// HashKey returns the key under which the SQLite store indexes a trial
// ID: 32 bits of it (the first 8 digits of a hex hash, else of the ID's
// SHA-256), which SQLite stores in 4 bytes. Keys only narrow the search:
// IDs under the same key are compared in full.
func HashKey(id string) int64 {
	if len(id) >= 8 && lowerHex(id) {
		k, _ := strconv.ParseUint(id[:8], 16, 32)
		return int64(int32(k))
	}
	sum := sha256.Sum256([]byte(id))
	return int64(int32(binary.BigEndian.Uint32(sum[:4])))
}

// NextID decodes an ID written by AppendID, appending its text to arena.
func (u *Unpacker) NextID(arena []byte) []byte {
	x := u.Uvarint()
	n := x / 2
	if u.Err != nil || uint64(len(u.Buf)) < n {
		u.Err, u.Buf = ErrPacked, nil
		return arena
	}
	if x%2 == 1 {
		arena = hex.AppendEncode(arena, u.Buf[:n])
	} else {
		arena = append(arena, u.Buf[:n]...)
	}
	u.Buf = u.Buf[n:]
	return arena
}
