package columnar

import (
	"encoding/binary"
	"fmt"
	"maps"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// Sketches. Each block also keeps, for its trials
// in row-id order, what a query of repeats needs of them besides their
// values (trial.Sketch): the repeat key under the default configuration
// keys, computed when the trial is ingested from the trial as stored, and
// what names it. Columns returns them, so that a frontier of the median of
// repeats over millions of trials reads a few blobs per block instead of
// every trial. blocks.sketch_version says which definition of the keys
// they follow (SketchVersion); a block with another version, or none (a
// block of an older pareto whose upgrade could not compute them), makes
// Columns return no sketches, and the caller reads the trials instead.
//
// A packed sketch is, per trial: its repeat key as AppendID writes IDs;
// its path and format, each as a uvarint 0 when it is the previous
// trial's, else its length plus one and its bytes; its line and index as
// varints; its labels among trial.SketchLabels as a uvarint 0 when they
// are the previous trial's, else their number plus one and each key and
// value as strings, in the order of trial.SketchLabels.

// SketchVersion is the version of the sketches this pareto writes and
// reads: the packing's (which includes trial.SketchLabels) and that of
// the repeat keys (repeat.KeyVersion).
const SketchVersion = "1/" + repeat.KeyVersion

// Sketcher packs the sketches of a block's trials.
type Sketcher struct {
	Buf          []byte // the packed sketches
	n            int
	path, format string
	labels       map[string]string
}

// Add appends the sketch of t, whose repeat key is key.
func (s *Sketcher) Add(t *trial.Trial, key string) { s.AddSketch(trial.SketchOf(t, key)) }

// AddSketch appends a sketch.
func (s *Sketcher) AddSketch(k trial.Sketch) {
	s.Buf = codec.AppendID(s.Buf, k.Key)
	s.Buf = appendRepeated(s.Buf, k.Path, s.path, s.n > 0)
	s.Buf = appendRepeated(s.Buf, k.Format, s.format, s.n > 0)
	s.path, s.format = k.Path, k.Format
	s.Buf = binary.AppendVarint(s.Buf, int64(k.Line))
	s.Buf = binary.AppendVarint(s.Buf, int64(k.Index))
	if s.n > 0 && maps.Equal(k.Labels, s.labels) {
		s.Buf = append(s.Buf, 0)
	} else {
		s.Buf = binary.AppendUvarint(s.Buf, uint64(len(k.Labels))+1)
		for _, name := range trial.SketchLabels {
			if v, ok := k.Labels[name]; ok {
				s.Buf = codec.AppendString(codec.AppendString(s.Buf, name), v)
			}
		}
	}
	s.labels = k.Labels
	s.n++
}

// appendRepeated appends v as a uvarint 0 when it equals prev (and there
// is one), else as its length plus one and its bytes.
func appendRepeated(b []byte, v, prev string, hasPrev bool) []byte {
	if hasPrev && v == prev {
		return append(b, 0)
	}
	return append(binary.AppendUvarint(b, uint64(len(v))+1), v...)
}

// UnpackSketches decodes the n sketches of a block into out, interning
// the paths and formats it repeats.
func UnpackSketches(b []byte, n int, out []trial.Sketch) ([]trial.Sketch, error) {
	u := codec.Unpacker{Buf: b}
	var arena []byte
	var path, format string
	repeated := func(prev string, first bool) string {
		x := u.Uvarint()
		if x == 0 && !first {
			return prev
		}
		if x == 0 || uint64(len(u.Buf)) < x-1 {
			u.Err, u.Buf = codec.ErrPacked, nil
			return ""
		}
		v := string(u.Buf[:x-1])
		u.Buf = u.Buf[x-1:]
		return v
	}
	var labels map[string]string
	for i := range n {
		arena = u.NextID(arena[:0])
		key := string(arena)
		path = repeated(path, i == 0)
		format = repeated(format, i == 0)
		line, index := u.Varint(), u.Varint()
		if x := u.Uvarint(); x > 0 || i == 0 {
			labels = nil
			for range max(x, 1) - 1 {
				k, v := u.Bytes(), u.Bytes()
				if u.Err != nil {
					break
				}
				if labels == nil {
					labels = make(map[string]string, x-1)
				}
				labels[string(k)] = string(v)
			}
			if x == 0 { // the first trial cannot repeat a previous one
				u.Err = codec.ErrPacked
			}
		}
		if u.Err != nil {
			return out, u.Err
		}
		out = append(out, trial.Sketch{Key: key, Path: path, Format: format, Line: int(line), Index: int(index), Labels: labels})
	}
	if u.Err == nil && len(u.Buf) != 0 {
		return out, fmt.Errorf("%d bytes after the last sketch: %w", len(u.Buf), codec.ErrPacked)
	}
	return out, u.Err
}

// SketchChecksum is the checksum of a block's sketches: its first row id
// (unique), their version and their packed bytes.
func SketchChecksum[T string | []byte](first int64, version T, sketches []byte) int64 {
	var s codec.Summer
	s.Int(first)
	codec.SumText(&s, version)
	s.Bytes(sketches)
	return int64(s.CRC)
}
