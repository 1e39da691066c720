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
	err := s.raw(ctx, func(c *sqlite3.Conn) error {
		return inTx(c, "BEGIN", func() error {
			studyID, err := sqliteStudyID(c, study)
			if err != nil {
				return err
			}
			d, r := codec.NewDecoder(), shared.NewTrialRow()
			for start := 0; start < len(ids); start += shared.ByIDBatch {
				chunk := ids[start:min(start+shared.ByIDBatch, len(ids))]
				args := make([]any, 0, len(chunk)+1)
				args = append(args, studyID)
				want := make(map[string]bool, len(chunk))
				for _, id := range chunk {
					args = append(args, codec.HashKey(id))
					want[id] = true
				}
				st, _, err := c.Prepare(codec.TrialsSelect(false) + ` WHERE study_id = ? AND hkey IN (?` +
					strings.Repeat(",?", len(chunk)-1) + `)`)
				if err != nil {
					return err
				}
				if err := bindArgs(st, args); err != nil {
					st.Close()
					return err
				}
				for st.Step() {
					if out, err = shared.VerifiedRow(stmtScanner{st}, d, r, want, out); err != nil {
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
	})
	if err != nil {
		return nil, sqliteError(s.path, "reading trials of "+study, err)
	}
	return shared.ByRow(out), nil
}
