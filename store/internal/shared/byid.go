package shared

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// ByIDBatch is the number of trial IDs TrialsByID looks up per statement.
const ByIDBatch = 500

// IDBatch is a batch of trial IDs looked up in one statement, and the
// set of them: a row found under another ID that shares a hash key
// (codec.HashKey) is not one of them.
type IDBatch struct {
	IDs  []string
	Want map[string]bool
}

// IDBatches splits ids into batches of at most n, in order.
func IDBatches(ids []string, n int) iter.Seq[IDBatch] {
	return func(yield func(IDBatch) bool) {
		for start := 0; start < len(ids); start += n {
			b := IDBatch{IDs: ids[start:min(start+n, len(ids))]}
			b.Want = make(map[string]bool, len(b.IDs))
			for _, id := range b.IDs {
				b.Want[id] = true
			}
			if !yield(b) {
				return
			}
		}
	}
}

// rowTrial is a trial read with its row id.
type rowTrial struct {
	row int64
	t   trial.Trial
}

// verifiedRow reads the current row into a trial and, when its ID is in
// want, verifies it and appends it to out.
func verifiedRow(rs RowScanner, d *codec.Decoder, r *TrialRow, want map[string]bool, out []rowTrial) ([]rowTrial, error) {
	t, err := r.Scan(rs, d)
	if err != nil || !want[t.ID] { // another ID under the same key
		return out, err
	}
	if err := r.Verify(&t, d); err != nil {
		return out, err
	}
	return append(out, rowTrial{r.ID, t}), nil
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

// TrialsByID implements store.Reader.TrialsByID: the study's trials
// whose IDs are in ids, verified, in ingest order; IDs the study does not
// hold are left out. One snapshot.
func (r Reads) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = UniqueIDs(ids)
	var out []rowTrial
	err := r.D.ReadStudy(ctx, "reading trials of "+study, study, func(tx StudyTx, studyID int64) error {
		out = out[:0]
		dec, row := codec.NewDecoder(), NewTrialRow()
		for b := range IDBatches(ids, ByIDBatch) {
			query, args := TrialsByIDQuery(tx.Numbered(), studyID, b.IDs)
			rows, err := tx.Query(query, args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				if out, err = verifiedRow(rows, dec, row, b.Want, out); err != nil {
					rows.Close()
					return InStudy(err, study)
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
		return nil, err
	}
	return byRow(out), nil
}

// TrialsByIDQuery returns the query of the trials of studyID under ids,
// and its arguments: PostgreSQL (numbered) looks their hashes up, SQLite
// their hash keys (codec.HashKey), which its index holds, so that a row
// it finds may be another ID's under the same key.
func TrialsByIDQuery(numbered bool, studyID int64, ids []string) (string, []any) {
	if numbered {
		return codec.TrialsSelect(true) + ` WHERE study_id = ? AND hash = ANY(?::text[])`, []any{studyID, ids}
	}
	args := make([]any, 0, len(ids)+1)
	args = append(args, studyID)
	for _, id := range ids {
		args = append(args, codec.HashKey(id))
	}
	return codec.TrialsSelect(false) + ` WHERE study_id = ? AND hkey IN (?` + strings.Repeat(",?", len(ids)-1) + `)`, args
}
