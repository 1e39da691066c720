package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// AskSpec creates a tuning study on its first ask, as the user writes it:
// the strings of pareto ask's flags (or of the MCP ask tool's arguments).
// A spec without Space opens the study as it is kept (OpenExisting),
// with its Budget and MaxAttempts, when set, as the study's new ones.
type AskSpec struct {
	// Space is the search space's TOML file.
	Space string
	// Objectives, Noise, MinImprove and SLOs are validated by
	// query.DecideObjectives.
	Objectives, Noise, MinImprove, SLOs []string
	// Budget is the number of runs of the study in all (0: the study's;
	// required when creating it).
	Budget int
	// MaxAttempts is how many times a run is handed out before a lost
	// lease fails it (0: the study's, tunequeue.DefaultMaxAttempts when
	// creating it).
	MaxAttempts int
	// Sampler, Seed, Repeats and MaxRuns are Options' (zero: the defaults).
	Sampler string
	Seed    uint64
	Repeats int
	MaxRuns int
}

// OpenSpec opens the study's tuning state: the existing one when
// spec.Space is empty (an error wrapping tunequeue.ErrNoTune when there is
// none), else the study created (or resumed) from the spec. Errors in the
// spec's values are *field.Error.
func OpenSpec(ctx context.Context, st Store, study string, spec AskSpec) (*Tuning, error) {
	limits := Limits{Budget: spec.Budget, MaxAttempts: spec.MaxAttempts}
	if err := checkLimits(limits); err != nil {
		return nil, err
	}
	if spec.Space == "" {
		t, err := OpenExisting(ctx, st, study)
		if err != nil {
			return nil, err
		}
		if err := t.SetLimits(ctx, limits); err != nil {
			return nil, err
		}
		return t, nil
	}
	if len(spec.Objectives) == 0 {
		return nil, field.Required("objectives")
	}
	objs, slos, err := query.DecideObjectives(spec.Objectives, spec.Noise, spec.MinImprove, spec.SLOs)
	if err != nil {
		return nil, err
	}
	space, text, err := search.ReadSpaceText(spec.Space)
	if err != nil {
		return nil, err
	}
	opts := Options{Sampler: spec.Sampler, Seed: spec.Seed, Objectives: objs, Repeats: spec.Repeats, MaxRuns: spec.MaxRuns,
		SpaceFile: spec.Space, SpaceText: text}
	for _, s := range slos {
		opts.SLOs = append(opts.SLOs, s.String())
	}
	t, err := Open(ctx, st, study, space, opts, spec.Budget)
	if err != nil {
		return nil, err
	}
	if err := t.SetLimits(ctx, Limits{MaxAttempts: spec.MaxAttempts}); err != nil {
		return nil, err
	}
	return t, nil
}

// AskResult is an ask's answer (docs/schema/ask.schema.json): the run to
// measure, its configuration and the environment pareto tune would set.
type AskResult struct {
	Study   string            `json:"study" jsonschema:"the tuning study"`
	Run     int64             `json:"trial" jsonschema:"the run's ID, what tell takes"`
	Number  int               `json:"configuration" jsonschema:"the configuration's number (-1: the baseline)"`
	Role    string            `json:"role" jsonschema:"baseline or candidate"`
	Session int               `json:"session" jsonschema:"the measurement session"`
	Params  search.Config     `json:"params" jsonschema:"the parameters to run with"`
	Env     map[string]string `json:"env" jsonschema:"the environment variables pareto tune would set"`
	// Driver holds the run until LeaseUntil; Attempt counts the times the
	// run was handed out (tell takes it, to be refused once the run was
	// handed out again); Resumed is set when the run was already the
	// driver's (handed out before and not told: a restarted driver's).
	Driver     string    `json:"driver" jsonschema:"the driver that holds the run"`
	Attempt    int       `json:"attempt" jsonschema:"the run's attempt: give it to tell"`
	LeaseUntil time.Time `json:"lease_until" jsonschema:"when the lease of the run ends: after it the run may be handed out again"`
	Resumed    bool      `json:"resumed" jsonschema:"the run was already this driver's (handed out before, not told)"`
}

// AskWorker is the worker name, in the store, of the default ask/tell
// driver (DefaultDriver); another driver's is "ask:ID" (DriverWorker).
const AskWorker = "ask"

// DefaultDriver is the driver ID of pareto ask and tell (and of the MCP
// tools) without --driver: a driver restarted with the default gets its
// own runs back.
const DefaultDriver = "ask"

