package store

import "github.com/pareto-llm/pareto/trial"

// fillIntegrity converts the data of schema version 8 to version 9: every
// stored trial gets its content hash as read (content_id, when it is not
// its ID: an ID set by the caller or kept by an upgrade, labels SetLabels
// changed) and its checksum, every block and value column its checksum.
// What is stored at the upgrade is taken as it is: damage done before it
// cannot be told from data.
func fillIntegrity(tx fillTx) error {
	d := newDecoder()
	r := newV9TrialRow()
	for after := int64(0); ; {
		rows, err := tx.query(`SELECT `+v9Columns+` FROM trials WHERE id > ? ORDER BY id LIMIT ?`, after, int64(fillChunk))
		if err != nil {
			return err
		}
		var ups []integrityUpdate
		for rows.Next() {
			t, err := r.scan(rows, d)
			if err != nil {
				rows.Close()
				return err
			}
			u := integrityUpdate{row: r.id, checksum: r.rowChecksum(&t, d)}
			if id := trial.ComputeID(&t); id != t.ID {
				u.contentID = id
			}
			ups = append(ups, u)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ups) == 0 {
			return fillBlockChecksums(tx)
		}
		if err := writeIntegrity(tx, ups); err != nil {
			return err
		}
		after = ups[len(ups)-1].row
	}
}

// integrityUpdate is what fillIntegrity writes of one trial.
type integrityUpdate struct {
	row       int64
	contentID string
	checksum  int64
}

func writeIntegrity(tx fillTx, ups []integrityUpdate) error {
	if tx.numbered() {
		rows, ids, sums := make([]int64, len(ups)), make([]string, len(ups)), make([]int64, len(ups))
		for i, u := range ups {
			rows[i], ids[i], sums[i] = u.row, u.contentID, u.checksum
		}
		return tx.exec(`UPDATE trials AS t SET content_id = u.c, checksum = u.s
			FROM unnest(?::bigint[], ?::text[], ?::bigint[]) AS u(id, c, s) WHERE t.id = u.id`, rows, ids, sums)
	}
	for _, u := range ups {
		if err := tx.exec(`UPDATE trials SET content_id = ?, checksum = ? WHERE id = ?`, u.contentID, u.checksum, u.row); err != nil {
			return err
		}
	}
	return nil
}

// fillBlockChecksums gives every block and value column its checksum.
func fillBlockChecksums(tx fillTx) error {
	rows, err := tx.query(`SELECT ` + blockColumns + ` FROM blocks ORDER BY id`)
	if err != nil {
		return err
	}
	type sum struct{ id, first, checksum int64 }
	var blocks []sum
	var k storedBlock
	for rows.Next() {
		if err := rows.Scan(k.dest()...); err != nil {
			rows.Close()
			return err
		}
		blocks = append(blocks, sum{k.id, k.first, blockChecksum(k.first, k.last, k.n, k.rowIDs, k.ids, k.problems)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, b := range blocks {
		if err := tx.exec(`UPDATE blocks SET checksum = ? WHERE id = ?`, b.checksum, b.id); err != nil {
			return err
		}
		vrows, err := tx.query(`SELECT metric, dims, vals FROM block_values WHERE block_id = ?`, b.id)
		if err != nil {
			return err
		}
		type vsum struct {
			metric, dims string
			checksum     int64
		}
		var vs []vsum
		for vrows.Next() {
			var metric, dims string
			var vals []byte
			if err := vrows.Scan(&metric, &dims, &vals); err != nil {
				vrows.Close()
				return err
			}
			vs = append(vs, vsum{metric, dims, valuesChecksum(b.first, metric, dims, vals)})
		}
		vrows.Close()
		if err := vrows.Err(); err != nil {
			return err
		}
		for _, v := range vs {
			if err := tx.exec(`UPDATE block_values SET checksum = ? WHERE block_id = ? AND metric = ? AND dims = ?`,
				v.checksum, b.id, v.metric, v.dims); err != nil {
				return err
			}
		}
	}
	return nil
}
