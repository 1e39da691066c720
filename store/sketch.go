package store

import (
	"encoding/binary"
	"fmt"
	"maps"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Sketches. Each block also keeps, for its trials
// in row-id order, what a query of repeats needs of them besides their
// values (trial.Sketch): the repeat key under the default configuration
// keys, computed when the trial is ingested from the trial as stored, and
// what names it. Columns returns them, so that a frontier of the median of
// repeats over millions of trials reads a few blobs per block instead of
// every trial. blocks.sketch_version says which definition of the keys
// they follow (sketchVersion); a block with another version, or none (a
// block of an older pareto whose upgrade could not compute them), makes
// Columns return no sketches, and the caller reads the trials instead.
//
// A packed sketch is, per trial: its repeat key as appendID writes IDs;
// its path and format, each as a uvarint 0 when it is the previous
// trial's, else its length plus one and its bytes; its line and index as
// varints; its labels among trial.SketchLabels as a uvarint 0 when they
// are the previous trial's, else their number plus one and each key and
// value as strings, in the order of trial.SketchLabels.

// sketchVersion is the version of the sketches this pareto writes and
// reads: the packing's (which includes trial.SketchLabels) and that of
// the repeat keys (repeat.KeyVersion).
const sketchVersion = "1/" + repeat.KeyVersion

// sketchKey is the repeat key a block keeps of t, the trial as stored.
func sketchKey(t *trial.Trial) string {
	k, _ := repeat.RepeatKey(t, nil, nil)
	return k
}

// workloadNames renders workloads for repeat keys (repeat.RepeatKey),
// once for a run of trials of one workload.
type workloadNames struct{ repeat.WorkloadNames }

// key is sketchKey of t, its workload rendered through c.
func (c *workloadNames) key(t *trial.Trial) string {
	k, _ := repeat.RepeatKey(t, nil, c.Render)
	return k
}

// sketcher packs the sketches of a block's trials.
type sketcher struct {
	b            []byte
	n            int
	path, format string
	labels       map[string]string
}

// add appends the sketch of t, whose repeat key is key.
func (s *sketcher) add(t *trial.Trial, key string) { s.addSketch(trial.SketchOf(t, key)) }

// addSketch appends a sketch.
func (s *sketcher) addSketch(k trial.Sketch) {
	s.b = appendID(s.b, k.Key)
	s.b = appendRepeated(s.b, k.Path, s.path, s.n > 0)
	s.b = appendRepeated(s.b, k.Format, s.format, s.n > 0)
	s.path, s.format = k.Path, k.Format
	s.b = binary.AppendVarint(s.b, int64(k.Line))
	s.b = binary.AppendVarint(s.b, int64(k.Index))
	if s.n > 0 && maps.Equal(k.Labels, s.labels) {
		s.b = append(s.b, 0)
	} else {
		s.b = binary.AppendUvarint(s.b, uint64(len(k.Labels))+1)
		for _, name := range trial.SketchLabels {
			if v, ok := k.Labels[name]; ok {
				s.b = appendString(appendString(s.b, name), v)
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

// unpackSketches decodes the n sketches of a block into out, interning
// the paths and formats it repeats.
func unpackSketches(b []byte, n int, out []trial.Sketch) ([]trial.Sketch, error) {
	u := unpacker{b: b}
	var arena []byte
	var path, format string
	repeated := func(prev string, first bool) string {
		x := u.uvarint()
		if x == 0 && !first {
			return prev
		}
		if x == 0 || uint64(len(u.b)) < x-1 {
			u.err, u.b = errPacked, nil
			return ""
		}
		v := string(u.b[:x-1])
		u.b = u.b[x-1:]
		return v
	}
	var labels map[string]string
	for i := range n {
		arena = u.nextID(arena[:0])
		key := string(arena)
		path = repeated(path, i == 0)
		format = repeated(format, i == 0)
		line, index := u.varint(), u.varint()
		if x := u.uvarint(); x > 0 || i == 0 {
			labels = nil
			for range max(x, 1) - 1 {
				k, v := u.bytes(), u.bytes()
				if u.err != nil {
					break
				}
				if labels == nil {
					labels = make(map[string]string, x-1)
				}
				labels[string(k)] = string(v)
			}
			if x == 0 { // the first trial cannot repeat a previous one
				u.err = errPacked
			}
		}
		if u.err != nil {
			return out, u.err
		}
		out = append(out, trial.Sketch{Key: key, Path: path, Format: format, Line: int(line), Index: int(index), Labels: labels})
	}
	if u.err == nil && len(u.b) != 0 {
		return out, fmt.Errorf("%d bytes after the last sketch: %w", len(u.b), errPacked)
	}
	return out, u.err
}

// varint reads a varint.
func (u *unpacker) varint() int64 {
	v, k := binary.Varint(u.b)
	if k <= 0 {
		u.err, u.b = errPacked, nil
		return 0
	}
	u.b = u.b[k:]
	return v
}

// sketchChecksum is the checksum of a block's sketches: its first row id
// (unique), their version and their packed bytes.
func sketchChecksum[T string | []byte](first int64, version T, sketches []byte) int64 {
	var s summer
	s.int(first)
	sumText(&s, version)
	s.bytes(sketches)
	return int64(s.crc)
}

// resketch rewrites the sketches of the study's blocks that hold the rows
// of changed (relabelled trials, by row id) with their new sketches, in
// tx. A block without current sketches is left as it is.
func resketch(tx queryTx, studyID int64, changed map[int64]trial.Sketch) error {
	if len(changed) == 0 {
		return nil
	}
	rows, err := tx.Query(`SELECT `+sketchedBlockColumns+` FROM blocks WHERE study_id = ? ORDER BY first_trial`, studyID)
	if err != nil {
		return err
	}
	type update struct {
		id, first int64
		sketches  []byte
	}
	var ups []update
	var k storedBlock
	for rows.Next() {
		if err := rows.Scan(k.sketchedDest()...); err != nil {
			rows.Close()
			return err
		}
		if string(k.sketchVersion) != sketchVersion {
			continue
		}
		u, row := unpacker{b: k.rowIDs}, int64(0)
		var at []int
		for i := range k.n {
			row += int64(u.uvarint())
			if _, ok := changed[row]; ok {
				at = append(at, int(i))
			}
		}
		if len(at) == 0 || u.err != nil {
			continue
		}
		if err := k.verify(); err != nil {
			rows.Close()
			return err
		}
		if sum := sketchChecksum(k.first, k.sketchVersion, k.sketches); sum != k.sketchChecksum {
			rows.Close()
			return &IntegrityError{Block: k.id, Detail: fmt.Sprintf("the checksum of its sketches is %d, not %d", sum, k.sketchChecksum)}
		}
		sks, err := unpackSketches(k.sketches, int(k.n), nil)
		if err != nil {
			rows.Close()
			return &IntegrityError{Block: k.id, Detail: fmt.Sprintf("its sketches do not decode (%v)", err)}
		}
		u, row = unpacker{b: k.rowIDs}, 0
		for i := range sks {
			row += int64(u.uvarint())
			if s, ok := changed[row]; ok {
				sks[i] = s
			}
		}
		var sk sketcher
		for _, s := range sks {
			sk.addSketch(s)
		}
		ups = append(ups, update{k.id, k.first, sk.b})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, u := range ups {
		if err := tx.Exec(`UPDATE blocks SET sketches = ?, sketch_checksum = ? WHERE id = ?`,
			u.sketches, sketchChecksum(u.first, sketchVersion, u.sketches), u.id); err != nil {
			return err
		}
	}
	return nil
}

// sketchesOf maps the row of each update to its new sketch.
func sketchesOf(updates []labelUpdate) map[int64]trial.Sketch {
	m := make(map[int64]trial.Sketch, len(updates))
	for _, u := range updates {
		m[u.row] = u.sketch
	}
	return m
}
