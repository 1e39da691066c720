package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	sqlitedriver "github.com/ncruces/go-sqlite3/driver"

	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// trialBatch is the number of trials written between calls of the
// store's afterBatch hook (tests).
const trialBatch = 50

// Ingest stores one source's trials in one transaction.
func (s *sqliteStore) Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error) {
	return s.IngestBatches(ctx, study, source, func(add func([]trial.Trial) error) error { return add(trials) })
}

// IngestBatches stores one source's trials, handed over batch by batch by
// fill, in one transaction.
func (s *sqliteStore) IngestBatches(ctx context.Context, study, source string, fill func(add func([]trial.Trial) error) error) (added, present int, err error) {
	if err := s.writable(); err != nil {
		return 0, 0, err
	}
	var fillErr error // fill's own error, returned as it is
	filled := false   // fill was called: the transaction cannot be retried
	err = retryBusy(ctx, func() error {
		added, present, err = s.ingestTx(ctx, study, source, func(add func([]trial.Trial) error) error {
			filled = true
			var addErr error
			err := fill(func(ts []trial.Trial) error {
				if addErr == nil {
					addErr = add(ts)
				}
				return addErr
			})
			if err != nil && addErr == nil {
				fillErr = err
			}
			return err
		})
		if err != nil && filled {
			return final{err} // its batches are gone: not retried
		}
		return err
	})
	if f, ok := err.(final); ok {
		err = f.err
	}
	switch {
	case fillErr != nil:
		return 0, 0, fillErr
	case err != nil:
		return 0, 0, sqliteError(s.path, "ingesting "+source, err)
	}
	return added, present, nil
}

// final hides an error from retryBusy: an ingest whose fill began cannot
// be retried.
type final struct{ err error }

func (f final) Error() string { return f.err.Error() }

// raw runs fn on a connection of the pool with the low-level API; ctx
// interrupts the statements fn runs.
func (s *sqliteStore) raw(ctx context.Context, fn func(c *sqlite3.Conn) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c := dc.(sqlitedriver.Conn).Raw()
		old := c.SetInterrupt(ctx)
		defer c.SetInterrupt(old)
		return fn(c)
	})
}

// inTx runs fn in a transaction begun with begin ("BEGIN IMMEDIATE" for
// writes, "BEGIN" for reads), committing if fn succeeds and rolling back
// otherwise, even when ctx is done, and when fn panics (the panic goes on:
// database/sql then discards the connection).
func inTx(c *sqlite3.Conn, begin string, fn func() error) (err error) {
	if err := c.Exec(begin); err != nil {
		return err
	}
	panicked := true
	defer func() {
		if panicked {
			c.SetInterrupt(context.Background())
			c.Exec("ROLLBACK")
			return
		}
		if err == nil {
			if err = c.Exec("COMMIT"); err == nil {
				return
			}
		}
		ctx := c.SetInterrupt(context.Background())
		if rerr := c.Exec("ROLLBACK"); rerr != nil && !c.GetAutocommit() {
			err = errors.Join(err, driver.ErrBadConn) // never pool a connection left in a transaction
		}
		c.SetInterrupt(ctx)
	}()
	err = fn()
	panicked = false
	return err
}

