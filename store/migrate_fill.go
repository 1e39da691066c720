package store

import (
	"database/sql"

	"github.com/pareto-llm/pareto/trial"
)

// fillChunk is the number of trials the conversion to packed
// measurements reads at a time.
const fillChunk = 10_000

// fillTrial is a trial read by fillPacked.
type fillTrial struct {
	row, study  int64
	id, problem string
	ms          []trial.Measurement
	dims        []string
}

// fillPacked converts the measurements rows of schema version 4 into
// packed blobs and blocks (schema version 5): trials are read in row-id
// order, a chunk at a time, and each study's trials are grouped into
// blocks of up to blockTrials.
func fillPacked(tx fillTx) error {
	open := map[int64]*block{}
	var studies []int64
	for after := int64(0); ; {
		ts, err := readFillChunk(tx, after)
		if err != nil || len(ts) == 0 {
			if err == nil {
				err = flushBlocks(tx, studies, open)
			}
			return err
		}
		if err := writePacked(tx, ts); err != nil {
			return err
		}
		for i := range ts {
			t := &ts[i]
			b := open[t.study]
			if b == nil {
				b = newBlock()
				open[t.study] = b
				studies = append(studies, t.study)
			}
			b.add(t.row, t.id, t.problem, t.ms, t.dims)
			if b.n == blockTrials {
				if err := writeBlock(tx, t.study, b); err != nil {
					return err
				}
				open[t.study] = newBlock()
			}
		}
		after = ts[len(ts)-1].row
	}
}

func flushBlocks(tx fillTx, studies []int64, open map[int64]*block) error {
	for _, s := range studies {
		if err := writeBlock(tx, s, open[s]); err != nil {
			return err
		}
	}
	return nil
}

// readFillChunk reads the next fillChunk trials after row id after, with
// their measurements.
func readFillChunk(tx fillTx, after int64) ([]fillTrial, error) {
	rows, err := tx.query(`SELECT t.id, t.study_id, t.hash, t.problem, m.metric, m.dims, m.value, m.unit, m.native, m.source_unit
		FROM (SELECT id, study_id, hash, problem FROM trials WHERE id > ? ORDER BY id LIMIT ?) AS t
		LEFT JOIN measurements m ON m.trial_id = t.id ORDER BY t.id, m.seq`, after, int64(fillChunk))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fillTrial
	var t fillTrial
	var metric, dims, unit, native, src sql.NullString
	var value sql.NullFloat64
	for rows.Next() {
		if err := rows.Scan(&t.row, &t.study, &t.id, &t.problem, &metric, &dims, &value, &unit, &native, &src); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].row != t.row {
			out = append(out, fillTrial{row: t.row, study: t.study, id: t.id, problem: t.problem})
		}
		if !metric.Valid {
			continue
		}
		last := &out[len(out)-1]
		last.ms = append(last.ms, trial.Measurement{Metric: metric.String, Value: orNaN(value), Unit: unit.String,
			Native: native.String, SourceUnit: src.String})
		last.dims = append(last.dims, dims.String)
	}
	return out, rows.Err()
}

// writePacked stores the packed measurements of ts and, in SQLite, their
// hash keys.
func writePacked(tx fillTx, ts []fillTrial) error {
	if tx.numbered() {
		ids := make([]int64, len(ts))
		blobs := make([][]byte, len(ts))
		for i := range ts {
			ids[i], blobs[i] = ts[i].row, packMeasurements([]byte{}, ts[i].ms, ts[i].dims)
		}
		return tx.exec(`UPDATE trials AS t SET measurements = u.m FROM unnest(?::bigint[], ?::bytea[]) AS u(id, m)
			WHERE t.id = u.id`, ids, blobs)
	}
	for i := range ts {
		if err := tx.exec(`UPDATE trials SET measurements = ?, hkey = ? WHERE id = ?`,
			packMeasurements([]byte{}, ts[i].ms, ts[i].dims), hashKey(ts[i].id), ts[i].row); err != nil {
			return err
		}
	}
	return nil
}
