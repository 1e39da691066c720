package shared

import (
	"context"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// SkipOwner is the identity of the input some trials came from, as the
// skips they supersede are keyed: the file (Source.File) and the CloudAI
// run (the "run" label without the "#n" of one of several trials).
type SkipOwner struct {
	File string // trial.Skip.File
	Run  string // the CloudAI run, "" for none
}

// SkipOwners returns the distinct identities of the inputs of ts.
func SkipOwners(ts []trial.Trial) []SkipOwner {
	var out []SkipOwner
	for i := range ts {
		run, _, _ := strings.Cut(ts[i].Labels["run"], "#")
		o := SkipOwner{File: ts[i].Source.File(), Run: run}
		if len(out) == 0 || out[len(out)-1] != o {
			out = append(out, o) // a source's trials share theirs: checking the previous one suffices mostly
		}
	}
	if len(out) < 2 {
		return out
	}
	seen := make(map[SkipOwner]bool, len(out))
	uniq := out[:0]
	for _, o := range out {
		if !seen[o] {
			seen[o] = true
			uniq = append(uniq, o)
		}
	}
	return uniq
}

// supersedeSkips deletes the study's skips that trials of an input
// supersede. Its parameters are the study id, the owner's run (twice) and
// its file (twice); '?' placeholders (the PostgreSQL store renumbers them).
const supersedeSkips = `DELETE FROM skips WHERE study_id = ? AND (run = '' OR run = ?)
	AND (file = ? OR substr(?, 1, length(file) + 1) = file || '/')`

// uniqueSkips returns skips without repeated identities (the last one of
// each identity wins, in the place of the first).
func uniqueSkips(skips []trial.Skip) []trial.Skip {
	type id struct{ file, run string }
	at := make(map[id]int, len(skips))
	out := make([]trial.Skip, 0, len(skips))
	for _, s := range skips {
		k := id{s.File(), s.Run}
		if i, ok := at[k]; ok {
			out[i] = s
			continue
		}
		at[k] = len(out)
		out = append(out, s)
	}
	return out
}

// storedSkip builds a skip from its stored columns: the key is the file
// when it differs from the path.
func storedSkip(path, file, run, caseID string, iteration, step int64, phase, code, reason string) trial.Skip {
	s := trial.Skip{Path: path, Run: run, Case: caseID, Iteration: int(iteration), Step: int(step),
		Phase: phase, Code: code, Reason: reason}
	if file != path {
		s.Key = file
	}
	return s
}

// FilterSkips keeps the skips that satisfy where (trial.MatchSkip).
func FilterSkips(skips []trial.Skip, where []store.Condition) []trial.Skip {
	if len(where) == 0 {
		return skips
	}
	out := skips[:0]
	for i := range skips {
		if trial.MatchSkip(&skips[i], where) {
			out = append(out, skips[i])
		}
	}
	return out
}

// Supersede deletes the skips of the study that trials of owners
// supersede (the SQLite store; the PostgreSQL one runs pgSourceSupersede).
func Supersede(tx codec.BlockTx, studyID int64, owners []SkipOwner) error {
	for _, o := range owners {
		if err := tx.Exec(supersedeSkips, studyID, o.Run, o.File, o.File); err != nil {
			return err
		}
	}
	return nil
}

// upsertSkip records one skip, replacing the stored skip of its identity.
const upsertSkip = `INSERT INTO skips (study_id, file, run, path, case_id, iteration, step, phase, code, reason, recorded_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, %s)
	ON CONFLICT (study_id, file, run) DO UPDATE SET path = excluded.path, case_id = excluded.case_id,
	iteration = excluded.iteration, step = excluded.step, phase = excluded.phase, code = excluded.code,
	reason = excluded.reason, recorded_at = excluded.recorded_at`

// RecordSkips records skips in the study within tx and returns how many
// were new and how many were known (replaced); now is the SQLite time of
// the record (PostgreSQL uses its clock).
func RecordSkips(tx codec.BlockTx, studyID int64, skips []trial.Skip, now string) (added, present int, err error) {
	stamp, args := "?", 11
	if tx.Numbered() {
		stamp, args = "now()", 10
	}
	upsert := fmt.Sprintf(upsertSkip, stamp)
	for _, s := range uniqueSkips(skips) {
		n, err := tx.QueryInt(`SELECT COUNT(*) FROM skips WHERE study_id = ? AND file = ? AND run = ?`, studyID, s.File(), s.Run)
		if err != nil {
			return 0, 0, err
		}
		vals := []any{studyID, s.File(), s.Run, s.Path, s.Case, int64(s.Iteration), int64(s.Step), s.Phase, s.Code, s.Reason, now}
		if err := tx.Exec(upsert, vals[:args]...); err != nil {
			return 0, 0, err
		}
		if n > 0 {
			present++
		} else {
			added++
		}
	}
	return added, present, nil
}

// Skips implements store.Store.Skips: the study's skips that satisfy
// where, in the order first recorded, from one snapshot.
func (r Reads) Skips(ctx context.Context, study string, where []store.Condition) ([]trial.Skip, error) {
	var out []trial.Skip
	err := r.D.ReadTx(ctx, "reading the skips of "+study, func(tx tunequeue.SQL) error {
		studyID, err := StudyID(tx, study)
		if err != nil {
			return err
		}
		rows, err := tx.Query(listSkips, studyID)
		if err != nil {
			return err
		}
		out, err = scanSkips(rows)
		return err
	})
	if err != nil {
		return nil, err
	}
	return FilterSkips(out, where), nil
}

// listSkips is the query of a study's skips, in the order first recorded.
const listSkips = `SELECT path, file, run, case_id, iteration, step, phase, code, reason FROM skips
	WHERE study_id = ? ORDER BY id`

// scanSkips reads the rows of listSkips.
func scanSkips(rows tunequeue.Rows) ([]trial.Skip, error) {
	defer rows.Close()
	var out []trial.Skip
	for rows.Next() {
		var path, file, run, caseID, phase, code, reason string
		var iteration, step int64
		if err := rows.Scan(&path, &file, &run, &caseID, &iteration, &step, &phase, &code, &reason); err != nil {
			return nil, err
		}
		out = append(out, storedSkip(path, file, run, caseID, iteration, step, phase, code, reason))
	}
	return out, rows.Err()
}
