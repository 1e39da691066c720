package store

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// fillPositions converts the IDs of schema version 5, content hashes
// (contentID: two runs with identical numbers had one ID, and the second
// was counted as present), into the IDs of schema version 6, which hash
// the trial's position too (trial.ComputeID): each stored trial gets a
// Source.Key derived from its stored path (legacyKey), and, when its ID is
// the v2 hash of what was ingested, the current ID of the same content at
// that position, unless a trial of the study has that ID already (the two
// would merge; the old ID is then kept). A trial whose labels SetLabels
// changed is recognised when removing one label gives back the hashed
// content (pareto gate sets one); other IDs (set by the caller of Ingest)
// are kept. The blocks' copies of the IDs follow.
func fillPositions(tx fillTx) error {
	d := newDecoder()
	for after := int64(0); ; {
		ts, err := readPositionChunk(tx, after, d)
		if err != nil || len(ts) == 0 {
			if err == nil {
				err = blockIDs(tx)
			}
			return err
		}
		if err := positionIDs(tx, ts); err != nil {
			return err
		}
		if err := writePositions(tx, ts); err != nil {
			return err
		}
		after = ts[len(ts)-1].row
	}
}

// positionTrial is a trial read by fillPositions.
type positionTrial struct {
	row, study int64
	id, key    string
	t          trial.Trial // what its ID hashes: the content, path and index
}

// readPositionChunk reads the next fillChunk trials after row id after.
func readPositionChunk(tx fillTx, after int64, d *decoder) ([]positionTrial, error) {
	rows, err := tx.query(`SELECT id, study_id, hash, source_path, source_index, problem, labels, params,
		input_tokens, output_tokens, mean_input_tokens, mean_output_tokens, concurrency, achieved_concurrency,
		request_rate, users, requests, succeeded, failed, measurements FROM trials WHERE id > ? ORDER BY id LIMIT ?`,
		after, int64(fillChunk))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []positionTrial
	var hash, path, problem, labels, params string
	var packed []byte
	var index int64
	var wl [8]sql.NullFloat64
	for rows.Next() {
		var p positionTrial
		t := &p.t
		dest := []any{&p.row, &p.study, &hash, &path, &index, &problem, &labels, &params}
		for i := range wl {
			dest = append(dest, &wl[i])
		}
		dest = append(dest, &t.Workload.Requests, &t.Succeeded, &t.Failed, &packed)
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		p.id, t.Problem = hash, problem
		if t.Labels, err = d.decodeMap([]byte(labels)); err != nil {
			return nil, err
		}
		if t.Params, err = d.decodeMap([]byte(params)); err != nil {
			return nil, err
		}
		w := &t.Workload
		for i, f := range []*float64{&w.InputTokens, &w.OutputTokens, &w.MeanInputTokens, &w.MeanOutputTokens,
			&w.Concurrency, &w.AchievedConcurrency, &w.RequestRate, &w.Users} {
			*f = orNaN(wl[i])
		}
		if t.Measurements, err = unpackMeasurements(packed, d, nil); err != nil {
			return nil, err
		}
		if p.key = legacyKey(path, t.Labels); p.key == path {
			p.key = ""
		}
		t.Source = trial.Source{Path: path, Key: p.key, Index: int(index)}
		out = append(out, p)
	}
	return out, rows.Err()
}

