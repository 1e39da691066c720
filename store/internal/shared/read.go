package shared

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// RowScanner scans the current row of a query: what *sql.Rows, pgx.Rows
// and the rows of a dialect's StudyTx have in common.
type RowScanner interface {
	Scan(dest ...any) error
}

// TrialRow holds the scan targets of ReadColumns.
type TrialRow struct {
	ID                                int64 // the row id
	hash, path, format, version, key  []byte
	line, index                       int64
	labels, params, warnings, problem []byte
	workload                          [8]sql.NullFloat64
	requests, succeeded, failed       int64
	measurements                      []byte
	// the deployment columns
	layout, allocWhy, servingWhy, configPath, config []byte
	alloc, serving                                   int64
	// what reads verify (see TrialRow.verify)
	contentID []byte
	checksum  int64
	// session is the trial's measurement session
	session []byte
	// refs are the trial's param_refs (codec.ParamRefs)
	refs int64
	dest []any
}

// NewTrialRow returns a TrialRow whose scan destinations are set.
func NewTrialRow() *TrialRow {
	r := &TrialRow{}
	r.dest = []any{&r.ID, &r.hash, &r.path, &r.format, &r.version, &r.line, &r.index, &r.key, &r.labels, &r.params}
	for i := range r.workload {
		r.dest = append(r.dest, &r.workload[i])
	}
	r.dest = append(r.dest, &r.requests, &r.succeeded, &r.failed, &r.problem, &r.warnings, &r.measurements,
		&r.layout, &r.alloc, &r.allocWhy, &r.serving, &r.servingWhy, &r.configPath, &r.config,
		&r.contentID, &r.checksum, &r.session, &r.refs)
	return r
}

// Decode scans one row into a trial, verifies it (see verify) and keeps
// the measurements q asks for. With slim, only the ID, source path and
// measurements are decoded, and verified by the row's checksum alone
// (which covers them); otherwise the whole row is decoded, whatever q
// asks: its content hash needs all of it.
//
// With v set, the content hash is checked by v (the checksum here):
// the caller then waits for v before using what it read.
func (r *TrialRow) Decode(rs RowScanner, d *codec.Decoder, q *store.Query, slim bool, v *Verifier) (int64, trial.Trial, error) {
	if slim {
		t, err := r.scanSlim(rs, d, MetricFilter(q.Metrics))
		return r.ID, t, err
	}
	t, err := r.Scan(rs, d)
	if err != nil {
		return 0, t, err
	}
	if v == nil {
		err = r.Verify(&t, d)
	} else if err = r.verifyChecksum(&t, d); err == nil {
		v.add(&t, r.contentHash())
	}
	if err != nil {
		return 0, t, err
	}
	if keep := MetricFilter(q.Metrics); keep != nil {
		ms := t.Measurements[:0:0]
		for _, m := range t.Measurements {
			if keep([]byte(m.Metric), []byte(m.Native)) {
				ms = append(ms, m)
			}
		}
		t.Measurements = ms
	}
	return r.ID, t, nil
}

// scanSlim reads one row into a slim trial (ID, source path and the
// measurements keep selects) verified by the row's checksum.
func (r *TrialRow) scanSlim(rs RowScanner, d *codec.Decoder, keep func(metric, native []byte) bool) (trial.Trial, error) {
	var t trial.Trial
	if err := rs.Scan(r.dest...); err != nil {
		return t, err
	}
	var ws []string
	var dep *trial.Deployment
	var err error
	if string(r.warnings) != "[]" && len(r.warnings) > 0 && !d.KnownWarnings(r.warnings) {
		if ws, err = codec.DecodeList(r.warnings); err != nil {
			return t, r.damaged("its warnings do not decode (%v)", err)
		}
	}
	if len(r.layout) > 0 && !d.KnownLayout(r.layout) {
		if dep, err = d.Deployment(r.layout, r.alloc, r.allocWhy, r.serving, r.servingWhy, r.configPath, r.config); err != nil {
			return t, r.damaged("its deployment does not decode (%v)", err)
		}
	}
	sum := codec.TrialChecksum(r.hash, r.path, r.format, r.version, r.line, r.measurements, d.CanonicalWarnings(r.warnings, ws),
		d.CanonicalLayout(r.layout, dep), r.alloc, r.allocWhy, r.serving, r.servingWhy, r.configPath, r.config, r.session)
	if sum != r.checksum {
		return t, r.damaged("the checksum of its ID and of the fields it does not hash (path, format, line, measurements, warnings, deployment, session) is %d, not %d",
			sum, r.checksum)
	}
	if t.Measurements, err = codec.UnpackMeasurements(r.measurements, d, keep); err != nil {
		return t, r.damaged("its packed measurements do not decode (%v)", err)
	}
	t.ID, t.Source = string(r.hash), trial.Source{Path: d.InternBytes(r.path), Session: d.InternBytes(r.session)}
	return t, nil
}