// DefaultAskLease is the lease of a run handed out by ask: long enough
// for a benchmark.
const DefaultAskLease = time.Hour

// AskOptions are what an ask/tell driver is: its ID and the lease of the
// runs it is handed.
type AskOptions struct {
	// Driver is the driver's ID (DefaultDriver when empty). One driver
	// measures its runs one at a time: Ask hands it its outstanding run
	// again before a new one; a driver running runs in parallel gives
	// each of its lanes an ID of its own.
	Driver string
	// Lease is the lease of the run (DefaultAskLease when zero).
	Lease time.Duration
}

// DriverWorker is the worker name, in the store, of the ask/tell driver
// ID: AskWorker for the default driver, "ask:ID" for another. An ID that
// is too long or holds control characters is a *field.Error on driver.
func DriverWorker(driver string) (string, error) {
	if driver == "" || driver == DefaultDriver {
		return AskWorker, nil
	}
	if len(driver) > 100 || strings.ContainsFunc(driver, func(r rune) bool { return r < ' ' || r == 0x7f || r == utf8.RuneError }) {
		return "", field.Wrap("driver", driver, errors.New("want at most 100 printable characters"))
	}
	return AskWorker + ":" + driver, nil
}

// Ask gives the external driver o.Driver a run to measure, leased to it
// for o.Lease, starting the first session when there is none: the
// oldest run it holds and has not told (a driver that was restarted gets
// it back, its lease renewed, the same attempt), else the next run
// (Next: a queued run, one whose lease expired first, else a new
// configuration's). When the budget is spent the error says so
// (ErrBudget, or ErrPending while other drivers hold runs).
func (t *Tuning) Ask(ctx context.Context, o AskOptions) (AskResult, error) {
	worker, err := DriverWorker(o.Driver)
	if err != nil {
		return AskResult{}, err
	}
	lease := o.Lease
	if lease <= 0 {
		lease = DefaultAskLease
	}
	if n, err := t.Session(ctx); err != nil {
		return AskResult{}, err
	} else if n == 0 {
		if _, err := t.StartSession(ctx); err != nil {
			return AskResult{}, err
		}
	}
	until := time.Now().Add(lease) // the lease lasts at least this long
	r, resumed, err := t.outstanding(ctx, worker, lease)
	if err == nil && !resumed {
		r, err = t.Next(ctx, worker, lease)
	}
	if err != nil {
		return AskResult{}, err
	}
	driver := o.Driver
	if driver == "" {
		driver = DefaultDriver
	}
	out := AskResult{Study: t.study, Run: r.ID, Number: r.Trial, Role: r.Role, Session: r.Session, Params: r.Config, Env: map[string]string{},
		Driver: driver, Attempt: r.Attempt, LeaseUntil: until.UTC().Truncate(time.Second), Resumed: resumed}
	if out.Params == nil {
		out.Params = search.Config{}
	}
	for _, kv := range Env(r) {
		k, v, _ := strings.Cut(kv, "=")
		out.Env[k] = v
	}
	return out, nil
}

// outstanding renews the lease of the oldest run worker holds and
// returns it (ok false when it holds none).
func (t *Tuning) outstanding(ctx context.Context, worker string, lease time.Duration) (Run, bool, error) {
	for {
		var held *tunequeue.Run
		err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
			held = nil
			runs, err := tx.Runs()
			for i := range runs {
				if runs[i].State == tunequeue.RunRunning && runs[i].Worker == worker {
					held = &runs[i]
					break
				}
			}
			return err
		})
		if err != nil || held == nil {
			return Run{}, false, err
		}
		// Its lease may have expired and the run been handed out since.
		if err := t.st.RenewRun(ctx, t.study, held.ID, worker, lease); errors.Is(err, tunequeue.ErrLeaseLost) {
			continue
		} else if err != nil {
			return Run{}, false, err
		}
		r, err := t.run(ctx, *held)
		return r, err == nil, err
	}
}

// Limits are a study's budget and max attempts; zero keeps the study's.
type Limits struct {
	// Budget is the number of runs of the study in all.
	Budget int
	// MaxAttempts is how many times a run is handed out (claimed) before
	// a lost lease fails it.
	MaxAttempts int
}

