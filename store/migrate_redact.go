package store

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// fillRedact converts the data of schema version 9 to version 10: the
// secrets that stores written before the redaction policy (trial.Redact,
// trial.RedactText) keep are removed. Every stored trial gets the policy
// applied to its parameters, labels, warnings, problem and executed
// configuration; every skip to its reason. A changed trial whose ID was
// its content hash gets the content hash of its redacted content (as an
// ingest of the same result computes it now), unless another trial of
// its study has that ID already; any other changed trial keeps its ID
// and records the new content hash in content_id. Its checksum, and the
// IDs and problems of its study's blocks, are renewed. A trial that was
// damaged before the upgrade (it does not match its content hash or
// checksum) is redacted too, and stays damaged: pareto check still
// reports it.
func fillRedact(tx fillTx) error {
	d := newDecoder()
	r := newV9TrialRow() // the columns of schema version 10 are those of 9
	enc := &jsonEncoder{}
	studies := map[int64]map[string]bool{} // study -> IDs given by the upgrade
	var changed []int64                    // studies with a changed trial, in order found
	for after := int64(0); ; {
		ups, err := readRedactChunk(tx, after, r, d, enc)
		if err != nil {
			return err
		}
		if ups.last == 0 {
			break
		}
		for i := range ups.list {
			u := &ups.list[i]
			if studies[u.study] == nil {
				studies[u.study] = map[string]bool{}
				changed = append(changed, u.study)
			}
			if err := u.pickID(tx, studies[u.study]); err != nil {
				return err
			}
			if err := u.write(tx); err != nil {
				return err
			}
		}
		after = ups.last
	}
	for _, study := range changed {
		if err := renewBlocks(tx, study); err != nil {
			return err
		}
	}
	return redactSkips(tx)
}

// redactChunk is what readRedactChunk found in one chunk of trials: the
// changed trials and the last row id read (0 when there was none).
type redactChunk struct {
	list []redactUpdate
	last int64
}

// redactUpdate is the redacted row of one trial.
type redactUpdate struct {
	row, study int64
	// id is the stored ID, newID the content hash of the redacted trial;
	// renamable says the stored ID was the content hash of the trial as
	// stored (and the trial sound), so that it may become newID.
	id, newID string
	renamable bool
	// sound says the trial matched its content hash and checksum.
	sound                      bool
	labels, params, warnings   string
	problem                    string
	config                     []byte
	env                        [6]string
	checksumArgs               trialRow // the row as read, for the checksum
	canonWarnings, canonLayout []byte
	contentID                  string
	checksum                   int64
}

// studyScanner appends the study id column to the trial row's targets.
type studyScanner struct {
	rows  fillRows
	study *int64
}

func (s studyScanner) Scan(dest ...any) error {
	return s.rows.Scan(append(dest, s.study)...)
}

// readRedactChunk reads fillChunk trials after row id after and returns
// those the policy changes.
func readRedactChunk(tx fillTx, after int64, r *trialRow, d *decoder, enc *jsonEncoder) (redactChunk, error) {
	var out redactChunk
	rows, err := tx.query(`SELECT `+v9Columns+`, study_id FROM trials WHERE id > ? ORDER BY id LIMIT ?`, after, int64(fillChunk))
	if err != nil {
		return out, err
	}
	defer rows.Close()
	var study int64
	sc := studyScanner{rows, &study}
	for rows.Next() {
		t, err := r.scan(sc, d)
		out.last = r.id
		if ie := (*IntegrityError)(nil); errors.As(err, &ie) {
			continue // undecodable: pareto check reports it, nothing can be redacted
		} else if err != nil {
			return out, err
		}
		u, ok := redactTrial(&t)
		if !ok {
			continue
		}
		sound := r.verify(&t, d) == nil
		up := redactUpdate{row: r.id, study: study, id: t.ID, newID: trial.ComputeID(&u), sound: sound,
			renamable: sound && len(r.contentID) == 0,
			labels:    strings.Clone(enc.mapString(u.Labels)), params: strings.Clone(enc.mapString(u.Params)),
			warnings: encodeList(u.Warnings), problem: u.Problem, env: env(&u), config: []byte{}}
		if u.Deployment != nil {
			up.config = []byte(u.Deployment.Config)
		}
		up.checksumArgs = cloneRow(r)
		up.canonWarnings = bytes.Clone(d.canonicalWarnings([]byte(up.warnings), u.Warnings))
		up.canonLayout = bytes.Clone(d.canonicalLayout(r.layout, t.Deployment))
		if !sound { // damaged before: keep what it is checked against
			up.contentID, up.checksum = string(r.contentID), r.checksum
		}
		out.list = append(out.list, up)
	}
	return out, rows.Err()
}

// redactTrial returns t with the redaction policy applied, and whether
// that changed anything. t is not modified; a trial the policy leaves as
// it is (all but those stored before redaction) is not copied.
func redactTrial(t *trial.Trial) (trial.Trial, bool) {
	if !needsRedaction(t) {
		return trial.Trial{}, false
	}
	u := *t
	u.Labels, u.Params, u.Warnings = maps.Clone(t.Labels), maps.Clone(t.Params), slices.Clone(t.Warnings)
	u.Redact()
	if t.Deployment != nil {
		dep := *t.Deployment
		dep.Config = trial.RedactText(dep.Config)
		u.Deployment = &dep
	}
	return u, true
}