// ingestTx writes the new trials of the batches fill adds in one write
// transaction. Write transactions are serialised by SQLite (BEGIN
// IMMEDIATE), so the hashes looked up in it stay valid and row ids can be
// assigned here. The skips that the trials supersede are deleted.
func (s *sqliteStore) ingestTx(ctx context.Context, study, source string, fill func(add func([]trial.Trial) error) error) (added, present int, err error) {
	err = s.raw(ctx, func(c *sqlite3.Conn) (err error) {
		// The row ids written are those just inserted, so the foreign
		// keys hold by construction: checking them would cost a lookup in
		// trials for every measurement. Temporary data (the sort that
		// builds trials_key, restoreKey) goes to files, not to the
		// connection's memory, which SQLite compiled to WebAssembly caps
		// at 256 MiB: a sort held in memory grows with the rows. Neither
		// pragma can change inside a transaction, hence their place here.
		if err := c.Exec("PRAGMA foreign_keys=OFF; PRAGMA temp_store=FILE"); err != nil {
			return err
		}
		defer func() {
			ctx := c.SetInterrupt(context.Background())
			if ferr := c.Exec("PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY"); ferr != nil {
				err = errors.Join(err, ferr, driver.ErrBadConn)
			}
			c.SetInterrupt(ctx)
		}()
		return inTx(c, "BEGIN IMMEDIATE", func() error {
			w := &sqliteWriter{c: c, s: s, now: codec.SQLiteTime(time.Now())}
			defer w.close()
			w.origins.Insert = func(o shared.Origin) (int64, error) {
				return w.QueryInt(`INSERT INTO origins (path, file_key, format, format_version, session, ingested_at)
					VALUES (?, ?, ?, ?, ?, ?) RETURNING origin`, o.Path, o.Key, o.Format, o.Version, o.Session, w.now)
			}
			var err error
			if w.studyID, w.skips, err = w.studyByName(study); err != nil {
				return err
			}
			if w.next, err = w.QueryInt(`SELECT COALESCE(MAX(id), 0) + 1 FROM trials`); err != nil {
				return err
			}
			none, err := w.QueryInt(`SELECT NOT EXISTS (SELECT 1 FROM trials WHERE study_id = ?)`, w.studyID)
			if err != nil {
				return err
			}
			w.empty = none == 1
			if w.next == 1 { // no trial in the store: trials_key is built at the end
				if err := w.Exec(`DROP INDEX trials_key`); err != nil {
					return err
				}
				w.keyDropped = true
			}
			if err := fill(w.add); err != nil {
				return err
			}
			if err := w.flushBlock(); err != nil {
				return err
			}
			if err := w.restoreKey(); err != nil {
				return err
			}
			added, present = w.added, w.present
			return w.Exec(`INSERT INTO sources (study_id, path, added, present, ingested_at) VALUES (?, ?, ?, ?, ?)`,
				w.studyID, source, int64(w.added), int64(w.present), w.now)
		})
	})
	return added, present, err
}

// add writes one batch of a source's trials: the new ones get the next
// row ids and join the open block, written when full (flushBlock).
func (w *sqliteWriter) add(trials []trial.Trial) error {
	ps, dups := codec.Prepare(trials)
	lookup := w.lookup(ps)
	if len(lookup) > 0 {
		if err := w.restoreKey(); err != nil {
			return err
		}
	}
	fresh, err := w.fresh(w.studyID, ps, lookup)
	if err != nil {
		return err
	}
	w.noteAdded(fresh)
	if err := w.insertTrials(w.studyID, fresh, w.next); err != nil {
		return err
	}
	for i := range fresh {
		if w.block == nil {
			w.block = columnar.NewBlock()
		}
		p := &fresh[i]
		w.block.Add(w.next+int64(i), p.ID, p.Trial.Problem, p.Trial.Measurements, p.Dims)
		w.block.Sketch(p.Trial, p.RepeatKey)
		if w.block.N == columnar.BlockTrials {
			if err := w.flushBlock(); err != nil {
				return err
			}
		}
	}
	if w.skips {
		if err := shared.Supersede(w, w.studyID, shared.SkipOwners(trials)); err != nil {
			return err
		}
	}
	w.next += int64(len(fresh))
	w.added += len(fresh)
	w.present += len(ps) - len(fresh) + dups
	return nil
}

// trialsKey is the index of the trials' hash keys, as the schema creates
// it (0001_init.sql).
const trialsKey = `CREATE INDEX trials_key ON trials (study_id, hkey)`

// restoreKey creates trials_key again if the transaction dropped it. An
// ingest into a store without trials drops it when it begins and creates
// it once the trials are written (or before a trial is looked up by its
// hash key), in the same transaction: building an index from a million
// rows sorted once costs less than a million inserts at random places.
//
// SQLite sorts in memory up to the page cache's size, then in files: the
// cache is shrunk to sortKiB while the index is built, so that the sort
// and the cache together stay within what the cache alone takes (the dirty
// pages it no longer holds go to the WAL, uncommitted).
func (w *sqliteWriter) restoreKey() error {
	if !w.keyDropped {
		return nil
	}
	w.keyDropped = false
	if err := w.c.Exec(`PRAGMA cache_size=-` + codec.Itoa(sortKiB)); err != nil {
		return err
	}
	return errors.Join(w.Exec(trialsKey), w.c.Exec(`PRAGMA cache_size=-`+codec.Itoa(cacheKiB)))
}

// sortKiB is the page cache, and so the memory of the sort, while
// restoreKey builds trials_key.
const sortKiB = 8 << 10

