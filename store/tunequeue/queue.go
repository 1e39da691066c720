// Package tunequeue is the tuning queue of a store: the state of pareto
// tune, ask and tell beside a study (Queue), and the SQL that keeps it,
// shared by the SQLite and PostgreSQL stores, which implement Queue by
// embedding OnDialect over their Dialect (their transactions). Package
// tune takes a store through this interface.
//
// A tune study keeps tune_studies (the sampler's state, the driver's
// options, the budget in runs, the session), tune_trials (one row per
// configuration, with the gate's verdict) and tune_runs (one row per
// measurement: queued, running under a worker's lease, complete or
// failed, with its attempts, executor handle and folder). Every change is
// one transaction: UpdateTune holds the tune study's lock (SQLite: BEGIN
// IMMEDIATE; PostgreSQL: SELECT … FOR UPDATE), ClaimRun takes the oldest
// queued run (PostgreSQL: FOR UPDATE SKIP LOCKED) after queueing again the
// runs whose lease expired while they were claimed fewer than the study's
// max_attempts times (DefaultMaxAttempts): the loss of a run's last
// attempt fails it ("lost N times"). Leases are Unix milliseconds of the
// writer's clock, so the workers of a study need clocks that agree to
// well within a lease.
package tunequeue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Queue is the queue and state of tuning studies (pareto tune, ask and
// tell), kept in the store so that a killed driver resumes where it
// stopped and several workers, on one host (SQLite) or many
// (PostgreSQL), share one study. Both stores Open returns implement it
// (every store.Store is one); a read-only store answers TuneStatus only.
//
// A tune study is attached to the study of the same name, where the
// results of its runs are recorded as trials. It holds the search
// sampler's state (opaque JSON), the driver's options (opaque JSON), a
// budget counted in runs, a session number and, per configuration, a
// Trial; each measurement of a configuration is a Run, queued,
// running (claimed by a worker under a lease), complete or failed.
//
// Claiming is atomic (SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT … FOR
// UPDATE SKIP LOCKED), so no run is given to two workers. A worker
// renews its lease while it runs the job; a run whose lease expired (or
// whose worker is known dead, ReclaimRuns) is queued again while it has
// been claimed fewer than MaxAttempts times, and is failed otherwise
// ("lost N times"), so that it is neither lost nor retried forever. FinishRun only accepts
// the worker that holds the run: a worker whose run was taken from it
// cannot complete it a second time.
type Queue interface {
	// OpenTune returns the tune study, creating it (and the study) from
	// setup if it does not exist; created tells which. An existing study's
	// setup is kept (the caller compares it).
	OpenTune(ctx context.Context, study string, setup Setup) (t Study, created bool, err error)
	// UpdateTune runs fn in one write transaction that holds the tune
	// study's lock: what fn reads stays true until it returns, and what it
	// writes is committed together, or not at all when it returns an
	// error. A study without a tune study is ErrNoTune.
	UpdateTune(ctx context.Context, study string, fn func(tx *Tx) error) error
	// ClaimRun queues again (or fails) the runs whose lease expired, then
	// claims the oldest queued run for worker with a lease of lease (no
	// expiry when lease is 0: an external driver's run, see pareto ask).
	// ok is false when no run is queued.
	ClaimRun(ctx context.Context, study, worker string, lease time.Duration) (r Run, ok bool, err error)
	// RenewRun extends the lease of a run worker holds; ErrLeaseLost when
	// it no longer holds it.
	RenewRun(ctx context.Context, study string, id int64, worker string, lease time.Duration) error
	// TuneStatus counts the study's runs by state, with the budget left
	// and the running runs.
	TuneStatus(ctx context.Context, study string) (Status, error)
}

// ErrNoTune is returned for a study that has no tuning state.
var ErrNoTune = errors.New("no tuning state in this study (pareto tune or ask creates it)")

// ErrLeaseLost is returned when a worker changes a run it no longer holds:
// its lease expired and the run was queued again, or another worker has
// it, or it has ended.
var ErrLeaseLost = errors.New("the run is no longer held by this worker")

// DefaultMaxAttempts is how many times a run is claimed before a lost
// lease fails it: the run is queued again after its first and second
// losses, and its third loss fails it.
const DefaultMaxAttempts = 3

// Setup is what creates a tune study.
type Setup struct {
	// Space identifies the search space (search.Space.Fingerprint).
	Space string
	// Options and Sampler are the driver's options and the sampler's
	// state, as JSON.
	Options, Sampler []byte
	// Budget is the number of runs the study may record in all.
	Budget int
	// MaxAttempts is how many times a run may be claimed
	// (DefaultMaxAttempts when zero).
	MaxAttempts int
}

// Study is a tune study's state.
type Study struct {
	Study   string
	Space   string
	Options []byte
	Sampler []byte
	Budget  int
	// Session numbers the driver sessions (each pareto tune that starts
	// is a new one); runs carry the session they were queued in.
	Session     int
	MaxAttempts int
	// Runs is the number of runs recorded, in any state: the budget
	// spent or committed.
	Runs int
}

// Trial is one configuration of a tune study.
type Trial struct {
	// Number is the sampler's trial number, BaselineTrial for the
	// baseline.
	Number int
	// Role is "baseline" or "candidate".
	Role string
	// Params is the configuration, as JSON.
	Params []byte
	// State is where the sampler stands with it: running, complete or
	// failed.
	State string
	// Decision and Verdict are the gate's latest answer ("" and nil
	// before any).
	Decision string
	Verdict  []byte
}

// BaselineTrial is the number of the baseline's Trial.
const BaselineTrial = -1

// RunState is where a run stands.
type RunState string

// The states of a run.
const (
	RunQueued   RunState = "queued"
	RunRunning  RunState = "running"
	RunComplete RunState = "complete"
	RunFailed   RunState = "failed"
)

// Run is one measurement of a configuration: one job.
type Run struct {
	ID     int64
	Number int // its Trial
	// Session is the session that queued it.
	Session int
	State   RunState
	// Worker holds a running run; Handle is its executor's handle and
	// Dir its folder, once started. A run queued again after its lease
	// was lost keeps the handle and folder of the lost attempt (its job
	// may still be running: see executor.Follower).
	Worker, Handle, Dir string
	// LeaseUntil is when a running run's lease expires (zero: never).
	LeaseUntil time.Time
	// Attempts counts the claims of the run.
	Attempts int
	// Reason says why it failed or was queued again.
	Reason string
	// Result is what the driver recorded with it (JSON).
	Result []byte
}

// Status is a tune study's runs counted by state.
type Status struct {
	Study                               string
	Queued, Running, Complete, Failed   int
	Budget, BudgetLeft, Session, Trials int
	// RunningRuns lists the running runs with their workers; FailedRuns
	// the failed runs with their reasons.
	RunningRuns, FailedRuns []Run
}

// Tx is one transaction of UpdateTune.
type Tx struct {
	tx     SQL
	tuneID int64
	now    time.Time
	stamp  any
	study  Study
}

// Study returns the tune study as the transaction started with it (with
// the changes the transaction made to it).
func (t *Tx) Study() Study { return t.study }

// SetSampler records the sampler's state.
func (t *Tx) SetSampler(state []byte) error {
	t.study.Sampler = state
	return t.tx.Exec(`UPDATE tune_studies SET sampler = ?, updated_at = ? WHERE id = ?`, string(state), t.stamp, t.tuneID)
}

// SetSession records the session number.
func (t *Tx) SetSession(n int) error {
	t.study.Session = n
	return t.tx.Exec(`UPDATE tune_studies SET session = ?, updated_at = ? WHERE id = ?`, int64(n), t.stamp, t.tuneID)
}

// SetMaxAttempts records how many times a run may be claimed before a
// lost lease fails it (at least 1).
func (t *Tx) SetMaxAttempts(n int) error {
	if n < 1 {
		return fmt.Errorf("max attempts %d: want at least 1", n)
	}
	t.study.MaxAttempts = n
	return t.tx.Exec(`UPDATE tune_studies SET max_attempts = ?, updated_at = ? WHERE id = ?`, int64(n), t.stamp, t.tuneID)
}

// SetBudget records the budget.
func (t *Tx) SetBudget(n int) error {
	t.study.Budget = n
	return t.tx.Exec(`UPDATE tune_studies SET budget = ?, updated_at = ? WHERE id = ?`, int64(n), t.stamp, t.tuneID)
}

// Trials returns the study's configurations by number.
func (t *Tx) Trials() ([]Trial, error) {
	rows, err := t.tx.Query(`SELECT number, role, params, state, decision, verdict FROM tune_trials WHERE tune_id = ? ORDER BY number`, t.tuneID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Trial
	for rows.Next() {
		var tr Trial
		var num int64
		var params, verdict string
		if err := rows.Scan(&num, &tr.Role, &params, &tr.State, &tr.Decision, &verdict); err != nil {
			return nil, err
		}
		tr.Number, tr.Params = int(num), []byte(params)
		if verdict != "" {
			tr.Verdict = []byte(verdict)
		}
		out = append(out, tr)
	}
	return out, rows.Err()
}

// PutTrial records tr, replacing the trial of the same number.
func (t *Tx) PutTrial(tr Trial) error {
	return t.tx.Exec(`INSERT INTO tune_trials (tune_id, number, role, params, state, decision, verdict, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tune_id, number) DO UPDATE SET role = excluded.role, params = excluded.params, state = excluded.state,
			decision = excluded.decision, verdict = excluded.verdict, updated_at = excluded.updated_at`,
		t.tuneID, int64(tr.Number), tr.Role, string(tr.Params), tr.State, tr.Decision, string(tr.Verdict), t.stamp, t.stamp)
}

// AddRun queues a run of trial number in the current session and returns
// its ID; it counts against the budget.
func (t *Tx) AddRun(number int) (int64, error) {
	id, err := t.tx.QueryInt(`INSERT INTO tune_runs (tune_id, number, session, state, worker, handle, dir, lease_until, attempts,
		reason, result, created_at, updated_at) VALUES (?, ?, ?, ?, '', '', '', 0, 0, '', '', ?, ?) RETURNING id`,
		t.tuneID, int64(number), int64(t.study.Session), string(RunQueued), t.stamp, t.stamp)
	if err == nil {
		t.study.Runs++
	}
	return id, err
}

// Runs returns the study's runs in ID order.
func (t *Tx) Runs() ([]Run, error) { return tuneRuns(t.tx, t.tuneID, "") }

// DropQueued deletes the queued runs of trial number (they give their
// budget back) and returns how many it deleted.
func (t *Tx) DropQueued(number int) (int, error) {
	n, err := t.tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE tune_id = ? AND number = ? AND state = 'queued'`, t.tuneID, int64(number))
	if err != nil || n == 0 {
		return 0, err
	}
	if err := t.tx.Exec(`DELETE FROM tune_runs WHERE tune_id = ? AND number = ? AND state = 'queued'`, t.tuneID, int64(number)); err != nil {
		return 0, err
	}
	t.study.Runs -= int(n)
	return int(n), nil
}

// DropRuns deletes the runs of ids that are queued and were never
// claimed (they give their budget back) and returns how many it deleted;
// the others are left as they are.
func (t *Tx) DropRuns(ids []int64) (int, error) {
	n := 0
	for _, id := range ids {
		k, err := t.tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE id = ? AND tune_id = ? AND state = 'queued' AND attempts = 0`, id, t.tuneID)
		if err != nil {
			return n, err
		}
		if k == 0 {
			continue
		}
		if err := t.tx.Exec(`DELETE FROM tune_runs WHERE id = ? AND tune_id = ?`, id, t.tuneID); err != nil {
			return n, err
		}
		n++
		t.study.Runs--
	}
	return n, nil
}