// checkLimits refuses a negative limit (a *field.Error on budget or
// max_attempts).
func checkLimits(l Limits) error {
	switch {
	case l.Budget < 0:
		return &field.Error{Field: "budget", Value: strconv.Itoa(l.Budget), Err: errors.New("want at least 1 run")}
	case l.MaxAttempts < 0:
		return &field.Error{Field: "max_attempts", Value: strconv.Itoa(l.MaxAttempts), Err: errors.New("want at least 1")}
	}
	return nil
}

// SetLimits changes the study's budget and max attempts (a zero field
// keeps the study's; a negative one is a *field.Error). The budget may be
// raised or lowered; runs already queued or started are kept.
func (t *Tuning) SetLimits(ctx context.Context, l Limits) error {
	if err := checkLimits(l); err != nil {
		return err
	}
	if l.Budget == 0 && l.MaxAttempts == 0 {
		return nil
	}
	return t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		ts := tx.Study()
		if l.Budget > 0 && l.Budget != ts.Budget {
			if err := tx.SetBudget(l.Budget); err != nil {
				return err
			}
		}
		if l.MaxAttempts > 0 && l.MaxAttempts != ts.MaxAttempts {
			return tx.SetMaxAttempts(l.MaxAttempts)
		}
		return nil
	})
}

// TellResult is a tell's answer (docs/schema/tell.schema.json): the
// gate's feedback on the run's configuration.
type TellResult struct {
	Study  string `json:"study" jsonschema:"the tuning study"`
	Run    int64  `json:"trial" jsonschema:"the run told"`
	Number int    `json:"configuration" jsonschema:"the run's configuration"`
	Role   string `json:"role" jsonschema:"baseline or candidate"`
	// Decision is admit, reject or inconclusive (the verdict's), none
	// (runs still to measure) or failed.
	Decision string `json:"decision" jsonschema:"admit, reject, inconclusive, none (runs still to measure) or failed"`
	// Verdict is the gate's verdict, when it judged.
	Verdict   *decide.Verdict `json:"verdict" jsonschema:"the gate's verdict (null when it did not judge)"`
	GateError string          `json:"gate_error,omitempty" jsonschema:"why the gate could not judge"`
	Queued    int             `json:"queued_runs" jsonschema:"runs the verdict queued: ask again"`
	Stalled   string          `json:"stalled,omitempty" jsonschema:"why the runs an inconclusive verdict asks for were not queued (an archive member this study cannot run)"`
	// Mismatches are the parameters the result files record with another
	// value than the run's configuration (Stamp): the run's are recorded.
	Mismatches []Mismatch `json:"mismatches,omitempty" jsonschema:"parameters the result files record with another value than the run's configuration (the run's values are recorded, the files' kept as labels)"`
}

// TellInput is what a driver tells of a run.
type TellInput struct {
	// Driver is the ID of the driver that tells (DefaultDriver when
	// empty): it must hold the run.
	Driver string
	// Attempt, when not zero, is the attempt ask handed out (AskResult's):
	// a run handed out again since is refused.
	Attempt int
	// Failed, when set, records the run as failed for this reason.
	Failed string
	// Source names where the trials were read (default "tell:run-ID").
	Source string
	// Trials are the trials read from the run's result files.
	Trials []trial.Trial
	// Values are measurements NAME=X (see ValueTrial), one more trial.
	Values []string
}

// IncompleteError is a tell refused because what it tells lacks
// objectives of the study: nothing was recorded, the run is still the
// driver's to tell.
type IncompleteError struct {
	Run int64
	// Missing are the objectives absent or not finite in a trial told
	// (every objective when no trial was told).
	Missing []string
	// Trials is the number of trials told.
	Trials int
}

func (e *IncompleteError) Error() string {
	if e.Trials == 0 {
		return fmt.Sprintf("tune: run %d: nothing told holds a measurement (want %s): nothing recorded", e.Run, strings.Join(e.Missing, ", "))
	}
	return fmt.Sprintf("tune: run %d: objective %s missing or not finite in what was told: nothing recorded; tell the run again with every objective",
		e.Run, strings.Join(e.Missing, ", "))
}