// Scan reads one row into a whole trial, unverified.
func (r *TrialRow) Scan(rs RowScanner, d *codec.Decoder) (trial.Trial, error) {
	var t trial.Trial
	if err := rs.Scan(r.dest...); err != nil {
		return t, err
	}
	var err error
	if t.Measurements, err = codec.UnpackMeasurements(r.measurements, d, nil); err != nil {
		return t, r.damaged("its packed measurements do not decode (%v)", err)
	}
	t.ID = string(r.hash)
	t.Source = trial.Source{Path: d.InternBytes(r.path), Format: d.InternBytes(r.format),
		FormatVersion: d.InternBytes(r.version), Line: int(r.line), Index: int(r.index), Key: d.InternBytes(r.key),
		Session: d.InternBytes(r.session)}
	if t.Labels, err = d.DecodeMap(r.labels); err != nil {
		return t, r.damaged("its labels do not decode (%v)", err)
	}
	if t.Params, err = d.Params(r.params, r.refs, t.Measurements); err != nil {
		return t, r.damaged("its params do not decode (%v)", err)
	}
	w := &t.Workload
	for i, p := range []*float64{&w.InputTokens, &w.OutputTokens, &w.MeanInputTokens, &w.MeanOutputTokens,
		&w.Concurrency, &w.AchievedConcurrency, &w.RequestRate, &w.Users} {
		*p = orNaN(r.workload[i])
	}
	w.Requests, t.Succeeded, t.Failed = r.requests, r.succeeded, r.failed
	t.Problem = d.InternBytes(r.problem)
	if t.Warnings, err = codec.DecodeList(r.warnings); err != nil {
		return t, r.damaged("its warnings do not decode (%v)", err)
	}
	if t.Deployment, err = d.Deployment(r.layout, r.alloc, r.allocWhy, r.serving, r.servingWhy, r.configPath, r.config); err != nil {
		return t, r.damaged("its deployment does not decode (%v)", err)
	}
	return t, nil
}

// damaged returns the IntegrityError of the row's trial.
func (r *TrialRow) damaged(format string, args ...any) error {
	return &store.IntegrityError{Trial: string(r.hash), Detail: fmt.Sprintf(format, args...)}
}

// Verify checks the trial t read from the row against what the store
// keeps of it: trial.ComputeID of t must be its content hash (its ID, or
// content_id when the ID is not the content hash), and the row's checksum
// that of the fields the hash does not cover (TrialChecksum).
func (r *TrialRow) Verify(t *trial.Trial, d *codec.Decoder) error {
	if got, want := trial.ComputeID(t), r.contentHash(); got != want {
		return r.damaged("what is stored hashes to %s, not to its content hash %s", got, want)
	}
	return r.verifyChecksum(t, d)
}

// contentHash is what the row's trial must hash to: its content_id, or
// its ID when that is empty.
func (r *TrialRow) contentHash() string {
	if len(r.contentID) > 0 {
		return string(r.contentID)
	}
	return string(r.hash)
}

// verifyChecksum checks the row's checksum (TrialChecksum) of t, the
// trial read from it.
func (r *TrialRow) verifyChecksum(t *trial.Trial, d *codec.Decoder) error {
	if sum := r.rowChecksum(t, d); sum != r.checksum {
		return r.damaged("the checksum of its ID and of the fields it does not hash (path, format, line, native names and units, warnings, deployment, session) is %d, not %d",
			sum, r.checksum)
	}
	return nil
}

// rowChecksum is TrialChecksum of the row read into t.
func (r *TrialRow) rowChecksum(t *trial.Trial, d *codec.Decoder) int64 {
	return codec.TrialChecksum(r.hash, r.path, r.format, r.version, r.line, r.measurements, d.CanonicalWarnings(r.warnings, t.Warnings),
		d.CanonicalLayout(r.layout, t.Deployment), r.alloc, r.allocWhy, r.serving, r.servingWhy, r.configPath, r.config, r.session)
}

// orNaN reads a workload column: NULL, and a NaN of any bits (PostgreSQL
// keeps the bits it was given, but a NaN written as text, as pg_dump
// writes it, gets the server's own), as math.NaN(), what the store writes
// (asStored), so that a restored dump hashes as it did.
func orNaN(v sql.NullFloat64) float64 {
	if !v.Valid || v.Float64 != v.Float64 {
		return math.NaN()
	}
	return v.Float64
}

// MetricFilter keeps the measurements whose metric or native name is in
// metrics; nil keeps all.
func MetricFilter(metrics []string) func(metric, native []byte) bool {
	if metrics == nil {
		return nil
	}
	return func(metric, native []byte) bool {
		for _, m := range metrics {
			if m == string(metric) || m == string(native) {
				return true
			}
		}
		return false
	}
}