// StartRun records the executor's handle and folder of a run the worker
// holds.
func (t *Tx) StartRun(id int64, worker, handle, dir string) error {
	return t.held(id, worker, `UPDATE tune_runs SET handle = ?, dir = ?, updated_at = ? WHERE id = ? AND tune_id = ? AND state = 'running' AND worker = ?`,
		handle, dir, t.stamp, id, t.tuneID, worker)
}

// FinishRun ends a run the worker holds as complete or failed, with its
// reason and result; ErrLeaseLost when the worker does not hold it.
func (t *Tx) FinishRun(id int64, worker string, state RunState, reason string, result []byte) error {
	if state != RunComplete && state != RunFailed {
		return fmt.Errorf("finishing run %d: state %q is not final", id, state)
	}
	return t.held(id, worker, `UPDATE tune_runs SET state = ?, reason = ?, result = ?, lease_until = 0, updated_at = ?
		WHERE id = ? AND tune_id = ? AND state = 'running' AND worker = ?`,
		string(state), reason, string(result), t.stamp, id, t.tuneID, worker)
}

// ReviveRun completes a run that failed after its lease was lost
// MaxAttempts times (Run.Lost), with the result of the trials a lost attempt recorded
// before its worker died.
func (t *Tx) ReviveRun(id int64, result []byte) error {
	n, err := t.tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE id = ? AND tune_id = ? AND state = 'failed' AND reason LIKE 'lost %'`, id, t.tuneID)
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("run %d did not fail by being lost", id)
	}
	return t.tx.Exec(`UPDATE tune_runs SET state = 'complete', result = ?, reason = 'completed from the trials a lost attempt recorded', updated_at = ? WHERE id = ?`,
		string(result), t.stamp, id)
}

// Lost reports whether a failed run failed by losing its lease
// MaxAttempts times.
func (r Run) Lost() bool { return r.State == RunFailed && strings.HasPrefix(r.Reason, "lost ") }

// ReleaseRun queues again a run the worker holds, without counting its
// attempt (the worker was interrupted, the run did not fail).
func (t *Tx) ReleaseRun(id int64, worker, reason string) error {
	return t.held(id, worker, `UPDATE tune_runs SET state = 'queued', worker = '', handle = '', lease_until = 0,
		attempts = attempts - 1, reason = ?, updated_at = ? WHERE id = ? AND tune_id = ? AND state = 'running' AND worker = ?`,
		reason, t.stamp, id, t.tuneID, worker)
}

// ReclaimRuns treats the running runs whose worker dead reports dead as
// runs whose lease expired (queued again, or failed after MaxAttempts),
// and returns how many it changed.
func (t *Tx) ReclaimRuns(dead func(Run) bool) (int, error) {
	runs, err := tuneRuns(t.tx, t.tuneID, RunRunning)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range runs {
		if dead(r) {
			if err := lose(t.tx, t.stamp, r, t.study.MaxAttempts, "its worker "+r.Worker+" ended"); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// held runs an update that must change the one row of a run the worker
// holds.
func (t *Tx) held(id int64, worker, query string, args ...any) error {
	n, err := t.tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE id = ? AND tune_id = ? AND state = 'running' AND worker = ?`, id, t.tuneID, worker)
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("run %d: %w", id, ErrLeaseLost)
	}
	return t.tx.Exec(query, args...)
}