// needsRedaction reports whether the policy changes any text of t.
func needsRedaction(t *trial.Trial) bool {
	for k, v := range t.Params {
		if trial.RedactParam(k, v) != v {
			return true
		}
	}
	for k, v := range t.Labels {
		if trial.RedactParam(k, v) != v {
			return true
		}
	}
	for _, w := range t.Warnings {
		if trial.RedactText(w) != w {
			return true
		}
	}
	return trial.RedactText(t.Problem) != t.Problem ||
		t.Deployment != nil && trial.RedactText(t.Deployment.Config) != t.Deployment.Config
}

// cloneRow copies the fields of r that the checksum covers.
func cloneRow(r *trialRow) trialRow {
	return trialRow{path: bytes.Clone(r.path), format: bytes.Clone(r.format), version: bytes.Clone(r.version),
		line: r.line, measurements: bytes.Clone(r.measurements), alloc: r.alloc, allocWhy: bytes.Clone(r.allocWhy),
		serving: r.serving, servingWhy: bytes.Clone(r.servingWhy), configPath: bytes.Clone(r.configPath)}
}

// pickID decides the trial's ID and content_id and computes its checksum:
// newID when the stored ID may become it and neither a trial of the study
// (given, the IDs the upgrade gave, included) has it; the stored ID
// otherwise.
func (u *redactUpdate) pickID(tx fillTx, given map[string]bool) error {
	if !u.sound {
		return nil
	}
	id := u.id
	if u.renamable && !given[u.newID] {
		taken, err := existingIDs(tx, u.study, map[string]int{u.newID: 0})
		if err != nil {
			return err
		}
		if !taken[u.newID] {
			id = u.newID
		}
	}
	given[id] = true
	u.id, u.contentID = id, ""
	if id != u.newID {
		u.contentID = u.newID
	}
	a := &u.checksumArgs
	u.checksum = trialChecksum([]byte(id), a.path, a.format, a.version, a.line, a.measurements, u.canonWarnings,
		u.canonLayout, a.alloc, a.allocWhy, a.serving, a.servingWhy, a.configPath, u.config, nil) // no session before schema 11
	return nil
}

// write stores the redacted row.
func (u *redactUpdate) write(tx fillTx) error {
	e := u.env
	set := `labels = ?, params = ?, warnings = ?, problem = ?, config = ?, hash = ?, content_id = ?, checksum = ?, `
	args := []any{u.labels, u.params, u.warnings, u.problem, u.config, u.id, u.contentID, u.checksum}
	if tx.numbered() {
		set = `labels = ?::jsonb, params = ?::jsonb, warnings = ?::jsonb, problem = ?, config = ?, hash = ?, content_id = ?, checksum = ?, `
	} else {
		set += `hkey = ?, `
		args = append(args, hashKey(u.id))
	}
	for i, c := range envColumns {
		if i > 0 {
			set += ", "
		}
		set += c + " = ?"
		args = append(args, e[i])
	}
	return tx.exec(`UPDATE trials SET `+set+` WHERE id = ?`, append(args, u.row)...)
}

// renewBlocks rewrites the IDs and problems of the study's blocks from
// its trials, and their checksums, where they changed.
func renewBlocks(tx fillTx, study int64) error {
	blocks, err := readBlocks(tx, study)
	if err != nil {
		return err
	}
	for i := range blocks {
		k := &blocks[i]
		rows, err := tx.query(`SELECT hash, problem FROM trials WHERE id BETWEEN ? AND ? AND study_id = ? ORDER BY id`,
			k.first, k.last, study)
		if err != nil {
			return err
		}
		var ids, problems []byte
		var hash, problem string
		for rows.Next() {
			if err := rows.Scan(&hash, &problem); err != nil {
				rows.Close()
				return err
			}
			ids, problems = appendID(ids, hash), appendString(problems, problem)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if bytes.Equal(ids, k.ids) && bytes.Equal(problems, k.problems) {
			continue
		}
		sum := blockChecksum(k.first, k.last, k.n, k.rowIDs, ids, problems)
		if err := tx.exec(`UPDATE blocks SET ids = ?, problems = ?, checksum = ? WHERE id = ?`, ids, problems, sum, k.id); err != nil {
			return err
		}
	}
	return nil
}

// redactSkips applies trial.RedactText to the reasons of the stored skips
// (a failure marker's line may quote a command).
func redactSkips(tx fillTx) error {
	rows, err := tx.query(`SELECT id, reason FROM skips ORDER BY id`)
	if err != nil {
		return err
	}
	type skip struct {
		id     int64
		reason string
	}
	var ups []skip
	for rows.Next() {
		var s skip
		if err := rows.Scan(&s.id, &s.reason); err != nil {
			rows.Close()
			return err
		}
		if r := trial.RedactText(s.reason); r != s.reason {
			ups = append(ups, skip{s.id, r})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range ups {
		if err := tx.exec(`UPDATE skips SET reason = ? WHERE id = ?`, s.reason, s.id); err != nil {
			return err
		}
	}
	return nil
}
