package sqlite

import (
	"context"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// TrialsByID returns the study's trials whose IDs are in ids, verified
// (see Integrity in the package documentation), in ingest order; IDs the
// study does not hold are left out. One read transaction.
func (s *sqliteStore) TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error) {
	ids = shared.UniqueIDs(ids)
	var out []shared.RowTrial
	err := s.readStudy(ctx, study, func(c *sqlite3.Conn, studyID int64) error {
		d, r := codec.NewDecoder(), shared.NewTrialRow()
		for b := range shared.IDBatches(ids, shared.ByIDBatch) {
			query, args := byHashKey(studyID, b.IDs)
			st, _, err := c.Prepare(query)
			if err != nil {
				return err
			}
			if err := bindArgs(st, args); err != nil {
				st.Close()
				return err
			}
			for st.Step() {
				if out, err = shared.VerifiedRow(stmtScanner{st}, d, r, b.Want, out); err != nil {
					st.Close()
					return shared.InStudy(err, study)
				}
			}
			if err := st.Close(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading trials of "+study, err)
	}
	return shared.ByRow(out), nil
}

// byHashKey returns the query of the trials of studyID under the hash
// keys (codec.HashKey) of ids, and its arguments.
func byHashKey(studyID int64, ids []string) (string, []any) {
	args := make([]any, 0, len(ids)+1)
	args = append(args, studyID)
	for _, id := range ids {
		args = append(args, codec.HashKey(id))
	}
	return codec.TrialsSelect(false) + ` WHERE study_id = ? AND hkey IN (?` + strings.Repeat(",?", len(ids)-1) + `)`, args
}
