// Package tune is the closed loop of pareto tune, ask and tell: a search
// sampler proposes configurations, each is measured by runs (jobs of an
// executor, or results an external driver tells), the runs' result files
// are recorded in the study, and the gate judges every candidate against
// the baseline, asking for more runs within the budget.
//
// Every state change is in the store (tunequeue.Queue): the sampler's state,
// the configurations, the runs and their leases. A driver killed at any
// moment resumes where it stopped: its running runs are queued again
// (a run handed out tunequeue.DefaultMaxAttempts times, or the study's
// max attempts, fails on its last loss), and a run is recorded complete
// once. An external ask/tell driver's runs are leased too (Ask, Tell).
// Several drivers (workers) may share one study: runs are claimed
// atomically, and the sampler is changed under the study's lock.
//
// The API workers and other drivers call: Open (or OpenExisting) a
// Tuning, StartSession once per driver session, then repeatedly Next (a
// claimed Run with its configuration), and Record, Fail or Release it;
// Status reads the counts. Driver runs that loop with an executor.
package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// Labels set on every trial a run records: the run's ID, its
// configuration's number and its role (baseline or candidate), and the
// session.
const (
	LabelRun     = "tune_run"
	LabelTrial   = "tune_trial"
	LabelRole    = "tune_role"
	LabelSession = "tune_session"
)

// Roles of a configuration.
const (
	RoleBaseline  = "baseline"
	RoleCandidate = "candidate"
)

// Options are a tuning study's settings, kept in the store with it.
type Options struct {
	// Sampler, Seed and Population configure the search (search.Options).
	Sampler    string `json:"sampler"`
	Seed       uint64 `json:"seed"`
	Population int    `json:"population,omitempty"`
	// Objectives are what the sampler optimises and the gate compares
	// (metric selectors with directions, noise and minimum improvement);
	// SLOs bound the candidates' aggregates.
	Objectives []frontier.Objective `json:"objectives"`
	SLOs       []string             `json:"slos,omitempty"`
	// Repeats is the number of runs of each configuration before the
	// gate judges it (and of the baseline each session); MaxRuns caps the
	// runs of a configuration the gate may ask for.
	Repeats int `json:"repeats"`
	MaxRuns int `json:"max_runs"`
	// NoLabel judges every candidate against the baseline alone: an
	// admitted candidate is not labelled gate=admitted, so it joins no
	// archive later candidates must beat (the gate's --no-label).
	NoLabel bool `json:"no_label,omitempty"`
	// Screen, when between 1 and Repeats-1, is the number of first runs
	// of a configuration: after them, only a configuration whose
	// frontier membership is still uncertain under the noise bands gets
	// its further repeats (Repeats in all, then what the gate asks for);
	// one clearly dominated beyond the band gets none (DecisionScreened).
	// 0 (or Repeats): every configuration gets Repeats runs.
	Screen int `json:"screen,omitempty"`
	// Command is the command template of a run (see Expand), kept with
	// the secrets the redaction policy finds in it replaced by
	// trial.Redacted (Open): a worker then needs the command given again
	// (Driver.Run refuses one holding trial.Redacted); pass secrets
	// through the environment instead (PassEnv).
	Command string `json:"command,omitempty"`
	// Results are the patterns that name a run's result files (pareto
	// tune's --result, see ReadRun); none: the space's result = [...],
	// else every benchmark result a run's folder holds.
	Results []string `json:"results,omitempty"`
	// SpaceFile and SpaceText are the search space's file name and TOML
	// text, kept so that ask and tell need no --space (OpenExisting).
	SpaceFile string `json:"space_file,omitempty"`
	SpaceText string `json:"space_toml,omitempty"`
	// PassEnv names the environment variables every run of the study
	// needs from the environment of the process that runs it (a token the
	// command reads as $NAME): the names are kept, never the values
	// (Driver.PassEnv).
	PassEnv []string `json:"pass_env,omitempty"`
}

// Defaults of Options.
const (
	DefaultRepeats = 3
	DefaultMaxRuns = 10
)

func (o Options) withDefaults() Options {
	if o.Repeats <= 0 {
		o.Repeats = DefaultRepeats
	}
	if o.MaxRuns < o.Repeats {
		o.MaxRuns = max(DefaultMaxRuns, o.Repeats)
	}
	if o.Sampler == "" {
		o.Sampler = search.NSGA2
	}
	return o
}

