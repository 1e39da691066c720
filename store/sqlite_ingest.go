package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/trial"
)

// Batch sizes of the multi-row statements.
const (
	trialBatch       = 100
	measurementBatch = 500
	lookupBatch      = 500
)

// Ingest stores one source's trials in one transaction.
func (s *sqliteStore) Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error) {
	ps, dups := prepare(trials)
	err = retryBusy(ctx, func() error {
		added, present, err = s.ingestTx(ctx, study, source, ps)
		return err
	})
	if err != nil {
		return 0, 0, sqliteError(s.path, "ingesting "+source, err)
	}
	return added, present + dups, nil
}

// ingestTx writes the new trials of ps in one write transaction. Write
// transactions are serialised by SQLite (BEGIN IMMEDIATE), so the hashes
// looked up at its start stay valid and row ids can be assigned here.
func (s *sqliteStore) ingestTx(ctx context.Context, study, source string, ps []prepared) (added, present int, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	studyID, err := s.studyID(ctx, tx, study)
	if err != nil {
		return 0, 0, err
	}
	exists, err := s.existing(ctx, tx, studyID, ps)
	if err != nil {
		return 0, 0, err
	}
	fresh := make([]prepared, 0, len(ps)-len(exists))
	for _, p := range ps {
		if !exists[p.id] {
			fresh = append(fresh, p)
		}
	}
	var next int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM trials`).Scan(&next); err != nil {
		return 0, 0, err
	}
	now := sqliteTime(time.Now())
	if err := s.insertTrials(ctx, tx, studyID, fresh, next, now); err != nil {
		return 0, 0, err
	}
	if err := s.insertMeasurements(ctx, tx, fresh, next); err != nil {
		return 0, 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sources (study_id, path, added, present, ingested_at) VALUES (?, ?, ?, ?, ?)`,
		studyID, source, len(fresh), len(exists), now); err != nil {
		return 0, 0, err
	}
	return len(fresh), len(exists), tx.Commit()
}

// existing returns the hashes of ps already stored in the study.
func (s *sqliteStore) existing(ctx context.Context, tx *sql.Tx, studyID int64, ps []prepared) (map[string]bool, error) {
	out := map[string]bool{}
	args := make([]any, 0, lookupBatch+1)
	for start := 0; start < len(ps); start += lookupBatch {
		chunk := ps[start:min(start+lookupBatch, len(ps))]
		args = append(args[:0], studyID)
		for _, p := range chunk {
			args = append(args, p.id)
		}
		q := `SELECT hash FROM trials WHERE study_id = ? AND hash IN (?` + strings.Repeat(",?", len(chunk)-1) + `)`
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return nil, err
			}
			out[h] = true
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// insertTrials writes ps with row ids first, first+1, ...
func (s *sqliteStore) insertTrials(ctx context.Context, tx *sql.Tx, studyID int64, ps []prepared, first int64, now string) error {
	cols := "id, " + strings.Join(trialColumns, ", ")
	n := len(trialColumns) + 1
	var full *sql.Stmt
	args := make([]any, 0, trialBatch*n)
	for start := 0; start < len(ps); start += trialBatch {
		chunk := ps[start:min(start+trialBatch, len(ps))]
		args = args[:0]
		for i := range chunk {
			args = append(args, first+int64(start+i))
			args = trialArgs(args, studyID, &chunk[i], now)
		}
		stmt, err := s.batchStmt(ctx, tx, &full, "trials", cols, len(chunk), n, trialBatch)
		if err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return err
		}
		s.batchDone()
	}
	return nil
}

// insertMeasurements writes the measurements of ps, whose trials have row
// ids first, first+1, ...
func (s *sqliteStore) insertMeasurements(ctx context.Context, tx *sql.Tx, ps []prepared, first int64) error {
	cols := strings.Join(measurementColumns, ", ")
	n := len(measurementColumns)
	var full *sql.Stmt
	args := make([]any, 0, measurementBatch*n)
	rows := 0
	flush := func() error {
		if rows == 0 {
			return nil
		}
		stmt, err := s.batchStmt(ctx, tx, &full, "measurements", cols, rows, n, measurementBatch)
		if err != nil {
			return err
		}
		_, err = stmt.ExecContext(ctx, args...)
		args, rows = args[:0], 0
		s.batchDone()
		return err
	}
	for i := range ps {
		for j := range ps[i].t.Measurements {
			args = measurementArgs(args, first+int64(i), &ps[i], j)
			if rows++; rows == measurementBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// batchStmt returns the INSERT statement for rows rows of n columns,
// preparing the full-batch statement once per transaction.
func (s *sqliteStore) batchStmt(ctx context.Context, tx *sql.Tx, full **sql.Stmt, table, cols string, rows, n, batch int) (*sql.Stmt, error) {
	if rows == batch && *full != nil {
		return *full, nil
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO "+table+" ("+cols+") VALUES "+valuesList(rows, n, false))
	if err != nil {
		return nil, err
	}
	if rows == batch {
		*full = stmt
	}
	return stmt, nil
}

func (s *sqliteStore) batchDone() {
	if s.afterBatch != nil {
		s.afterBatch()
	}
}
