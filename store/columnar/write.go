package columnar

import (
	"strings"

	"github.com/pareto-llm/pareto/store/internal/codec"
)

// pgInsertBlock inserts a block and its values in one statement (one
// round trip).
const pgInsertBlock = `WITH b AS (INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems,
		checksum, sketches, sketch_version, sketch_checksum)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id)
INSERT INTO block_values (block_id, metric, dims, vals, checksum)
SELECT b.id, u.metric, u.dims, u.vals, u.checksum FROM b,
	unnest(?::text[], ?::text[], ?::bytea[], ?::bigint[]) AS u(metric, dims, vals, checksum)`

// WriteBlock stores b, a block of the study's trials, with the checksums
// of the block, of each of its value columns and of its sketches
// (BlockChecksum, ValuesChecksum, SketchChecksum). The block's sketches
// are stored when every trial of it has one, else none (an empty
// version).
func WriteBlock(tx codec.BlockTx, studyID int64, b *Block) error {
	if b.N == 0 {
		return nil
	}
	sum := codec.BlockChecksum(b.First, b.Last, int64(b.N), b.RowIDs, b.IDs, b.Problems)
	version, sketches := "", []byte{}
	if b.Sketcher.n == b.N {
		version, sketches = SketchVersion, b.Sketcher.Buf
	}
	args := []any{studyID, b.First, b.Last, int64(b.N), b.RowIDs, b.IDs, b.Problems,
		sum, sketches, version, SketchChecksum(b.First, version, sketches)}
	if tx.Numbered() {
		n := len(b.Order)
		metrics, dims, vals, vsums := make([]string, n), make([]string, n), make([][]byte, n), make([]int64, n)
		for i, k := range b.Order {
			metrics[i], dims[i], vals[i] = k.Metric, k.Dims, b.Column(k)
			vsums[i] = codec.ValuesChecksum(b.First, k.Metric, k.Dims, vals[i])
		}
		return tx.Exec(pgInsertBlock, append(args, metrics, dims, vals, vsums)...)
	}
	id, err := tx.QueryInt(`INSERT INTO blocks (study_id, first_trial, last_trial, trials, row_ids, ids, problems,
		checksum, sketches, sketch_version, sketch_checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, args...)
	if err != nil {
		return err
	}
	const row = "(?, ?, ?, ?, ?)"
	for start := 0; start < len(b.Order); start += valuesBatch {
		keys := b.Order[start:min(start+valuesBatch, len(b.Order))]
		args := make([]any, 0, 5*len(keys))
		for _, k := range keys {
			vals := b.Column(k)
			args = append(args, id, k.Metric, k.Dims, vals, codec.ValuesChecksum(b.First, k.Metric, k.Dims, vals))
		}
		err := tx.Exec(`INSERT INTO block_values (block_id, metric, dims, vals, checksum) VALUES `+row+
			strings.Repeat(", "+row, len(keys)-1), args...)
		if err != nil {
			return err
		}
	}
	return nil
}

// valuesBatch is the number of block_values rows per SQLite INSERT.
const valuesBatch = 64
