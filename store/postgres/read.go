package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// Trials returns the study's trials in ingest order, filtered by q, from
// one repeatable-read snapshot.
func (s *pgStore) Trials(ctx context.Context, study string, q store.Query) ([]trial.Trial, error) {
	var out []trial.Trial
	err := s.readStudy(ctx, study, func(tx pgx.Tx, studyID int64) error {
		c := &shared.Collector{Q: q}
		d := codec.NewDecoder()
		if err := pgReadTrials(ctx, tx, studyID, c, d); err != nil {
			return fmt.Errorf("reading trials: %w", shared.InStudy(err, study))
		}
		out = c.Trials
		return nil
	})
	if err != nil {
		return nil, s.wrap("reading "+study, err)
	}
	return out, nil
}

// Scan hands the study's trials, filtered by q, to fn in ingest order, in
// batches, from one repeatable-read snapshot.
func (s *pgStore) Scan(ctx context.Context, study string, q store.Query, fn func([]trial.Trial) error) error {
	err := s.readStudy(ctx, study, func(tx pgx.Tx, studyID int64) error {
		c := &shared.Collector{Q: q, Emit: fn}
		if err := pgReadTrials(ctx, tx, studyID, c, codec.NewScanDecoder()); err != nil {
			return shared.ScanWrap(err, func(err error) error { return fmt.Errorf("reading trials: %w", shared.InStudy(err, study)) })
		}
		return nil
	})
	return shared.ScanError(err, func(err error) error { return s.wrap("reading "+study, err) })
}

func pgReadTrials(ctx context.Context, tx pgx.Tx, studyID int64, c *shared.Collector, d *codec.Decoder) error {
	rows, err := tx.Query(ctx, codec.TrialsSelect(true)+` WHERE study_id = $1 ORDER BY id`, studyID)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := shared.NewTrialRow()
	v := shared.NewVerifier()
	defer v.Wait()
	c.StartScan(v)
	for rows.Next() {
		id, t, err := r.Decode(rows, d, &c.Q, c.Q.Slim && len(c.Q.Where) == 0, v)
		if err != nil {
			return err
		}
		if !c.AddTrial(id, t) {
			break
		}
	}
	rows.Close()
	return c.Finish(rows.Err(), v.Wait())
}

// Check verifies the study (every study when study is empty) in one
// repeatable-read snapshot.
func (s *pgStore) Check(ctx context.Context, study string) ([]store.StudyCheck, error) {
	var out []store.StudyCheck
	err := s.snapshot(ctx, "checking", func(tx pgx.Tx) error {
		var err error
		out, err = shared.CheckStudies(pgQueryTx{ctx, tx}, study)
		return err
	})
	return out, err
}

// pgStudyID returns the id of the study named study in tx, ErrNoStudy
// when there is none.
func pgStudyID(ctx context.Context, tx pgx.Tx, study string) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `SELECT id FROM studies WHERE name = $1`, study).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("study %q: %w", study, store.ErrNoStudy)
	}
	return id, err
}