// Collector keeps the trials read in row-id order that a query selects,
// or, with emit set (a Scan), hands them to emit in batches of ScanBatch
// and keeps none.
type Collector struct {
	Q      store.Query   // the query: its conditions and limit
	Trials []trial.Trial // the trials kept, without emit
	RowIDs []int64       // the row ids of the trials kept (or of those selected, with RowsOnly)
	kept   int
	// RowsOnly keeps the row ids of the trials selected, not the trials
	// (the conditions of a columnar read).
	RowsOnly bool

	// A Scan's batches: a batch is handed over once the verifier has
	// hashed its trials, which it does while the next batch is decoded;
	// emit runs on its own goroutine (out), in order, so that what the
	// caller does with a batch overlaps decoding the next.
	Emit    func([]trial.Trial) error
	v       *Verifier
	pending []trial.Trial
	pendWG  *sync.WaitGroup
	curWG   *sync.WaitGroup
	out     chan []trial.Trial
	done    chan struct{}
	mu      sync.Mutex
	emitErr error
	Err     error // the read's error, set by its caller
}

// ScanBatch is the number of trials a Scan hands over at once.
const ScanBatch = 1024

// AddTrial keeps t if it passes the query's conditions and limit; it
// reports false once the limit is reached, or when emit failed (c.err).
func (c *Collector) AddTrial(rowID int64, t trial.Trial) bool {
	if c.Q.Limit > 0 && c.kept >= c.Q.Limit {
		return false
	}
	if !trial.MatchAll(&t, c.Q.Where) {
		return true
	}
	c.kept++
	if c.Emit == nil {
		c.RowIDs = append(c.RowIDs, rowID)
		if !c.RowsOnly {
			c.Trials = append(c.Trials, t)
		}
		return true
	}
	c.Trials = append(c.Trials, t)
	if len(c.Trials) == ScanBatch {
		c.rotate()
	}
	return c.Err == nil
}

// rotate hands the pending batch over, once hashed, and makes the
// current batch pending.
func (c *Collector) rotate() {
	if c.v != nil {
		c.v.setGroup(nil)
	}
	c.flush()
	c.pending, c.pendWG = c.Trials, c.curWG
	c.Trials = make([]trial.Trial, 0, ScanBatch)
	c.curWG = &sync.WaitGroup{}
	if c.v != nil {
		c.v.setGroup(c.curWG)
	}
}

// flush hands the pending batch to emit's goroutine once its trials are
// hashed.
func (c *Collector) flush() {
	if c.Err == nil {
		c.Err = c.emitted()
	}
	if c.Err != nil || c.pending == nil {
		return
	}
	if c.pendWG != nil {
		c.pendWG.Wait()
	}
	if c.v != nil {
		if c.Err = c.v.failed(); c.Err != nil {
			return
		}
	}
	c.out <- c.pending
	c.pending = nil
}

// emitted returns emit's error so far, as an emitError.
func (c *Collector) emitted() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.emitErr != nil {
		return emitError{c.emitErr}
	}
	return nil
}

// StartScan prepares a Scan's collector to hand over what v verifies, and
// starts emit's goroutine.
func (c *Collector) StartScan(v *Verifier) {
	if c.Emit == nil {
		return
	}
	c.v, c.curWG = v, &sync.WaitGroup{}
	v.setGroup(c.curWG)
	c.out, c.done = make(chan []trial.Trial, 2), make(chan struct{})
	go func() {
		defer close(c.done)
		for b := range c.out {
			if c.emitted() != nil {
				continue
			}
			if err := c.emitSafely(b); err != nil {
				c.mu.Lock()
				c.emitErr = err
				c.mu.Unlock()
			}
		}
	}()
}

// emitSafely calls emit on a batch; a panic becomes its error (it runs on
// its own goroutine, where no caller could recover it).
func (c *Collector) emitSafely(b []trial.Trial) (err error) {
	defer safe.Recover(&err, "processing the trials of", "a store read")
	return c.Emit(b)
}

// Finish hands the last batches over once every trial is verified, and
// waits for emit to be done with them (err is the read's error so far,
// verr the verifier's).
func (c *Collector) Finish(err, verr error) error {
	if err == nil {
		err = verr
	}
	if err == nil {
		err = c.Err
	}
	if c.Emit == nil {
		return err
	}
	if c.out == nil { // the read failed before it started
		return err
	}
	if err == nil {
		c.pendWG = nil
		c.flush()
		if c.Err == nil && len(c.Trials) > 0 {
			c.pending = c.Trials
			c.flush()
		}
		err = c.Err
	}
	close(c.out)
	<-c.done
	if err == nil {
		err = c.emitted()
	}
	return err
}

// emitError is an error of a Scan's function, returned as it is.
type emitError struct{ err error }

func (e emitError) Error() string { return e.err.Error() }

// scanWrap wraps err with wrap unless it is the error of a Scan's
// function.
func scanWrap(err error, wrap func(error) error) error {
	var ee emitError
	if err == nil || errors.As(err, &ee) {
		return err
	}
	return wrap(err)
}

// scanError returns the error of a Scan's function as it is (err may
// wrap it), the others unchanged.
func scanError(err error) error {
	var ee emitError
	if errors.As(err, &ee) {
		return ee.err
	}
	return err
}
