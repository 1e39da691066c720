package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// pgTrialBatch is the number of trials per INSERT ... SELECT FROM unnest.
const pgTrialBatch = 1000

// pgInsertTrials inserts a batch given as one array per column and returns
// the row id and hash of the trials that were not present.
const pgInsertTrials = `INSERT INTO trials (id, study_id, hash, origin_id,
	source_line, source_index, labels, params, param_refs, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed,
	problem, warnings, engine, engine_version, cuda, driver, gpu, host, measurements,
	layout, allocated_gpus, allocated_gpus_unknown, serving_gpus, serving_gpus_unknown, config_path, config,
	content_id, checksum)
OVERRIDING SYSTEM VALUE
SELECT id, $1, hash, origin, line, idx, labels::jsonb, params::jsonb, refs, it, ot, mit, mot,
	conc, aconc, rate, users, requests, succeeded, failed, problem, warnings::jsonb,
	engine, engine_version, cuda, driver, gpu, host, packed,
	NULLIF(layout, '')::jsonb, alloc, alloc_why, serving, serving_why, config_path, config, content_id, checksum
FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::bigint[],
	$9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[], $16::float8[],
	$17::bigint[], $18::bigint[], $19::bigint[], $20::text[], $21::text[],
	$22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[], $28::bigint[], $29::bytea[],
	$30::text[], $31::bigint[], $32::text[], $33::bigint[], $34::text[], $35::text[], $36::bytea[],
	$37::text[], $38::bigint[])
	AS u(hash, origin, line, idx, labels, params, refs, it, ot, mit, mot, conc, aconc, rate, users,
	requests, succeeded, failed, problem, warnings, engine, engine_version, cuda, driver, gpu, host, id, packed,
	layout, alloc, alloc_why, serving, serving_why, config_path, config, content_id, checksum)
ORDER BY hash
ON CONFLICT (study_id, hash) DO NOTHING
RETURNING id, hash`

// pgInsertOrigin writes an origin (shared.Origins).
const pgInsertOrigin = `INSERT INTO origins (path, file_key, format, format_version, session) VALUES ($1, $2, $3, $4, $5) RETURNING origin`

// pgSourceSupersede records an ingested source and deletes the skips that
// its trials, of the inputs (files, runs), supersede (see supersedeSkips),
// in one round trip.
const pgSourceSupersede = `WITH superseded AS (
	DELETE FROM skips k USING unnest($5::text[], $6::text[]) AS o(file, run)
	WHERE k.study_id = $1 AND (k.run = '' OR k.run = o.run)
	AND (k.file = o.file OR substr(o.file, 1, length(k.file) + 1) = k.file || '/'))
INSERT INTO sources (study_id, path, added, present) VALUES ($1, $2, $3, $4)`

// Ingest stores one source's trials in one transaction. Row ids are taken
// from the sequence in source order (so Trials returns a source's trials
// in the order given), but rows are written in hash order so that
// concurrent writers wait on each other instead of deadlocking; a deadlock
// or serialisation failure retries the source.
func (s *pgStore) Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error) {
	if err := s.writable(); err != nil {
		return 0, 0, err
	}
	fill := func(add func([]trial.Trial) error) error { return add(trials) }
	err = retry(func() (err error) {
		added, present, _, err = s.ingestBatches(ctx, study, source, fill)
		return err
	})
	if err != nil {
		return 0, 0, s.wrap("ingesting "+source, err)
	}
	return added, present, nil
}

// IngestBatches stores one source's trials, handed over batch by batch by
// fill, in one transaction, as Ingest does batch by batch; it is not
// retried (the batches are gone once added).
func (s *pgStore) IngestBatches(ctx context.Context, study, source string, fill func(add func([]trial.Trial) error) error) (added, present int, err error) {
	if err := s.writable(); err != nil {
		return 0, 0, err
	}
	added, present, fillErr, err := s.ingestBatches(ctx, study, source, fill)
	switch {
	case fillErr != nil:
		return 0, 0, fillErr
	case err != nil:
		return 0, 0, s.wrap("ingesting "+source, err)
	}
	return added, present, nil
}