// Tell records what run id measured (see Record) and returns the gate's
// feedback; with in.Failed set it records the run as failed instead.
//
// Only the driver that holds the run may tell it (in.Driver, and
// in.Attempt when set): a run whose lease expired and that was handed
// out again, to another driver or in another attempt, is refused
// (tunequeue.ErrLeaseLost). A tell is complete or refused: every objective of
// the study present and finite in every trial told, else an
// *IncompleteError and nothing recorded. A tell of a run an earlier tell
// recorded trials of (it was killed before completing the run) completes
// the run with those trials; what it tells is not recorded again.
func (t *Tuning) Tell(ctx context.Context, id int64, in TellInput) (TellResult, error) {
	worker, err := DriverWorker(in.Driver)
	if err != nil {
		return TellResult{}, err
	}
	if in.Attempt < 0 {
		return TellResult{}, &field.Error{Field: "attempt", Value: strconv.Itoa(in.Attempt), Err: errors.New("want the attempt ask gave")}
	}
	r, err := t.Claimed(ctx, id)
	if err != nil {
		if errors.Is(err, tunequeue.ErrLeaseLost) {
			err = fmt.Errorf("%w (tell it only once, while its lease holds: ask for a run again)", err)
		}
		return TellResult{}, err
	}
	out := TellResult{Study: t.study, Run: r.ID, Number: r.Trial, Role: r.Role, Decision: "none"}
	switch {
	case r.Worker != worker:
		return out, fmt.Errorf("tune: run %d is held by %s, not by this driver (%s): its lease expired and it was handed out again: %w",
			id, r.Worker, worker, tunequeue.ErrLeaseLost)
	case in.Attempt != 0 && in.Attempt != r.Attempt:
		return out, fmt.Errorf("tune: run %d was handed out again (attempt %d) since attempt %d was: its lease expired: %w",
			id, r.Attempt, in.Attempt, tunequeue.ErrLeaseLost)
	}
	if in.Failed != "" {
		if err := t.Fail(ctx, r, in.Failed); err != nil {
			return out, err
		}
		out.Decision = "failed"
		return out, nil
	}
	trials := in.Trials
	if len(in.Values) > 0 {
		tr, err := ValueTrial(r, in.Values)
		if err != nil {
			return out, err
		}
		trials = append(slices.Clip(trials), tr)
	}
	if missing := t.missing(trials); len(missing) > 0 {
		return out, &IncompleteError{Run: id, Missing: missing, Trials: len(trials)}
	}
	source := in.Source
	if source == "" {
		source = "tell:run-" + strconv.FormatInt(id, 10)
	}
	// An earlier tell of the run that was killed after recording its
	// trials: the run is completed with them, not measured twice.
	if done, err := t.Recorded(ctx, r); err != nil {
		return out, err
	} else if len(done) > 0 {
		trials = done
	}
	fb, err := t.Record(ctx, r, source, trials)
	if err != nil {
		return out, err
	}
	out.Queued, out.GateError, out.Stalled, out.Mismatches = fb.Queued, fb.GateError, fb.Stalled, fb.Mismatches
	if fb.Verdict != nil {
		out.Decision, out.Verdict = string(fb.Verdict.Decision), fb.Verdict
	}
	return out, nil
}

// missing returns the objectives of the study that a trial of trials
// lacks or holds a value that is not finite of (all of them when trials
// is empty), in the study's order.
func (t *Tuning) missing(trials []trial.Trial) []string {
	var out []string
	for _, o := range t.opts.Objectives {
		sel, err := trial.ParseSelector(o.Name)
		ok := err == nil && len(trials) > 0
		r := trial.NewResolver(sel)
		for j := 0; ok && j < len(trials); j++ {
			m, err := r.Resolve(&trials[j])
			ok = err == nil && !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0)
		}
		if !ok {
			out = append(out, o.Name)
		}
	}
	return out
}

// ValueTrial is the trial of measurements NAME=X (NAME a metric selector
// such as ttft.p99) of run r: the run's parameters and the values. Errors
// are *field.Error on value, quoting the measurement.
func ValueTrial(r Run, values []string) (trial.Trial, error) {
	tr := trial.Trial{Params: map[string]string{}, Source: trial.Source{Path: "tell:run-" + strconv.FormatInt(r.ID, 10), Format: "tell"}}
	for name, v := range r.Config {
		tr.Params[name] = v.String()
	}
	for _, kv := range values {
		name, text, ok := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if !ok || err != nil {
			return tr, field.Wrap("value", kv, errors.New("want NAME=NUMBER"))
		}
		sel, err := trial.ParseSelector(name)
		if err != nil {
			return tr, field.Wrap("value", kv, err)
		}
		m := trial.Measurement{Metric: sel.Metric, Value: x, Native: sel.Name}
		if sel.Statistic != "" {
			m.Dims = trial.StatDims(sel.Statistic)
		}
		tr.Measurements = append(tr.Measurements, m)
	}
	return tr, nil
}