// Store is what a tuning needs of a store: its study's trials, read,
// recorded and labelled by the gate, and its tuning queue (tunequeue.Queue).
// Every store.Store is one.
type Store interface {
	// Trials returns the study's trials that satisfy q (store.Reader).
	Trials(ctx context.Context, study string, q store.Query) ([]trial.Trial, error)
	// Ingest and SetLabels record trials and their labels, as decide.Store.
	Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error)
	SetLabels(ctx context.Context, study string, ids []string, labels map[string]string) (int, error)
	tunequeue.Queue
}

// gateStore is a tuning's store as the gate asks for it (decide.Store).
type gateStore struct{ Store }

// Select returns the study's trials that satisfy every condition of where.
func (s gateStore) Select(ctx context.Context, study string, where []trial.Condition) ([]trial.Trial, error) {
	return s.Trials(ctx, study, store.Query{Where: where})
}

// Tuning is one tuning study of a store. It is not safe for concurrent use
// by several goroutines (each worker opens its own).
type Tuning struct {
	st    Store
	study string
	space *search.Space
	opts  Options
	slos  []frontier.SLO

	// cached is the sampler as last committed (cachedState), so that the
	// next transaction need not decode it again; pending is the sampler a
	// transaction saved, cached once it commits.
	cached, pending           *search.Study
	cachedState, pendingState []byte

	// hidden are the secrets every text the study records is cleared of
	// (Hide).
	hidden []string
}

// update is UpdateTune that keeps the sampler a committed transaction
// saved (see resume and save).
func (t *Tuning) update(ctx context.Context, fn func(tx *tunequeue.Tx) error) error {
	t.pending, t.pendingState = nil, nil
	err := t.st.UpdateTune(ctx, t.study, fn)
	if err == nil && t.pending != nil {
		t.cached, t.cachedState = t.pending, t.pendingState
	}
	t.pending, t.pendingState = nil, nil
	return err
}

// resume returns the sampler of state: the cached one when it is that
// state (the caller then owns it), else decoded.
func (t *Tuning) resume(state []byte) (*search.Study, error) {
	if t.cached != nil && bytes.Equal(t.cachedState, state) {
		ss := t.cached
		t.cached, t.cachedState = nil, nil
		return ss, nil
	}
	ss, err := search.ResumeStudy(t.space, state)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return ss, nil
}

// save records the sampler's state in tx.
func (t *Tuning) save(tx *tunequeue.Tx, ss *search.Study) error {
	state, err := ss.MarshalJSON()
	if err != nil {
		return err
	}
	if err := tx.SetSampler(state); err != nil {
		return err
	}
	t.pending, t.pendingState = ss, state
	return nil
}

// Open opens the tuning study, creating it with opts and budget if it
// does not exist. An existing study keeps its options; its space must be
// the same (by fingerprint); a budget > 0 replaces its budget. A negative
// budget, or none (0) for a study that does not exist, is refused (a
// *field.Error on budget).
func Open(ctx context.Context, st Store, study string, space *search.Space, opts Options, budget int) (*Tuning, error) {
	if err := checkLimits(Limits{Budget: budget}); err != nil {
		return nil, err
	}
	if budget == 0 {
		err := st.UpdateTune(ctx, study, func(*tunequeue.Tx) error { return nil })
		if errors.Is(err, tunequeue.ErrNoTune) {
			return nil, &field.Error{Field: "budget", Named: true, Err: fmt.Errorf("study %q does not exist yet: give its budget (at least 1 run) to create it", study)}
		}
		if err != nil {
			return nil, err
		}
	}
	opts = opts.withDefaults()
	opts.Command = RedactCommand(opts.Command) // never stored with a secret
	if len(opts.Objectives) == 0 {
		return nil, errors.New("tune: no objectives")
	}
	ss, err := search.NewStudy(space, search.Options{Sampler: opts.Sampler, Seed: opts.Seed, Objectives: opts.Objectives, Population: opts.Population})
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	state, err := ss.MarshalJSON()
	if err != nil {
		return nil, err
	}
	optJSON, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	ts, created, err := st.OpenTune(ctx, study, tunequeue.Setup{Space: space.Fingerprint(), Options: optJSON, Sampler: state, Budget: budget})
	if err != nil {
		return nil, err
	}
	if ts.Space != space.Fingerprint() {
		return nil, fmt.Errorf("tune: study %q was tuned over another search space (fingerprint %s, this one %s)", study, ts.Space, space.Fingerprint())
	}
	if !created {
		if err := json.Unmarshal(ts.Options, &opts); err != nil {
			return nil, fmt.Errorf("tune: study %q: reading its options: %w", study, err)
		}
		if budget > 0 && budget != ts.Budget {
			if err := st.UpdateTune(ctx, study, func(tx *tunequeue.Tx) error { return tx.SetBudget(budget) }); err != nil {
				return nil, err
			}
		}
	}
	return newTuning(st, study, space, opts)
}