// reserveIDs sets the row id of each trial from the trials sequence, in
// increasing order.
func reserveIDs(ctx context.Context, tx pgx.Tx, ps []codec.Prepared) error {
	rows, err := tx.Query(ctx, `SELECT nextval(pg_get_serial_sequence('trials', 'id')) FROM generate_series(1, $1)`, len(ps))
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return err
	}
	if len(ids) != len(ps) {
		return fmt.Errorf("reserved %d row ids for %d trials", len(ids), len(ps))
	}
	slices.Sort(ids)
	for i := range ps {
		ps[i].Row = ids[i]
	}
	return nil
}

// pgWriter is the state of one source's transaction: what was added and
// found present, the inputs whose skips the trials supersede, and the
// block the new trials join (nil: none open).
type pgWriter struct {
	s              *pgStore
	tx             pgx.Tx
	studyID        int64
	added, present int
	owners         []shared.SkipOwner
	seen           map[shared.SkipOwner]bool
	block          *columnar.Block
	origins        shared.Origins
}

// ingestBatches writes the new trials of the batches fill adds and their
// blocks, and deletes the skips that the trials supersede, in one
// transaction. fillErr is fill's own error (not add's).
func (s *pgStore) ingestBatches(ctx context.Context, study, source string, fill func(add func([]trial.Trial) error) error) (added, present int, fillErr, err error) {
	studyID, err := s.studyID(ctx, study)
	if err != nil {
		return 0, 0, nil, err
	}
	var w *pgWriter
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		w = &pgWriter{s: s, tx: tx, studyID: studyID, seen: map[shared.SkipOwner]bool{}}
		w.origins.Insert = func(o shared.Origin) (id int64, err error) {
			err = tx.QueryRow(ctx, pgInsertOrigin, o.Path, o.Key, o.Format, o.Version, o.Session).Scan(&id)
			return id, err
		}
		var addErr error
		err := fill(func(ts []trial.Trial) error {
			if addErr == nil {
				addErr = w.add(ctx, ts)
			}
			return addErr
		})
		if err != nil {
			if addErr == nil {
				fillErr = err
			}
			return err
		}
		if err := w.flushBlock(ctx); err != nil {
			return err
		}
		files, runs := make([]string, len(w.owners)), make([]string, len(w.owners))
		for i, o := range w.owners {
			files[i], runs[i] = o.File, o.Run
		}
		_, err = tx.Exec(ctx, pgSourceSupersede, studyID, source, w.added, w.present, files, runs)
		return err
	})
	if err != nil {
		return 0, 0, fillErr, err
	}
	return w.added, w.present, nil, nil
}

// add writes one batch: the new trials, in hash order, and their place in
// the open block, in row-id order.
func (w *pgWriter) add(ctx context.Context, trials []trial.Trial) error {
	ps, dups := codec.Prepare(trials)
	if err := reserveIDs(ctx, w.tx, ps); err != nil {
		return err
	}
	codec.SortByID(ps)
	var fresh []*codec.Prepared
	for start := 0; start < len(ps); start += pgTrialBatch {
		chunk := ps[start:min(start+pgTrialBatch, len(ps))]
		ids, err := w.insertTrials(ctx, chunk)
		if err != nil {
			return err
		}
		w.s.batchDone()
		for i := range chunk {
			if _, ok := ids[chunk[i].ID]; ok {
				fresh = append(fresh, &chunk[i])
			}
		}
	}
	slices.SortFunc(fresh, func(a, b *codec.Prepared) int { return cmp.Compare(a.Row, b.Row) })
	for _, p := range fresh {
		if w.block == nil {
			w.block = columnar.NewBlock()
		}
		w.block.Add(p.Row, p.ID, p.Trial.Problem, p.Trial.Measurements, p.Dims)
		w.block.Sketch(p.Trial, p.RepeatKey)
		if w.block.N == columnar.BlockTrials {
			if err := w.flushBlock(ctx); err != nil {
				return err
			}
		}
	}
	for _, o := range shared.SkipOwners(trials) {
		if !w.seen[o] {
			w.seen[o] = true
			w.owners = append(w.owners, o)
		}
	}
	w.added += len(fresh)
	w.present += len(ps) - len(fresh) + dups
	return nil
}

