package shared

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
)

// damage records an IntegrityError of the study.
func addDamage(c *store.StudyCheck, e *store.IntegrityError) {
	e.Study = c.Study
	c.Damage = append(c.Damage, e)
}

// checkStudy verifies one study within tx, a read transaction: every
// trial against its content hash and checksum (as reads do), every block
// and value column against its checksum, each block against the trials it
// copies (rebuilt from them as an ingest builds it: row ids, IDs,
// problems, and every value column), and that every trial of the study is
// in one of its blocks.
func checkStudy(tx codec.QueryTx, studyID int64, name string) (store.StudyCheck, error) {
	c := store.StudyCheck{Study: name}
	blocks, err := readBlocks(tx, studyID)
	if err != nil {
		return c, err
	}
	d := codec.NewDecoder()
	covered := map[int64]bool{}
	for i := range blocks {
		k := &blocks[i]
		c.Blocks++
		if err := k.Verify(); err != nil {
			var ie *store.IntegrityError
			errors.As(err, &ie)
			addDamage(&c, ie)
		}
		rebuilt, sound, n, err := rebuildBlock(tx, studyID, k, d, &c, covered)
		if err != nil {
			return c, err
		}
		c.Trials += n
		cols, err := checkValues(tx, k, rebuilt, sound, &c)
		if err != nil {
			return c, err
		}
		c.Columns += cols
		if err := checkSketches(tx, k, rebuilt, sound, &c); err != nil {
			return c, err
		}
		if sound && (!bytes.Equal(rebuilt.RowIDs, k.RowIDs) || !bytes.Equal(rebuilt.IDs, k.IDs) || !bytes.Equal(rebuilt.Problems, k.Problems)) {
			addDamage(&c, &store.IntegrityError{Block: k.ID, Detail: "its row ids, IDs or problems differ from those of its trials"})
		}
	}
	rows, err := tx.Query(`SELECT id, hash FROM trials WHERE study_id = ? ORDER BY id`, studyID)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		var row int64
		var hash string
		if err := rows.Scan(&row, &hash); err != nil {
			return c, err
		}
		if !covered[row] {
			c.Trials++
			addDamage(&c, &store.IntegrityError{Trial: hash, Detail: fmt.Sprintf("row %d is in none of the study's blocks", row)})
		}
	}
	return c, rows.Err()
}

// readBlocks reads the study's blocks in row-id order.
func readBlocks(tx codec.QueryTx, studyID int64) ([]StoredBlock, error) {
	var out []StoredBlock
	err := EachBlock(tx, studyID, false, func(k *StoredBlock) error {
		kept := *k
		kept.RowIDs, kept.IDs, kept.Problems = bytes.Clone(k.RowIDs), bytes.Clone(k.IDs), bytes.Clone(k.Problems)
		out = append(out, kept)
		return nil
	})
	return out, err
}

// ownRows decodes the row ids a block lists as its own (nil when they do
// not decode: the block's checksum or its comparison with its trials
// reports that).
func ownRows(k *StoredBlock) map[int64]bool {
	out := make(map[int64]bool, int(min(max(k.N, 0), 1<<20)))
	u := codec.Unpacker{Buf: k.RowIDs}
	row := int64(0)
	for range k.N {
		row += int64(u.Uvarint())
		if u.Err != nil {
			return nil
		}
		out[row] = true
	}
	return out
}

// rebuildBlock verifies the trials the block owns (the rows of its row
// range that its row ids list: ingests that ran at the same time
// interleave their rows, so another block's trials may lie in the range)
// and builds the block they make; sound is false when one of them is
// damaged (the block is then not compared with them). The block's rows
// are marked in covered; a row that two blocks own is damage.
func rebuildBlock(tx codec.QueryTx, studyID int64, k *StoredBlock, d *codec.Decoder, c *store.StudyCheck, covered map[int64]bool) (*columnar.Block, bool, int, error) {
	own := ownRows(k)
	rows, err := tx.Query(codec.TrialsSelect(tx.Numbered())+` WHERE id BETWEEN ? AND ? AND +study_id = ? ORDER BY id`,
		k.First, k.Last, studyID)
	if err != nil {
		return nil, false, 0, err
	}
	defer rows.Close()
	b := columnar.NewBlock()
	sound, n := true, 0
	r := NewTrialRow()
	for rows.Next() {
		t, err := r.Scan(rows, d)
		if ie := (*store.IntegrityError)(nil); err != nil && !errors.As(err, &ie) {
			return nil, false, n, err
		}
		if own != nil && !own[r.ID] {
			continue // another block's trial
		}
		n++
		if err == nil {
			err = r.Verify(&t, d)
		}
		if covered[r.ID] {
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("row %d is also in another block", r.ID)})
			sound = false
		}
		covered[r.ID] = true
		if err != nil {
			var ie *store.IntegrityError
			if !errors.As(err, &ie) {
				return nil, false, n, err
			}
			addDamage(c, ie)
			sound = false
			continue
		}
		dims := make([]string, len(t.Measurements))
		for j := range t.Measurements {
			dims[j] = codec.EncodeDims(t.Measurements[j].Dims)
		}
		b.Add(r.ID, t.ID, t.Problem, t.Measurements, dims)
		b.Sketch(&t, codec.SketchKey(&t))
	}
	return b, sound, n, rows.Err()
}