func newTuning(st Store, study string, space *search.Space, opts Options) (*Tuning, error) {
	t := &Tuning{st: st, study: study, space: space, opts: opts}
	for _, s := range opts.SLOs {
		slo, err := frontier.ParseSLO(s)
		if err != nil {
			return nil, fmt.Errorf("tune: %w", err)
		}
		t.slos = append(t.slos, slo)
	}
	return t, nil
}

// OpenExisting opens a tuning study that exists, with its own options
// and the search space it keeps (what tell does).
func OpenExisting(ctx context.Context, st Store, study string) (*Tuning, error) {
	var opts Options
	var fp string
	err := st.UpdateTune(ctx, study, func(tx *tunequeue.Tx) error {
		fp = tx.Study().Space
		return json.Unmarshal(tx.Study().Options, &opts)
	})
	if err != nil {
		return nil, err
	}
	if opts.SpaceText == "" {
		return nil, fmt.Errorf("tune: study %q keeps no search space (Options.SpaceText): open it with Open and its space", study)
	}
	space, err := search.ParseSpace(opts.SpaceFile, []byte(opts.SpaceText))
	if err != nil {
		return nil, fmt.Errorf("tune: study %q: its search space: %w", study, err)
	}
	if space.Fingerprint() != fp {
		return nil, fmt.Errorf("tune: study %q: the search space it keeps is not the one it was tuned over", study)
	}
	return newTuning(st, study, space, opts)
}

// Space returns the study's search space.
func (t *Tuning) Space() *search.Space { return t.space }

// Options returns the study's options.
func (t *Tuning) Options() Options { return t.opts }

// ResultPatterns returns the patterns that name the study's result
// files: flags when given (pareto tune's --result), else the study's
// (Options.Results), else its space's (result = [...]); none means every
// benchmark result a run's folder holds (ReadRun).
func (t *Tuning) ResultPatterns(flags []string) []string {
	switch {
	case len(flags) > 0:
		return flags
	case len(t.opts.Results) > 0:
		return t.opts.Results
	}
	var out []string
	for _, p := range t.space.Results {
		out = append(out, p.Pattern)
	}
	return out
}

// Run is a claimed run: its ID, its configuration and the worker that
// holds it.
type Run struct {
	ID      int64
	Trial   int // the configuration's number (tunequeue.BaselineTrial for the baseline)
	Role    string
	Session int
	Attempt int
	Worker  string
	Config  search.Config
	// Handle and Dir are the executor's handle and the folder of an
	// earlier attempt whose worker was lost ("" when none): its job may
	// still be running (executor.Follower).
	Handle, Dir string
}

// SessionName is the measurement session (trial.Source.Session) the runs
// of a tuning study's driver session n are recorded in: "tune-N". The
// gate compares a candidate with the baseline's runs of the newest
// session, so that a baseline re-measured on a faster or slower machine
// is never pooled with its stale runs.
func SessionName(n int) string { return "tune-" + strconv.Itoa(n) }

// StartSession begins a driver session: the session number goes up and
// Repeats runs of the baseline (Space.Defaults) are queued, so that every
// session re-measures its baseline (counting the baseline runs still
// queued from an earlier session). The baseline's runs are reserved
// first: when the budget left is short of them, queued candidate runs
// that were never handed out give their budget back to the baseline,
// the newest first (a candidate left with no run is failed, for that
// reason), so that the runs started never exceed the budget.
func (t *Tuning) StartSession(ctx context.Context) (int, error) {
	return t.startSession(ctx, false)
}

// JoinSession is StartSession for a worker that joins a study other
// drivers may be running: it starts the first session of a study that
// has none, and otherwise returns the current session without queueing
// baseline runs (several workers starting at once start one session).
func (t *Tuning) JoinSession(ctx context.Context) (int, error) {
	return t.startSession(ctx, true)
}