// lookup returns the IDs of ps that may be in the study already: all of
// them, unless the study had no trial when the transaction began: then
// none in the first batch (Prepare dropped its duplicates), and in a later
// batch those the filter of the IDs added says may be.
func (w *sqliteWriter) lookup(ps []codec.Prepared) []string {
	var ids []string
	for i := range ps {
		if !w.empty || (w.filter != nil && w.filter.has(ps[i].ID)) {
			ids = append(ids, ps[i].ID)
		}
	}
	return ids
}

// noteAdded remembers the IDs added to a study that had no trial (lookup):
// those of the first batch as they are, and from the second batch on in a
// filter of fixed size, the first batch's IDs then added to it.
func (w *sqliteWriter) noteAdded(fresh []codec.Prepared) {
	if !w.empty {
		return
	}
	w.batches++
	if w.batches == 1 {
		for i := range fresh {
			w.firstIDs = append(w.firstIDs, fresh[i].ID)
		}
		return
	}
	if w.filter == nil {
		w.filter = newIDFilter()
		for _, id := range w.firstIDs {
			w.filter.add(id)
		}
		w.firstIDs = nil
	}
	for i := range fresh {
		w.filter.add(fresh[i].ID)
	}
}

// flushBlock writes the open block, if any.
func (w *sqliteWriter) flushBlock() error {
	if w.block == nil {
		return nil
	}
	b := w.block
	w.block = nil
	if err := columnar.WriteBlock(w, w.studyID, b); err != nil {
		return err
	}
	w.s.batchDone()
	return nil
}

// sqliteWriter holds the statements of one ingest transaction.
type sqliteWriter struct {
	c     *sqlite3.Conn
	s     *sqliteStore
	now   string
	stmts []*sqlite3.Stmt
	// The source being written: its study, whether the study has skips,
	// the next row id, what was added and found present so far, and the
	// block the trials added join (nil: none open).
	studyID        int64
	skips          bool
	next           int64
	added, present int
	block          *columnar.Block
	// empty: the study had no trial when the transaction began, so a
	// trial can only be present if an earlier batch added it: the IDs
	// added (firstIDs, then filter) spare looking most of them up.
	empty    bool
	batches  int
	firstIDs []string
	filter   *idFilter
	// keyDropped: the transaction dropped trials_key (restoreKey).
	keyDropped bool
	// origins gives the trials their origin ids.
	origins shared.Origins
	// oneOff holds the statements of exec and queryInt by text: a block
	// inserts one block_values row per (metric, dims), hundreds for a
	// file of AIPerf results, and preparing each was most of the time.
	oneOff map[string]*sqlite3.Stmt
	// freshStmts holds the statements of fresh by their number of keys.
	freshStmts map[int]*sqlite3.Stmt
	// insert binds insertTrials' statement (st nil until its first use).
	insert binder
}

// cached returns the statement for query, prepared once per transaction
// and reset for each use.
func (w *sqliteWriter) cached(query string) (*sqlite3.Stmt, error) {
	if st, ok := w.oneOff[query]; ok {
		st.Reset() // its error is the previous use's, already reported
		return st, nil
	}
	st, err := w.prepare(query)
	if err != nil {
		return nil, err
	}
	if w.oneOff == nil {
		w.oneOff = map[string]*sqlite3.Stmt{}
	}
	w.oneOff[query] = st
	return st, nil
}

// sized returns the statement of rows rows that make builds, prepared
// once per transaction, and reset for each use:
// the statements of a source read in many batches are prepared once, not
// once per batch (each was held until the transaction ended: thousands of
// them ran SQLite out of memory).
func (w *sqliteWriter) sized(stmts *map[int]*sqlite3.Stmt, rows int, make func(int) string) (*sqlite3.Stmt, error) {
	if st, ok := (*stmts)[rows]; ok {
		st.Reset() // its error is the previous use's, already reported
		return st, nil
	}
	st, err := w.prepare(make(rows))
	if err != nil {
		return nil, err
	}
	if *stmts == nil {
		*stmts = map[int]*sqlite3.Stmt{}
	}
	(*stmts)[rows] = st
	return st, nil
}

func (w *sqliteWriter) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

// Numbered implements BlockTx: SQLite statements take '?' parameters.
func (w *sqliteWriter) Numbered() bool { return false }

func (w *sqliteWriter) prepare(query string) (*sqlite3.Stmt, error) {
	st, _, err := w.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	w.stmts = append(w.stmts, st)
	return st, nil
}

// exec runs a one-off statement with int64, string and []byte arguments.
func (w *sqliteWriter) Exec(query string, args ...any) error {
	st, err := w.cached(query)
	if err != nil {
		return err
	}
	if err := bindArgs(st, args); err != nil {
		return err
	}
	return st.Exec()
}