// checkValues verifies the block's value columns against their checksums
// and, when sound, against the columns rebuilt from its trials; it
// returns how many it read.
func checkValues(tx codec.QueryTx, k *StoredBlock, rebuilt *columnar.Block, sound bool, c *store.StudyCheck) (int, error) {
	rows, err := tx.Query(`SELECT metric, dims, vals, checksum FROM block_values WHERE block_id = ?`, k.ID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	seen := map[columnar.ColKey]bool{}
	n := 0
	for rows.Next() {
		var metric, dims string
		var vals []byte
		var sum int64
		if err := rows.Scan(&metric, &dims, &vals, &sum); err != nil {
			return n, err
		}
		n++
		key := columnar.ColKey{Metric: metric, Dims: dims}
		seen[key] = true
		if want := codec.ValuesChecksum(k.First, metric, dims, vals); want != sum {
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("the checksum of its values of %s is %d, not %d", colName(key), want, sum)})
			continue
		}
		if !sound {
			continue
		}
		if rebuilt.Cols[key] == nil {
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("it has values of %s, which none of its trials measures", colName(key))})
		} else if !bytes.Equal(rebuilt.Column(key), vals) {
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("its values of %s differ from its trials'", colName(key))})
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	if sound {
		for _, key := range rebuilt.Order {
			if !seen[key] {
				addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("it lacks the values of %s that its trials measure", colName(key))})
			}
		}
	}
	return n, nil
}

// checkSketches verifies the block's sketches, when it has sketches of
// this pareto's version, against their checksum and, when sound, against
// the sketches rebuilt from its trials.
func checkSketches(tx codec.QueryTx, k *StoredBlock, rebuilt *columnar.Block, sound bool, c *store.StudyCheck) error {
	rows, err := tx.Query(`SELECT sketches, sketch_version, sketch_checksum FROM blocks WHERE id = ?`, k.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var sketches []byte
		var version string
		var sum int64
		if err := rows.Scan(&sketches, &version, &sum); err != nil {
			return err
		}
		switch {
		case version != columnar.SketchVersion:
		case columnar.SketchChecksum(k.First, version, sketches) != sum:
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: fmt.Sprintf("the checksum of its sketches is %d, not %d",
				columnar.SketchChecksum(k.First, version, sketches), sum)})
		case sound && !bytes.Equal(rebuilt.Sketcher.Buf, sketches):
			addDamage(c, &store.IntegrityError{Block: k.ID, Detail: "its sketches (repeat keys and names) differ from its trials'"})
		}
	}
	return rows.Err()
}

// colName names a value column: its metric, and its dims when it has any.
func colName(k columnar.ColKey) string {
	if k.Dims == "" {
		return k.Metric
	}
	return k.Metric + " " + k.Dims
}

// CheckStudies checks the study named (every study when study is empty)
// within tx, a read transaction.
func CheckStudies(tx codec.QueryTx, study string) ([]store.StudyCheck, error) {
	q, args := `SELECT id, name FROM studies ORDER BY name`, []any{}
	if study != "" {
		q, args = `SELECT id, name FROM studies WHERE name = ?`, []any{study}
	}
	rows, err := tx.Query(q, args...)
	if err != nil {
		return nil, err
	}
	type named struct {
		id   int64
		name string
	}
	var list []named
	for rows.Next() {
		var n named
		if err := rows.Scan(&n.id, &n.name); err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if study != "" && len(list) == 0 {
		return nil, fmt.Errorf("study %q: %w", study, store.ErrNoStudy)
	}
	var out []store.StudyCheck
	for _, n := range list {
		c, err := checkStudy(tx, n.id, n.name)
		if err != nil {
			return out, fmt.Errorf("checking %s: %w", n.name, err)
		}
		out = append(out, c)
	}
	return out, nil
}