// givenBack is the reason of a candidate whose runs were all given back
// to a session's baseline.
const givenBack = "not measured: its queued runs were given back to the baseline of session %d (the budget was all queued)"

func (t *Tuning) startSession(ctx context.Context, join bool) (int, error) {
	base, err := t.space.Defaults()
	if err != nil {
		return 0, fmt.Errorf("tune: the baseline: %w", err)
	}
	params, err := json.Marshal(base)
	if err != nil {
		return 0, err
	}
	session := 0
	err = t.update(ctx, func(tx *tunequeue.Tx) error {
		ts := tx.Study()
		if join && ts.Session > 0 {
			session = ts.Session
			return nil
		}
		session = ts.Session + 1
		if err := tx.SetSession(session); err != nil {
			return err
		}
		if err := tx.PutTrial(tunequeue.Trial{Number: tunequeue.BaselineTrial, Role: RoleBaseline, Params: params, State: "complete"}); err != nil {
			return err
		}
		runs, err := tx.Runs()
		if err != nil {
			return err
		}
		queued := 0 // baseline runs an earlier session queued and nobody ran
		var spare []int64
		for _, r := range runs {
			switch {
			case r.Number == tunequeue.BaselineTrial && r.State == tunequeue.RunQueued:
				queued++
			case r.Number != tunequeue.BaselineTrial && r.State == tunequeue.RunQueued && r.Attempts == 0:
				spare = append(spare, r.ID)
			}
		}
		need := max(t.opts.Repeats-queued, 0)
		if short := need - (ts.Budget - ts.Runs); short > 0 && len(spare) > 0 {
			slices.Reverse(spare) // the newest first
			if _, err := tx.DropRuns(spare[:min(short, len(spare))]); err != nil {
				return err
			}
			if err := t.giveBack(tx, session); err != nil {
				return err
			}
			ts = tx.Study()
		}
		for range min(need, ts.Budget-ts.Runs) {
			if _, err := tx.AddRun(tunequeue.BaselineTrial); err != nil {
				return err
			}
		}
		return nil
	})
	return session, err
}

// giveBack tells the sampler about the candidates whose runs DropRuns
// took (reconcile) and records why a candidate left with no run at all
// is failed.
func (t *Tuning) giveBack(tx *tunequeue.Tx, session int) error {
	if err := t.reconcile(tx); err != nil {
		return err
	}
	trials, runs, err := queueState(tx)
	if err != nil {
		return err
	}
	has := map[int]bool{}
	for _, r := range runs {
		has[r.Number] = true
	}
	for _, tr := range trials {
		if tr.Role != RoleCandidate || has[tr.Number] || tr.State != string(search.Failed) || len(tr.Verdict) > 0 {
			continue
		}
		b, err := json.Marshal(verdictRecord{Error: fmt.Sprintf(givenBack, session)})
		if err != nil {
			return err
		}
		tr.Verdict = b
		if err := tx.PutTrial(tr); err != nil {
			return err
		}
	}
	return nil
}

// Recorded returns the trials a run recorded in the study: those of an
// earlier attempt whose driver was killed after recording them but
// before completing the run (Record then completes it without measuring
// again).
func (t *Tuning) Recorded(ctx context.Context, r Run) ([]trial.Trial, error) {
	ts, err := t.st.Trials(ctx, t.study, store.Query{Where: []trial.Condition{{Key: LabelRun, Op: trial.OpEq, Value: strconv.FormatInt(r.ID, 10)}}})
	if errors.Is(err, store.ErrNoStudy) {
		return nil, nil
	}
	return ts, err
}

// ErrBudget is returned by Next when the budget allows no more runs and
// none is queued.
var ErrBudget = errors.New("tune: the budget is spent")

// ErrPending is returned by Next when the budget allows no more runs but
// runs under a lease are still running elsewhere: a driver should wait
// (one of them may be queued again when its worker dies) and call Next
// again.
var ErrPending = errors.New("tune: the budget is spent, but runs of other workers are still running")

// ErrExhausted is returned by Next when the sampler has no configuration
// left (a grid) and no run is queued.
var ErrExhausted = errors.New("tune: every configuration of the grid has been asked")