// lose queues a lost run again, or fails it after max attempts.
func lose(tx SQL, stamp any, r Run, max int, why string) error {
	// The conditions keep a claim made since r was read.
	const still = ` WHERE id = ? AND state = 'running' AND worker = ? AND attempts = ?`
	if r.Attempts >= max {
		return tx.Exec(`UPDATE tune_runs SET state = 'failed', lease_until = 0, reason = ?, updated_at = ?`+still,
			fmt.Sprintf("lost %d times (%s): not retried", r.Attempts, why), stamp, r.ID, r.Worker, int64(r.Attempts))
	}
	// The handle is kept: the job of an executor whose jobs outlive their
	// submitter (a Slurm job) is waited for by the next worker instead of
	// being started again.
	return tx.Exec(`UPDATE tune_runs SET state = 'queued', worker = '', lease_until = 0, reason = ?, updated_at = ?`+still,
		"queued again: "+why, stamp, r.ID, r.Worker, int64(r.Attempts))
}

const runColumns = `id, number, session, state, worker, handle, dir, lease_until, attempts, reason, result`

// tuneRuns reads the study's runs (in state, when not empty) in ID order.
func tuneRuns(tx SQL, tuneID int64, state RunState) ([]Run, error) {
	q, args := `SELECT `+runColumns+` FROM tune_runs WHERE tune_id = ?`, []any{tuneID}
	if state != "" {
		q, args = q+` AND state = ?`, append(args, string(state))
	}
	rows, err := tx.Query(q+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func scanRun(rows interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var num, session, lease, attempts int64
	var state, result string
	err := rows.Scan(&r.ID, &num, &session, &state, &r.Worker, &r.Handle, &r.Dir, &lease, &attempts, &r.Reason, &result)
	r.Number, r.Session, r.State, r.Attempts = int(num), int(session), RunState(state), int(attempts)
	if lease > 0 {
		r.LeaseUntil = time.UnixMilli(lease)
	}
	if result != "" {
		r.Result = []byte(result)
	}
	return r, err
}

// SQL is what the queue needs of a transaction of either dialect.
// Queries are written with '?' placeholders.
type SQL interface {
	Exec(query string, args ...any) error
	QueryInt(query string, args ...any) (int64, error)
	Query(query string, args ...any) (Rows, error)
}

// Rows iterates over the rows of a query.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Dialect is what the queue needs of a store.
type Dialect interface {
	// TuneTx runs fn in a write transaction; op says what for, in errors.
	TuneTx(ctx context.Context, op string, fn func(tx SQL) error) error
	// ReadTx runs fn in one read-only snapshot; op says what for, in
	// errors.
	ReadTx(ctx context.Context, op string, fn func(tx SQL) error) error
	// Stamp converts a time for the created_at and updated_at columns.
	Stamp(time.Time) any
	// ClaimLock is appended to the query that picks a queued run.
	ClaimLock() string
	// LockStudy is appended to the query that reads the tune study in
	// UpdateTune.
	LockStudy() string
}

// loadTune reads the tune study of study (ErrNoTune when it has none).
func loadTune(tx SQL, study, lock string) (int64, Study, error) {
	t := Study{Study: study}
	rows, err := tx.Query(`SELECT t.id, t.space, t.options, t.sampler, t.budget, t.session, t.max_attempts
		FROM tune_studies t JOIN studies s ON s.id = t.study_id WHERE s.name = ?`+lock, study)
	if err != nil {
		return 0, t, err
	}
	var id, budget, session, max int64
	var opts, sampler string
	found := rows.Next()
	if found {
		err = rows.Scan(&id, &t.Space, &opts, &sampler, &budget, &session, &max)
	}
	if err == nil {
		err = rows.Err()
	}
	rows.Close()
	if err != nil {
		return 0, t, err
	}
	if !found {
		return 0, t, fmt.Errorf("study %q: %w", study, ErrNoTune)
	}
	t.Options, t.Sampler, t.Budget, t.Session, t.MaxAttempts = []byte(opts), []byte(sampler), int(budget), int(session), int(max)
	n, err := tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE tune_id = ?`, id)
	t.Runs = int(n)
	return id, t, err
}

// OnDialect implements Queue on a Dialect; a store embeds one set to
// itself (OnDialect{D: s}), so that both dialects share one queue.
type OnDialect struct {
	// D is the store the queue's transactions run in.
	D Dialect
}

var _ Queue = OnDialect{}

// OpenTune implements Queue.OpenTune on the dialect.
func (q OnDialect) OpenTune(ctx context.Context, study string, setup Setup) (t Study, created bool, err error) {
	d := q.D
	if setup.MaxAttempts <= 0 {
		setup.MaxAttempts = DefaultMaxAttempts
	}
	err = d.TuneTx(ctx, "opening the tuning state of "+study, func(tx SQL) error {
		created = false
		_, t, err = loadTune(tx, study, "")
		if !errors.Is(err, ErrNoTune) {
			return err
		}
		stamp := d.Stamp(time.Now())
		if err := tx.Exec(`INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, study, stamp); err != nil {
			return err
		}
		studyID, err := tx.QueryInt(`SELECT id FROM studies WHERE name = ?`, study)
		if err != nil {
			return err
		}
		// Another opener may have created it since loadTune (PostgreSQL's
		// read committed): then it is that one.
		rows, err := tx.Query(`INSERT INTO tune_studies (study_id, space, options, sampler, budget, session, max_attempts, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (study_id) DO NOTHING RETURNING id`,
			studyID, setup.Space, string(setup.Options), string(setup.Sampler), int64(setup.Budget), int64(setup.MaxAttempts), stamp, stamp)
		if err != nil {
			return err
		}
		created = rows.Next()
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		_, t, err = loadTune(tx, study, "")
		return err
	})
	return t, created, err
}