// queryInt returns the first column of the first row of a query.
func (w *sqliteWriter) QueryInt(query string, args ...any) (int64, error) {
	st, err := w.cached(query)
	if err != nil {
		return 0, err
	}
	if err := bindArgs(st, args); err != nil {
		return 0, err
	}
	if !st.Step() {
		if err := st.Err(); err != nil {
			return 0, err
		}
		return 0, errors.New("no row")
	}
	return st.ColumnInt64(0), st.Reset()
}

// bindArgs binds int64, string and []byte arguments in order.
func bindArgs(st *sqlite3.Stmt, args []any) error {
	for i, a := range args {
		var err error
		switch a := a.(type) {
		case int64:
			err = st.BindInt64(i+1, a)
		case string:
			err = st.BindText(i+1, a)
		case []byte:
			err = st.BindBlob(i+1, a)
		default:
			err = fmt.Errorf("cannot bind %T", a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// studyID returns the study's row id, creating the study, and whether the
// study has skips (most have none: the ingest then spares the statement
// that deletes the skips its trials supersede).
func (w *sqliteWriter) studyByName(study string) (id int64, skips bool, err error) {
	if study == "" {
		return 0, false, errors.New("empty study name")
	}
	if err := w.Exec(`INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, study, w.now); err != nil {
		return 0, false, err
	}
	// 2*id + 1 when the study has skips: one statement, one integer.
	n, err := w.QueryInt(`SELECT 2 * id + EXISTS (SELECT 1 FROM skips WHERE study_id = studies.id) FROM studies WHERE name = ?`, study)
	return n >> 1, n&1 == 1, err
}

// freshBatch is the number of hash keys fresh looks up per statement.
const freshBatch = 250

// freshQuery looks up the hashes of keys hash keys.
func freshQuery(keys int) string {
	return `SELECT hash FROM trials WHERE study_id = ? AND hkey IN (?` + strings.Repeat(",?", keys-1) + `)`
}

// fresh returns the trials of ps whose hash is not yet in the study, of
// which those with IDs in lookup may be: the trials of the study under
// their hash keys are read, a batch of keys per statement, and their
// hashes compared in full.
func (w *sqliteWriter) fresh(studyID int64, ps []codec.Prepared, lookup []string) ([]codec.Prepared, error) {
	stored := map[string]bool{}
	for start := 0; start < len(lookup); start += freshBatch {
		chunk := lookup[start:min(start+freshBatch, len(lookup))]
		st, err := w.sized(&w.freshStmts, len(chunk), freshQuery)
		if err != nil {
			return nil, err
		}
		b := binder{st: st}
		b.int(studyID)
		for _, id := range chunk {
			b.int(codec.HashKey(id))
		}
		if b.err != nil {
			return nil, b.err
		}
		for st.Step() {
			stored[string(st.ColumnRawText(0))] = true
		}
		if err := st.Reset(); err != nil {
			return nil, err
		}
	}
	if len(stored) == 0 {
		return ps, nil
	}
	out := make([]codec.Prepared, 0, len(ps))
	for _, p := range ps {
		if !stored[p.ID] {
			out = append(out, p)
		}
	}
	return out, nil
}

// insertTrials writes ps with row ids first, first+1, ... one row per
// statement: a statement of several rows (an INSERT of a multi-row
// VALUES) opens a statement journal, into which SQLite copies every page
// of trials_key it changes (the random places of the hash keys: a tenth of
// the ingest). OR FAIL spares the statement journal of a single row too;
// a failure rolls the whole transaction back anyway.
func (w *sqliteWriter) insertTrials(studyID int64, ps []codec.Prepared, first int64) error {
	b := &w.insert
	if b.st == nil {
		st, err := w.prepare(trialInsert)
		if err != nil {
			return err
		}
		if err := st.BindInt64(1, studyID); err != nil {
			return err
		}
		*b = binder{st: st, base: 1, next: 1, memo: []bound{}}
	}
	for i := range ps {
		origin, err := w.origins.ID(ps[i].Trial)
		if err != nil {
			return err
		}
		bindTrial(b, first+int64(i), origin, &ps[i])
		if err := b.exec(); err != nil {
			return err
		}
		if (i+1)%trialBatch == 0 || i == len(ps)-1 {
			w.s.batchDone()
		}
	}
	return nil
}

func (s *sqliteStore) batchDone() {
	if s.afterBatch != nil {
		s.afterBatch()
	}
}