// Next claims a queued run for worker (a lease of lease, 0 for none);
// when none is queued it asks the sampler for a configuration and queues
// its Repeats runs (as many as the budget allows) first. It returns
// ErrBudget or ErrExhausted when there is nothing left to run, and
// ErrPending when runs under a lease are still running elsewhere and
// might be queued again.
func (t *Tuning) Next(ctx context.Context, worker string, lease time.Duration) (Run, error) {
	// Other workers may claim the runs propose queued before this one
	// does: it proposes again (each proposal spends budget, so the loop
	// ends with ErrBudget at the latest).
	for {
		if err := ctx.Err(); err != nil {
			return Run{}, err
		}
		r, ok, err := t.st.ClaimRun(ctx, t.study, worker, lease)
		if err != nil {
			return Run{}, err
		}
		if ok {
			return t.run(ctx, r)
		}
		if err := t.propose(ctx); err != nil {
			return Run{}, err
		}
	}
}

// run attaches its configuration to a claimed run.
func (t *Tuning) run(ctx context.Context, r tunequeue.Run) (Run, error) {
	out := Run{ID: r.ID, Trial: r.Number, Session: r.Session, Attempt: r.Attempts, Worker: r.Worker, Handle: r.Handle, Dir: r.Dir}
	err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		trials, err := tx.Trials()
		if err != nil {
			return err
		}
		for _, tr := range trials {
			if tr.Number == r.Number {
				out.Role = tr.Role
				return json.Unmarshal(tr.Params, &out.Config)
			}
		}
		return fmt.Errorf("tune: run %d names no configuration", r.ID)
	})
	return out, err
}

