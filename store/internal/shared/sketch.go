package shared

import (
	"fmt"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// Resketch rewrites the sketches of the study's blocks that hold the rows
// of changed (relabelled trials, by row id) with their new sketches, in
// tx. A block without current sketches is left as it is.
func Resketch(tx codec.QueryTx, studyID int64, changed map[int64]trial.Sketch) error {
	if len(changed) == 0 {
		return nil
	}
	type update struct {
		id, first int64
		sketches  []byte
	}
	var ups []update
	err := EachBlock(tx, studyID, true, func(k *StoredBlock) error {
		if string(k.SketchVersion) != columnar.SketchVersion {
			return nil
		}
		u, row := codec.Unpacker{Buf: k.RowIDs}, int64(0)
		var at []int
		for i := range k.N {
			row += int64(u.Uvarint())
			if _, ok := changed[row]; ok {
				at = append(at, int(i))
			}
		}
		if len(at) == 0 || u.Err != nil {
			return nil
		}
		if err := k.Verify(); err != nil {
			return err
		}
		if sum := columnar.SketchChecksum(k.First, k.SketchVersion, k.Sketches); sum != k.SketchChecksum {
			return &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("the checksum of its sketches is %d, not %d", sum, k.SketchChecksum)}
		}
		sks, err := columnar.UnpackSketches(k.Sketches, int(k.N), nil)
		if err != nil {
			return &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("its sketches do not decode (%v)", err)}
		}
		u, row = codec.Unpacker{Buf: k.RowIDs}, 0
		for i := range sks {
			row += int64(u.Uvarint())
			if s, ok := changed[row]; ok {
				sks[i] = s
			}
		}
		var sk columnar.Sketcher
		for _, s := range sks {
			sk.AddSketch(s)
		}
		ups = append(ups, update{k.ID, k.First, sk.Buf})
		return nil
	})
	if err != nil {
		return err
	}
	for _, u := range ups {
		if err := tx.Exec(`UPDATE blocks SET sketches = ?, sketch_checksum = ? WHERE id = ?`,
			u.sketches, columnar.SketchChecksum(u.first, columnar.SketchVersion, u.sketches), u.id); err != nil {
			return err
		}
	}
	return nil
}

// SketchesOf maps the row of each update to its new sketch.
func SketchesOf(updates []LabelUpdate) map[int64]trial.Sketch {
	m := make(map[int64]trial.Sketch, len(updates))
	for _, u := range updates {
		m[u.Row] = u.sketch
	}
	return m
}