// legacyKey returns the Source.Key given to a trial stored with the file
// path: what ingest.Load names the file when the same results are read
// again from the directory they were read from. A CloudAI trial (labels
// test_case and iteration) is named from its results tree's parent, the
// directory above its case directory; another is named by its path,
// cleaned and without leading "../" (Load never names a file from outside
// the ingest root). An absolute path is kept: where the ingest root was is
// unknown.
func legacyKey(p string, labels map[string]string) string {
	parts := strings.Split(path.Clean(strings.ReplaceAll(p, `\`, "/")), "/")
	if c, it := labels[trial.LabelTestCase], labels[trial.LabelIteration]; c != "" && it != "" {
		for i := 1; i+1 < len(parts); i++ {
			if parts[i] == c && parts[i+1] == it && parts[i-1] != "" && parts[i-1] != "." && parts[i-1] != ".." {
				return strings.Join(parts[i-1:], "/")
			}
		}
	}
	for len(parts) > 1 && parts[0] == ".." {
		parts = parts[1:]
	}
	return strings.Join(parts, "/")
}

// positionIDs sets the new ID of the trials of ts whose ID is the v2
// content hash of what was ingested, where no trial of the study has it.
func positionIDs(tx fillTx, ts []positionTrial) error {
	fresh := map[int64]map[string]int{} // study -> new ID -> index in ts
	dup := map[int64]map[string]bool{}  // study -> new IDs of several trials
	for i := range ts {
		t, ok := ingested(&ts[i].t, ts[i].id)
		if !ok {
			continue
		}
		id, s := trial.ComputeID(t), ts[i].study
		if fresh[s] == nil {
			fresh[s], dup[s] = map[string]int{}, map[string]bool{}
		}
		if _, seen := fresh[s][id]; seen {
			dup[s][id] = true
		}
		fresh[s][id] = i
	}
	for study, ids := range fresh {
		taken, err := existingIDs(tx, study, ids)
		if err != nil {
			return err
		}
		for id, i := range ids {
			if !taken[id] && !dup[study][id] {
				ts[i].id = id
			}
		}
	}
	return nil
}

// ingested returns the trial as it was ingested, when id is its v2 content
// hash: t itself, or t without the one label whose removal gives id back
// (a label SetLabels added).
func ingested(t *trial.Trial, id string) (*trial.Trial, bool) {
	if contentID(t) == id {
		return t, true
	}
	keys := make([]string, 0, len(t.Labels))
	for k := range t.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		u := *t
		u.Labels = maps.Clone(t.Labels)
		delete(u.Labels, k)
		if contentID(&u) == id {
			return &u, true
		}
	}
	return nil, false
}

// writePositions stores the keys and IDs of ts and, in SQLite, their hash
// keys.
func writePositions(tx fillTx, ts []positionTrial) error {
	if tx.numbered() {
		rows, ids, keys := make([]int64, len(ts)), make([]string, len(ts)), make([]string, len(ts))
		for i := range ts {
			rows[i], ids[i], keys[i] = ts[i].row, ts[i].id, ts[i].key
		}
		return tx.exec(`UPDATE trials AS t SET hash = u.h, source_key = u.k
			FROM unnest(?::bigint[], ?::text[], ?::text[]) AS u(id, h, k) WHERE t.id = u.id`, rows, ids, keys)
	}
	for i := range ts {
		if err := tx.exec(`UPDATE trials SET hash = ?, hkey = ?, source_key = ? WHERE id = ?`,
			ts[i].id, hashKey(ts[i].id), ts[i].key, ts[i].row); err != nil {
			return err
		}
	}
	return nil
}

// blockIDs rewrites the IDs every block keeps of its trials from the
// trials' current IDs.
func blockIDs(tx fillTx) error {
	type blockRow struct{ id, study, first, last int64 }
	rows, err := tx.query(`SELECT id, study_id, first_trial, last_trial FROM blocks ORDER BY id`)
	if err != nil {
		return err
	}
	var blocks []blockRow
	for rows.Next() {
		var b blockRow
		if err := rows.Scan(&b.id, &b.study, &b.first, &b.last); err != nil {
			rows.Close()
			return err
		}
		blocks = append(blocks, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, b := range blocks {
		var rowIDs, old []byte
		rows, err := tx.query(`SELECT row_ids, ids FROM blocks WHERE id = ?`, b.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := rows.Scan(&rowIDs, &old); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		hashes, err := blockHashes(tx, b.study, b.first, b.last)
		if err != nil {
			return err
		}
		ids, err := rebuildIDs(rowIDs, hashes)
		if err != nil {
			return err
		}
		if !bytes.Equal(ids, old) {
			if err := tx.exec(`UPDATE blocks SET ids = ? WHERE id = ?`, ids, b.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// blockHashes maps the row ids of the study's trials in [first, last] to
// their IDs.
func blockHashes(tx fillTx, study, first, last int64) (map[int64]string, error) {
	rows, err := tx.query(`SELECT id, hash FROM trials WHERE id BETWEEN ? AND ? AND study_id = ?`, first, last, study)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var row int64
		var h string
		if err := rows.Scan(&row, &h); err != nil {
			return nil, err
		}
		out[row] = h
	}
	return out, rows.Err()
}

// rebuildIDs encodes the IDs of the trials a block's row ids (uvarint
// deltas) name, as block.add does.
func rebuildIDs(rowIDs []byte, hashes map[int64]string) ([]byte, error) {
	var out []byte
	row := int64(0)
	for len(rowIDs) > 0 {
		d, k := binary.Uvarint(rowIDs)
		if k <= 0 {
			return nil, errPacked
		}
		rowIDs, row = rowIDs[k:], row+int64(d)
		h, ok := hashes[row]
		if !ok {
			return nil, errPacked
		}
		out = appendID(out, h)
	}
	return out, nil
}