// propose asks the sampler for a configuration and queues its runs.
func (t *Tuning) propose(ctx context.Context) error {
	return t.update(ctx, func(tx *tunequeue.Tx) error {
		ts := tx.Study()
		left := ts.Budget - ts.Runs
		if left <= 0 {
			runs, err := tx.Runs()
			if err != nil {
				return err
			}
			for _, r := range runs {
				if r.State == tunequeue.RunRunning && !r.LeaseUntil.IsZero() {
					return ErrPending
				}
			}
			return ErrBudget
		}
		// The screen's waiting configurations get their further repeats
		// when the budget left is theirs, or the sampler has no more.
		waiting, err := t.screen(tx)
		if err != nil {
			return err
		}
		if t.reserved(tx, waiting) {
			_, err := t.repeatUncertain(tx, waiting)
			return err
		}
		ss, err := t.resume(ts.Sampler)
		if err != nil {
			return err
		}
		tr, err := ss.Ask()
		if errors.Is(err, search.ErrExhausted) {
			if n, err := t.repeatUncertain(tx, waiting); err != nil || n > 0 {
				return err
			}
			return ErrExhausted
		}
		if err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		if err := t.save(tx, ss); err != nil {
			return err
		}
		params, err := json.Marshal(tr.Config)
		if err != nil {
			return err
		}
		if err := tx.PutTrial(tunequeue.Trial{Number: tr.ID, Role: RoleCandidate, Params: params, State: string(search.Running)}); err != nil {
			return err
		}
		for range min(t.opts.firstRuns(), left) {
			if _, err := tx.AddRun(tr.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// runResult is what a run records in the store.
type runResult struct {
	// Values are the objective values of the run (NaN when missing: JSON
	// null), Trials the IDs of the trials it recorded.
	Values []*float64 `json:"values"`
	Trials []string   `json:"trials"`
}

// Feedback is what Record returns: the configuration's verdict when the
// gate judged it.
type Feedback struct {
	Run     int64
	Trial   int
	Role    string
	Verdict *decide.Verdict
	// GateError is why the gate could not judge (the candidate is the
	// baseline configuration, say).
	GateError string
	// Queued is the number of runs the gate's answer queued.
	Queued int
	// Stalled says why none of the runs an inconclusive verdict asks for
	// were queued: it needs runs of an archive member this study cannot
	// run (see verdictRecord.Stalled).
	Stalled string
	// Mismatches are the parameters the run's result files record with
	// another value than the run's configuration (see Stamp).
	Mismatches []Mismatch
}

// Record records the trials a run measured (read from its result files)
// in the study, stamped with the run's configuration and labels (Stamp),
// completes the run, tells the sampler when the configuration's runs are
// all done, and asks the gate. A run that yielded no trial is failed.
// The Feedback lists the parameters the files record with another value
// than the run's (Mismatches).
func (t *Tuning) Record(ctx context.Context, r Run, source string, trials []trial.Trial) (Feedback, error) {
	fb := Feedback{Run: r.ID, Trial: r.Trial, Role: r.Role}
	if len(trials) == 0 {
		return fb, t.Fail(ctx, r, "the run yielded no trial")
	}
	res := runResult{}
	for i := range trials {
		tr := &trials[i]
		if tr.Labels[LabelRun] == strconv.FormatInt(r.ID, 10) && tr.ID != "" { // read back (Recorded): keep its ID
			res.Trials = append(res.Trials, tr.ID)
			continue
		}
		for _, m := range Stamp(tr, r) {
			if !slices.Contains(fb.Mismatches, m) {
				fb.Mismatches = append(fb.Mismatches, m)
			}
		}
		t.redactTrial(tr)
		tr.ID = trial.ComputeID(tr) // the run's labels make each run's trials its own
		res.Trials = append(res.Trials, tr.ID)
	}
	res.Values = t.values(trials)
	// Only the worker holding the run records its trials (a worker whose
	// lease was lost stops here; FinishRun checks again after).
	if cur, err := t.Claimed(ctx, r.ID); err != nil {
		return fb, err
	} else if cur.Worker != r.Worker {
		return fb, fmt.Errorf("tune: run %d is held by %s: %w", r.ID, cur.Worker, tunequeue.ErrLeaseLost)
	}
	if _, _, err := t.st.Ingest(ctx, t.study, source, trials); err != nil {
		return fb, err
	}
	result, err := json.Marshal(res)
	if err != nil {
		return fb, err
	}
	if err := t.update(ctx, func(tx *tunequeue.Tx) error {
		if err := tx.FinishRun(r.ID, r.Worker, tunequeue.RunComplete, "", result); err != nil {
			return err
		}
		return t.reconcile(tx)
	}); err != nil {
		return fb, err
	}
	return t.judge(ctx, fb)
}

// Fail records that a run could not be measured. The queued runs of a
// candidate whose run failed are dropped (their budget is given back): a
// configuration that fails once is not measured again; the baseline's
// are kept. Then the gate judges the candidates waiting for nothing more
// (a candidate the failed run was the last of, one waiting for the runs
// of an archive member the failed run was of).
func (t *Tuning) Fail(ctx context.Context, r Run, reason string) error {
	reason = t.Redact(reason)
	err := t.update(ctx, func(tx *tunequeue.Tx) error {
		if err := tx.FinishRun(r.ID, r.Worker, tunequeue.RunFailed, reason, nil); err != nil {
			return err
		}
		if r.Role == RoleCandidate {
			if _, err := tx.DropQueued(r.Trial); err != nil {
				return err
			}
		}
		return t.reconcile(tx)
	})
	if err != nil {
		return err
	}
	_, err = t.judge(ctx, Feedback{Run: r.ID, Trial: r.Trial, Role: r.Role})
	return err
}

// Release queues a run again without counting its attempt: the driver
// was interrupted.
func (t *Tuning) Release(ctx context.Context, r Run, reason string) error {
	reason = t.Redact(reason)
	return t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error { return tx.ReleaseRun(r.ID, r.Worker, reason) })
}

// Reclaim queues again (or fails) the running runs whose worker dead
// reports as ended, such as those of a killed driver on this host.
func (t *Tuning) Reclaim(ctx context.Context, dead func(worker string) bool) (int, error) {
	n := 0
	err := t.update(ctx, func(tx *tunequeue.Tx) error {
		var err error
		n, err = tx.ReclaimRuns(func(r tunequeue.Run) bool { return dead(r.Worker) })
		if err != nil {
			return err
		}
		return t.reconcile(tx)
	})
	return n, err
}

// Repair completes the runs that failed by losing their lease on their
// last attempt but whose trials a lost attempt had recorded (its driver
// died between recording them and completing the run), and returns how
// many.
func (t *Tuning) Repair(ctx context.Context) (int, error) {
	var lost []tunequeue.Run
	err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		lost = lost[:0]
		runs, err := tx.Runs()
		for _, r := range runs {
			if r.Lost() {
				lost = append(lost, r)
			}
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range lost {
		ts, err := t.Recorded(ctx, Run{ID: r.ID})
		if err != nil {
			return n, err
		}
		if len(ts) == 0 {
			continue
		}
		res := runResult{Values: t.values(ts)}
		for _, tr := range ts {
			res.Trials = append(res.Trials, tr.ID)
		}
		b, err := json.Marshal(res)
		if err != nil {
			return n, err
		}
		if err := t.update(ctx, func(tx *tunequeue.Tx) error {
			if err := tx.ReviveRun(r.ID, b); err != nil {
				return err
			}
			return t.reconcile(tx)
		}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// median is the median of v (repeat.Quantile at 0.5); v is left as it
// is.
func median(v []float64) float64 {
	return repeat.Quantile(slices.Sorted(slices.Values(v)), 0.5)
}

// values returns each objective's median over the trials (nil when no
// trial measured it).
func (t *Tuning) values(trials []trial.Trial) []*float64 {
	out := make([]*float64, len(t.opts.Objectives))
	for i, o := range t.opts.Objectives {
		sel, err := trial.ParseSelector(o.Name)
		if err != nil {
			continue
		}
		var vs []float64
		r := trial.NewResolver(sel)
		for j := range trials {
			if m, err := r.Resolve(&trials[j]); err == nil && !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
				vs = append(vs, m.Value)
			}
		}
		if len(vs) > 0 {
			v := median(vs)
			out[i] = &v
		}
	}
	return out
}

// reconcile tells the sampler about every configuration whose runs have
// all ended: the median of its complete runs' values, or a failure.
func (t *Tuning) reconcile(tx *tunequeue.Tx) error {
	trials, runs, err := queueState(tx)
	if err != nil {
		return err
	}
	var ss *search.Study
	for _, tr := range trials {
		if tr.Role != RoleCandidate || tr.State != string(search.Running) {
			continue
		}
		pending, vals := false, make([][]float64, len(t.opts.Objectives))
		for _, r := range runs {
			if r.Number != tr.Number {
				continue
			}
			if r.State == tunequeue.RunQueued || r.State == tunequeue.RunRunning {
				pending = true
				break
			}
			if r.State != tunequeue.RunComplete {
				continue
			}
			var res runResult
			if json.Unmarshal(r.Result, &res) != nil || len(res.Values) != len(vals) {
				continue
			}
			for i, v := range res.Values {
				if v != nil {
					vals[i] = append(vals[i], *v)
				}
			}
		}
		if pending {
			continue
		}
		if ss == nil {
			if ss, err = t.resume(tx.Study().Sampler); err != nil {
				return err
			}
		}
		result := search.Result{Failed: true}
		values := make([]float64, len(vals))
		ok := true
		for i, v := range vals {
			if len(v) == 0 {
				ok = false
				break
			}
			values[i] = median(v)
		}
		if ok {
			result = search.Result{Values: values, Violation: t.violation(values)}
		}
		if err := ss.Tell(tr.Number, result); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		tr.State = string(search.Complete)
		if result.Failed {
			tr.State = string(search.Failed)
		}
		if err := tx.PutTrial(tr); err != nil {
			return err
		}
	}
	if ss == nil {
		return nil
	}
	return t.save(tx, ss)
}

// violation is the sum of the relative excesses of the SLOs naming an
// objective (0 when all hold).
func (t *Tuning) violation(values []float64) float64 {
	v := 0.0
	for _, s := range t.slos {
		for i, o := range t.opts.Objectives {
			if o.Name != s.Name {
				continue
			}
			if !s.Holds(values[i]) && s.Bound != 0 {
				v += math.Abs(values[i]-s.Bound) / math.Abs(s.Bound)
			}
		}
	}
	return v
}

// Claimed returns the running run id with its configuration, for the
// driver that holds it to record it (pareto tell names the run it was
// asked). A run that is not running is ErrLeaseLost.
func (t *Tuning) Claimed(ctx context.Context, id int64) (Run, error) {
	var found *tunequeue.Run
	err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		runs, err := tx.Runs()
		if err != nil {
			return err
		}
		for i := range runs {
			if runs[i].ID == id {
				found = &runs[i]
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return Run{}, err
	case found == nil:
		return Run{}, fmt.Errorf("tune: study %q has no run %d", t.study, id)
	case found.State != tunequeue.RunRunning:
		return Run{}, fmt.Errorf("tune: run %d is %s: %w", id, found.State, tunequeue.ErrLeaseLost)
	}
	return t.run(ctx, *found)
}

// Session returns the study's session number (0 before StartSession).
func (t *Tuning) Session(ctx context.Context) (int, error) {
	n := 0
	err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error { n = tx.Study().Session; return nil })
	return n, err
}
