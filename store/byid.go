package store

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// byIDBatch is the number of trial IDs TrialsByID looks up per statement.
const byIDBatch = 500

// TrialsByID returns the study's trials whose IDs are in ids, verified
// (see Integrity in the package documentation), in ingest order; IDs the
// study does not hold are left out. One read transaction.
func (s *sqliteStore) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = uniqueIDs(ids)
	var out []rowTrial
	err := s.raw(ctx, func(c *sqlite3.Conn) error {
		return inTx(c, "BEGIN", func() error {
			studyID, err := sqliteStudyID(c, study)
			if err != nil {
				return err
			}
			d, r := codec.NewDecoder(), newTrialRow()
			for start := 0; start < len(ids); start += byIDBatch {
				chunk := ids[start:min(start+byIDBatch, len(ids))]
				args := make([]any, 0, len(chunk)+1)
				args = append(args, studyID)
				want := make(map[string]bool, len(chunk))
				for _, id := range chunk {
					args = append(args, codec.HashKey(id))
					want[id] = true
				}
				st, _, err := c.Prepare(`SELECT ` + codec.ReadColumns + ` FROM trials WHERE study_id = ? AND hkey IN (?` +
					strings.Repeat(",?", len(chunk)-1) + `)`)
				if err != nil {
					return err
				}
				if err := bindArgs(st, args); err != nil {
					st.Close()
					return err
				}
				for st.Step() {
					if out, err = verifiedRow(stmtScanner{st}, d, r, want, out); err != nil {
						st.Close()
						return inStudy(err, study)
					}
				}
				if err := st.Close(); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading trials of "+study, err)
	}
	return byRow(out), nil
}

// TrialsByID returns the study's trials whose IDs are in ids, verified,
// in ingest order; IDs the study does not hold are left out. One
// repeatable-read snapshot.
func (s *pgStore) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = uniqueIDs(ids)
	var out []rowTrial
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		out = out[:0]
		studyID, err := pgStudyID(ctx, tx, study)
		if err != nil {
			return err
		}
		d, r := codec.NewDecoder(), newTrialRow()
		for start := 0; start < len(ids); start += byIDBatch {
			chunk := ids[start:min(start+byIDBatch, len(ids))]
			want := make(map[string]bool, len(chunk))
			for _, id := range chunk {
				want[id] = true
			}
			rows, err := tx.Query(ctx, `SELECT `+codec.ReadColumns+` FROM trials WHERE study_id = $1 AND hash = ANY($2::text[])`, studyID, chunk)
			if err != nil {
				return err
			}
			for rows.Next() {
				if out, err = verifiedRow(rows, d, r, want, out); err != nil {
					rows.Close()
					return inStudy(err, study)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading trials of "+study, err)
	}
	return byRow(out), nil
}

// rowTrial is a trial read with its row id.
type rowTrial struct {
	row int64
	t   trial.Trial
}

// verifiedRow reads the current row into a trial and, when its ID is in
// want, verifies it and appends it to out.
func verifiedRow(rs rowScanner, d *codec.Decoder, r *trialRow, want map[string]bool, out []rowTrial) ([]rowTrial, error) {
	t, err := r.scan(rs, d)
	if err != nil || !want[t.ID] { // another ID under the same key
		return out, err
	}
	if err := r.verify(&t, d); err != nil {
		return out, err
	}
	return append(out, rowTrial{r.id, t}), nil
}

// byRow returns the trials in row-id order (ingest order).
func byRow(ts []rowTrial) []trial.Trial {
	slices.SortFunc(ts, func(a, b rowTrial) int { return cmp.Compare(a.row, b.row) })
	out := make([]trial.Trial, len(ts))
	for i := range ts {
		out[i] = ts[i].t
	}
	return out
}