// flushBlock writes the open block, if any.
func (w *pgWriter) flushBlock(ctx context.Context) error {
	if w.block == nil {
		return nil
	}
	b := w.block
	w.block = nil
	if err := columnar.WriteBlock(pgQueryTx{ctx, w.tx}, w.studyID, b); err != nil {
		return err
	}
	w.s.batchDone()
	return nil
}

// insertTrials inserts one batch and maps the hashes of the new trials to
// their row ids.
func (w *pgWriter) insertTrials(ctx context.Context, ps []codec.Prepared) (map[string]int64, error) {
	n := len(ps)
	str := func() []string { return make([]string, n) }
	i64 := func() []int64 { return make([]int64, n) }
	f64 := func() []float64 { return make([]float64, n) }
	hash, labels, params, problem, warnings := str(), str(), str(), str(), str()
	layouts, allocWhy, servingWhy, configPaths, contentIDs := str(), str(), str(), str(), str()
	alloc, serving, checksums, origins, refs := i64(), i64(), i64(), i64(), i64()
	configs := make([][]byte, n)
	line, idx, requests, succeeded, failed, rowIDs := i64(), i64(), i64(), i64(), i64(), i64()
	packed := make([][]byte, n)
	var wl [8][]float64
	for k := range wl {
		wl[k] = f64()
	}
	var envs [6][]string
	for k := range envs {
		envs[k] = str()
	}
	for i := range ps {
		p := &ps[i]
		t := p.Trial
		var err error
		if origins[i], err = w.origins.ID(t); err != nil {
			return nil, err
		}
		hash[i], refs[i] = p.ID, p.ParamRefs
		line[i], idx[i], rowIDs[i], packed[i] = int64(t.Source.Line), int64(t.Source.Index), p.Row, p.Packed
		configs[i] = []byte{} // NOT NULL
		if d := t.Deployment; d != nil {
			layouts[i], alloc[i], allocWhy[i], serving[i], servingWhy[i] = p.Layout, int64(d.AllocatedGPUs),
				d.AllocatedGPUsUnknown, int64(d.ServingGPUs), d.ServingGPUsUnknown
			configPaths[i], configs[i] = d.ConfigPath, []byte(d.Config)
		}
		labels[i], params[i], problem[i], warnings[i] = p.Labels, p.Params, t.Problem, p.Warnings
		contentIDs[i], checksums[i] = p.ContentID, p.Checksum
		w := &t.Workload
		for k, v := range [8]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
			w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
			wl[k][i] = v
		}
		requests[i], succeeded[i], failed[i] = w.Requests, t.Succeeded, t.Failed
		for k, v := range codec.Env(t) {
			envs[k][i] = v
		}
	}
	rows, err := w.tx.Query(ctx, pgInsertTrials, w.studyID, hash, origins, line, idx, labels, params, refs,
		wl[0], wl[1], wl[2], wl[3], wl[4], wl[5], wl[6], wl[7], requests, succeeded, failed, problem, warnings,
		envs[0], envs[1], envs[2], envs[3], envs[4], envs[5], rowIDs, packed,
		layouts, alloc, allocWhy, serving, servingWhy, configPaths, configs, contentIDs, checksums)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := make(map[string]int64, n)
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		ids[h] = id
	}
	return ids, rows.Err()
}

func (s *pgStore) batchDone() {
	if s.afterBatch != nil {
		s.afterBatch()
	}
}
