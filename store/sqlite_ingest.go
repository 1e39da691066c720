package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	sqlitedriver "github.com/ncruces/go-sqlite3/driver"

	"github.com/pareto-llm/pareto/trial"
)

// Rows per multi-row INSERT statement of the SQLite store. Each statement
// is prepared once per transaction and rebound for every batch.
const trialBatch = 50

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
// otherwise, even when ctx is done.
func inTx(c *sqlite3.Conn, begin string, fn func() error) (err error) {
	if err := c.Exec(begin); err != nil {
		return err
	}
	defer func() {
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
	return fn()
}

// ingestTx writes the new trials of ps in one write transaction. Write
// transactions are serialised by SQLite (BEGIN IMMEDIATE), so the hashes
// looked up at its start stay valid and row ids can be assigned here.
func (s *sqliteStore) ingestTx(ctx context.Context, study, source string, ps []prepared) (added, present int, err error) {
	err = s.raw(ctx, func(c *sqlite3.Conn) (err error) {
		// The row ids written are those just inserted, so the foreign
		// keys hold by construction: checking them would cost a lookup in
		// trials for every measurement. The pragma is a no-op inside a
		// transaction, hence its place here.
		if err := c.Exec("PRAGMA foreign_keys=OFF"); err != nil {
			return err
		}
		defer func() {
			ctx := c.SetInterrupt(context.Background())
			if ferr := c.Exec("PRAGMA foreign_keys=ON"); ferr != nil {
				err = errors.Join(err, ferr, driver.ErrBadConn)
			}
			c.SetInterrupt(ctx)
		}()
		return inTx(c, "BEGIN IMMEDIATE", func() error {
			w := &sqliteWriter{c: c, s: s, now: sqliteTime(time.Now())}
			defer w.close()
			studyID, err := w.studyID(study)
			if err != nil {
				return err
			}
			fresh, err := w.fresh(studyID, ps)
			if err != nil {
				return err
			}
			next, err := w.queryInt(`SELECT COALESCE(MAX(id), 0) + 1 FROM trials`)
			if err != nil {
				return err
			}
			if err := w.insertTrials(studyID, fresh, next); err != nil {
				return err
			}
			if err := w.insertBlocks(studyID, fresh, next); err != nil {
				return err
			}
			added, present = len(fresh), len(ps)-len(fresh)
			return w.exec(`INSERT INTO sources (study_id, path, added, present, ingested_at) VALUES (?, ?, ?, ?, ?)`,
				studyID, source, int64(added), int64(present), w.now)
		})
	})
	return added, present, err
}

// sqliteWriter holds the statements of one ingest transaction.
type sqliteWriter struct {
	c     *sqlite3.Conn
	s     *sqliteStore
	now   string
	stmts []*sqlite3.Stmt
}

func (w *sqliteWriter) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

func (w *sqliteWriter) prepare(query string) (*sqlite3.Stmt, error) {
	st, _, err := w.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	w.stmts = append(w.stmts, st)
	return st, nil
}

// exec runs a one-off statement with int64, string and []byte arguments.
func (w *sqliteWriter) exec(query string, args ...any) error {
	st, err := w.prepare(query)
	if err != nil {
		return err
	}
	if err := bindArgs(st, args); err != nil {
		return err
	}
	return st.Exec()
}

// queryInt returns the first column of the first row of a query.
func (w *sqliteWriter) queryInt(query string, args ...any) (int64, error) {
	st, err := w.prepare(query)
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

// studyID returns the study's row id, creating the study.
func (w *sqliteWriter) studyID(study string) (int64, error) {
	if study == "" {
		return 0, errors.New("empty study name")
	}
	if err := w.exec(`INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, study, w.now); err != nil {
		return 0, err
	}
	return w.queryInt(`SELECT id FROM studies WHERE name = ?`, study)
}

// fresh returns the trials of ps whose hash is not yet in the study: the
// trials of the study under the same hash key are compared in full.
func (w *sqliteWriter) fresh(studyID int64, ps []prepared) ([]prepared, error) {
	st, err := w.prepare(`SELECT hash FROM trials WHERE study_id = ? AND hkey = ?`)
	if err != nil {
		return nil, err
	}
	if err := st.BindInt64(1, studyID); err != nil {
		return nil, err
	}
	out := ps[:0:0]
	for i := range ps {
		found, err := w.stored(st, ps[i].id)
		if err != nil {
			return nil, err
		}
		if found {
			if out == nil {
				out = append(make([]prepared, 0, len(ps)), ps[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, ps[i])
		}
	}
	if out == nil {
		return ps, nil
	}
	return out, nil
}

// stored reports whether st, the lookup by hash key, finds id.
func (w *sqliteWriter) stored(st *sqlite3.Stmt, id string) (bool, error) {
	if err := st.BindInt64(2, hashKey(id)); err != nil {
		return false, err
	}
	found := false
	for !found && st.Step() {
		found = string(st.ColumnRawText(0)) == id
	}
	return found, st.Reset()
}

// batchStmt prepares "INSERT INTO table (cols) VALUES" for rows rows.
func (w *sqliteWriter) batchStmt(table string, cols []string, rows int) (*sqlite3.Stmt, error) {
	return w.prepare("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + valuesList(rows, len(cols), false))
}

// stmt returns the statement inserting rows rows into table, reusing
// *full for batches of batch rows. OR FAIL keeps the rows a failing
// statement wrote before the failure, which spares SQLite a statement
// journal; the failure rolls the whole transaction back anyway.
func (w *sqliteWriter) stmt(full **sqlite3.Stmt, table string, cols []string, rows, batch int) (*sqlite3.Stmt, error) {
	if rows == batch && *full != nil {
		return *full, nil
	}
	st, err := w.prepare("INSERT OR FAIL INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + valuesList(rows, len(cols), false))
	if err == nil && rows == batch {
		*full = st
	}
	return st, err
}

// insertTrials writes ps with row ids first, first+1, ...
func (w *sqliteWriter) insertTrials(studyID int64, ps []prepared, first int64) error {
	cols := append([]string{"id"}, sqliteTrialColumns...)
	var full *sqlite3.Stmt
	for start := 0; start < len(ps); start += trialBatch {
		chunk := ps[start:min(start+trialBatch, len(ps))]
		st, err := w.stmt(&full, "trials", cols, len(chunk), trialBatch)
		if err != nil {
			return err
		}
		b := binder{st: st}
		for i := range chunk {
			b.int(first + int64(start+i))
			bindTrial(&b, studyID, &chunk[i], w.now)
		}
		if err := b.exec(); err != nil {
			return err
		}
		w.s.batchDone()
	}
	return nil
}

// insertBlocks writes the blocks of ps, whose trials have row ids first,
// first+1, ...
func (w *sqliteWriter) insertBlocks(studyID int64, ps []prepared, first int64) error {
	for start := 0; start < len(ps); start += blockTrials {
		b := newBlock()
		for i, p := range ps[start:min(start+blockTrials, len(ps))] {
			b.add(first+int64(start+i), p.id, p.t.Problem, p.t.Measurements, p.dims)
		}
		if err := writeBlock(w, studyID, b); err != nil {
			return err
		}
		w.s.batchDone()
	}
	return nil
}

func (s *sqliteStore) batchDone() {
	if s.afterBatch != nil {
		s.afterBatch()
	}
}