// UpdateTune implements Queue.UpdateTune on the dialect.
func (q OnDialect) UpdateTune(ctx context.Context, study string, fn func(*Tx) error) error {
	d := q.D
	return d.TuneTx(ctx, "updating the tuning state of "+study, func(tx SQL) error {
		id, t, err := loadTune(tx, study, d.LockStudy())
		if err != nil {
			return err
		}
		now := time.Now()
		return fn(&Tx{tx: tx, tuneID: id, now: now, stamp: d.Stamp(now), study: t})
	})
}

// ClaimRun implements Queue.ClaimRun on the dialect.
func (q OnDialect) ClaimRun(ctx context.Context, study, worker string, lease time.Duration) (r Run, ok bool, err error) {
	d := q.D
	if worker == "" {
		return r, false, errors.New("claiming a run: no worker name")
	}
	err = d.TuneTx(ctx, "claiming a run of "+study, func(tx SQL) error {
		ok = false
		id, t, err := loadTune(tx, study, "")
		if err != nil {
			return err
		}
		now := time.Now()
		stamp := d.Stamp(now)
		if err := expire(tx, id, stamp, now, t.MaxAttempts); err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT `+runColumns+` FROM tune_runs WHERE tune_id = ? AND state = 'queued' ORDER BY id LIMIT 1`+d.ClaimLock(), id)
		if err != nil {
			return err
		}
		if rows.Next() {
			r, err = scanRun(rows)
			ok = err == nil
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
		if err != nil || !ok {
			return err
		}
		var until int64
		if lease > 0 {
			until = now.Add(lease).UnixMilli()
			r.LeaseUntil = time.UnixMilli(until)
		}
		r.State, r.Worker, r.Attempts = RunRunning, worker, r.Attempts+1
		return tx.Exec(`UPDATE tune_runs SET state = 'running', worker = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
			WHERE id = ?`, worker, until, stamp, r.ID)
	})
	return r, ok, err
}

// expire queues again (or fails) the running runs whose lease expired.
func expire(tx SQL, tuneID int64, stamp any, now time.Time, max int) error {
	rows, err := tx.Query(`SELECT `+runColumns+` FROM tune_runs WHERE tune_id = ? AND state = 'running' AND lease_until > 0 AND lease_until < ?`,
		tuneID, now.UnixMilli())
	if err != nil {
		return err
	}
	var lost []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return err
		}
		lost = append(lost, r)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return err
	}
	for _, r := range lost {
		if err := lose(tx, stamp, r, max, "the lease of "+r.Worker+" expired"); err != nil {
			return err
		}
	}
	return nil
}

// RenewRun implements Queue.RenewRun on the dialect.
func (q OnDialect) RenewRun(ctx context.Context, study string, id int64, worker string, lease time.Duration) error {
	d := q.D
	return d.TuneTx(ctx, "renewing a lease in "+study, func(tx SQL) error {
		tuneID, _, err := loadTune(tx, study, "")
		if err != nil {
			return err
		}
		now := time.Now()
		n, err := tx.QueryInt(`SELECT COUNT(*) FROM tune_runs WHERE id = ? AND tune_id = ? AND state = 'running' AND worker = ?`, id, tuneID, worker)
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("run %d: %w", id, ErrLeaseLost)
		}
		return tx.Exec(`UPDATE tune_runs SET lease_until = ?, updated_at = ? WHERE id = ?`, now.Add(lease).UnixMilli(), d.Stamp(now), id)
	})
}

// TuneStatus implements Queue.TuneStatus on the dialect, in one read-only
// snapshot.
func (q OnDialect) TuneStatus(ctx context.Context, study string) (Status, error) {
	var st Status
	err := q.D.ReadTx(ctx, "reading the tuning state of "+study, func(tx SQL) error {
		var err error
		st, err = readStatus(tx, study)
		return err
	})
	return st, err
}

// readStatus counts the study's runs in tx.
func readStatus(tx SQL, study string) (Status, error) {
	id, t, err := loadTune(tx, study, "")
	if err != nil {
		return Status{}, err
	}
	st := Status{Study: study, Budget: t.Budget, BudgetLeft: max(0, t.Budget-t.Runs), Session: t.Session}
	rows, err := tx.Query(`SELECT state, COUNT(*) FROM tune_runs WHERE tune_id = ? GROUP BY state`, id)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var state string
		var n int64
		if err := rows.Scan(&state, &n); err != nil {
			rows.Close()
			return st, err
		}
		switch RunState(state) {
		case RunQueued:
			st.Queued = int(n)
		case RunRunning:
			st.Running = int(n)
		case RunComplete:
			st.Complete = int(n)
		case RunFailed:
			st.Failed = int(n)
		}
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return st, err
	}
	n, err := tx.QueryInt(`SELECT COUNT(*) FROM tune_trials WHERE tune_id = ?`, id)
	if err != nil {
		return st, err
	}
	st.Trials = int(n)
	if st.RunningRuns, err = tuneRuns(tx, id, RunRunning); err != nil {
		return st, err
	}
	st.FailedRuns, err = tuneRuns(tx, id, RunFailed)
	return st, err
}
