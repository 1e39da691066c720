package store

import (
	"database/sql"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// fillChunk is the number of trials the conversion to packed
// measurements reads at a time (with an AIPerf file's 325 measurements
// each, about 60 MB).
const fillChunk = 1_000

// fillTrial is a trial read by fillPacked: its row, study, ID and
// measurements, and the columns its content hash covers.
type fillTrial struct {
	row, study                  int64
	id, problem                 string
	ms                          []trial.Measurement
	dims                        []string
	labels, params              []byte
	workload                    [8]sql.NullFloat64
	requests, succeeded, failed int64
}

// fillPacked converts the measurements rows of schema version 4 into
// packed blobs and blocks (schema version 5): trials are read in row-id
// order, a chunk at a time, and each study's trials are grouped into
// blocks of up to blockTrials. Trials whose ID is the content hash of an
// earlier version get the v2 one (currentIDs), which the conversion to
// schema version 6 replaces in turn (fillPositions).
func fillPacked(tx fillTx) error {
	open := map[int64]*block{}
	var studies []int64
	d := newDecoder()
	for after := int64(0); ; {
		ts, err := readFillChunk(tx, after)
		if err != nil || len(ts) == 0 {
			if err == nil {
				err = flushBlocks(tx, studies, open)
			}
			return err
		}
		if err := currentIDs(tx, ts, d); err != nil {
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
				if err := writeBlockAt(tx, t.study, b, false); err != nil {
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
		if err := writeBlockAt(tx, s, open[s], false); err != nil {
			return err
		}
	}
	return nil
}

// readFillChunk reads the next fillChunk trials after row id after, with
// their measurements: the trials' columns, then the measurements of their
// row-id range.
func readFillChunk(tx fillTx, after int64) ([]fillTrial, error) {
	out, err := readFillTrials(tx, after)
	if err != nil || len(out) == 0 {
		return out, err
	}
	rows, err := tx.query(`SELECT trial_id, metric, dims, value, unit, native, source_unit FROM measurements
		WHERE trial_id > ? AND trial_id <= ? ORDER BY trial_id, seq`, after, out[len(out)-1].row)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var row int64
	var metric, dims, unit, native, src string
	var value sql.NullFloat64
	i := 0
	for rows.Next() {
		if err := rows.Scan(&row, &metric, &dims, &value, &unit, &native, &src); err != nil {
			return nil, err
		}
		for i < len(out) && out[i].row < row {
			i++
		}
		if i == len(out) || out[i].row != row {
			continue // a measurement of no trial: dropped with its table
		}
		t := &out[i]
		t.ms = append(t.ms, trial.Measurement{Metric: metric, Value: orNaN(value), Unit: unit, Native: native, SourceUnit: src})
		t.dims = append(t.dims, dims)
	}
	return out, rows.Err()
}

// readFillTrials reads the columns of the next fillChunk trials after row
// id after that their content hash covers.
func readFillTrials(tx fillTx, after int64) ([]fillTrial, error) {
	rows, err := tx.query(`SELECT id, study_id, hash, problem, labels, params, input_tokens, output_tokens,
		mean_input_tokens, mean_output_tokens, concurrency, achieved_concurrency, request_rate, users,
		requests, succeeded, failed FROM trials WHERE id > ? ORDER BY id LIMIT ?`, after, int64(fillChunk))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fillTrial
	var labels, params string
	for rows.Next() {
		var t fillTrial
		dest := []any{&t.row, &t.study, &t.id, &t.problem, &labels, &params}
		for i := range t.workload {
			dest = append(dest, &t.workload[i])
		}
		if err := rows.Scan(append(dest, &t.requests, &t.succeeded, &t.failed)...); err != nil {
			return nil, err
		}
		t.labels, t.params = []byte(labels), []byte(params)
		out = append(out, t)
	}
	return out, rows.Err()
}

// currentIDs gives the v2 content hash (contentID, the ID of schema
// version 5) to the trials of ts whose ID is the content hash of an
// earlier version (legacyID), so that ingesting the same results again
// finds them present. Other IDs (set by the caller of Ingest, or trials
// whose labels SetLabels changed) are kept.
func currentIDs(tx fillTx, ts []fillTrial, d *decoder) error {
	legacy := map[int64]map[string]int{} // study -> current ID -> index in ts
	for i := range ts {
		f := &ts[i]
		t := trial.Trial{Succeeded: f.succeeded, Failed: f.failed, Problem: f.problem}
		var err error
		if t.Labels, err = d.decodeMap(f.labels); err != nil {
			return err
		}
		if t.Params, err = d.decodeMap(f.params); err != nil {
			return err
		}
		w := &t.Workload
		for j, p := range []*float64{&w.InputTokens, &w.OutputTokens, &w.MeanInputTokens, &w.MeanOutputTokens,
			&w.Concurrency, &w.AchievedConcurrency, &w.RequestRate, &w.Users} {
			*p = orNaN(f.workload[j])
		}
		w.Requests = f.requests
		t.Measurements = make([]trial.Measurement, len(f.ms))
		for j, m := range f.ms {
			if m.Dims, err = d.decodeDims([]byte(f.dims[j])); err != nil {
				return err
			}
			t.Measurements[j] = m
		}
		if legacyID(&t) == f.id {
			if legacy[f.study] == nil {
				legacy[f.study] = map[string]int{}
			}
			legacy[f.study][contentID(&t)] = i
		}
	}
	for study, ids := range legacy {
		taken, err := existingIDs(tx, study, ids)
		if err != nil {
			return err
		}
		for id, i := range ids {
			if !taken[id] { // a trial of the study has it already: keep the old ID
				ts[i].id = id
			}
		}
	}
	return nil
}

// existingIDs returns which of ids some trial of the study has.
func existingIDs(tx fillTx, study int64, ids map[string]int) (map[string]bool, error) {
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	var rows fillRows
	var err error
	if tx.numbered() {
		rows, err = tx.query(`SELECT hash FROM trials WHERE study_id = ? AND hash = ANY(?::text[])`, study, list)
	} else {
		args := []any{study}
		for _, id := range list {
			args = append(args, id)
		}
		rows, err = tx.query(`SELECT hash FROM trials WHERE study_id = ? AND hash IN (?`+strings.Repeat(", ?", len(list)-1)+`)`, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	taken := map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		taken[h] = true
	}
	return taken, rows.Err()
}

// writePacked stores the packed measurements of ts, their IDs (which
// currentIDs may have changed) and, in SQLite, their hash keys.
func writePacked(tx fillTx, ts []fillTrial) error {
	if tx.numbered() {
		ids := make([]int64, len(ts))
		blobs := make([][]byte, len(ts))
		for i := range ts {
			ids[i], blobs[i] = ts[i].row, packMeasurements([]byte{}, ts[i].ms, ts[i].dims)
		}
		hashes := make([]string, len(ts))
		for i := range ts {
			hashes[i] = ts[i].id
		}
		return tx.exec(`UPDATE trials AS t SET measurements = u.m, hash = u.h
			FROM unnest(?::bigint[], ?::bytea[], ?::text[]) AS u(id, m, h) WHERE t.id = u.id`, ids, blobs, hashes)
	}
	for i := range ts {
		if err := tx.exec(`UPDATE trials SET measurements = ?, hkey = ?, hash = ? WHERE id = ?`,
			packMeasurements([]byte{}, ts[i].ms, ts[i].dims), hashKey(ts[i].id), ts[i].id, ts[i].row); err != nil {
			return err
		}
	}
	return nil
}
