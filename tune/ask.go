package tune

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// AskSpec creates a tuning study on its first ask, as the user writes it:
// the strings of pareto ask's flags (or of the MCP ask tool's arguments).
// A spec without Space opens the study as it is kept (OpenExisting).
type AskSpec struct {
	// Space is the search space's TOML file.
	Space string
	// Objectives, Noise, MinImprove and SLOs are validated by
	// query.DecideObjectives.
	Objectives, Noise, MinImprove, SLOs []string
	// Budget is the number of runs of the study in all.
	Budget int
	// Sampler, Seed, Repeats and MaxRuns are Options' (zero: the defaults).
	Sampler string
	Seed    uint64
	Repeats int
	MaxRuns int
}

// OpenSpec opens the study's tuning state: the existing one when
// spec.Space is empty (an error wrapping store.ErrNoTune when there is
// none), else the study created (or resumed) from the spec. Errors in the
// spec's values are marked query.ErrUsage.
func OpenSpec(ctx context.Context, st store.Store, study string, spec AskSpec) (*Tuning, error) {
	if spec.Space == "" {
		return OpenExisting(ctx, st, study)
	}
	if len(spec.Objectives) == 0 {
		return nil, fmt.Errorf("%w: give the objectives with -o NAME:min|max", query.ErrUsage)
	}
	objs, slos, err := query.DecideObjectives(spec.Objectives, spec.Noise, spec.MinImprove, spec.SLOs)
	if err != nil {
		return nil, err
	}
	space, text, err := ReadSpace(spec.Space)
	if err != nil {
		return nil, err
	}
	opts := Options{Sampler: spec.Sampler, Seed: spec.Seed, Objectives: objs, Repeats: spec.Repeats, MaxRuns: spec.MaxRuns,
		SpaceFile: spec.Space, SpaceText: text}
	for _, s := range slos {
		opts.SLOs = append(opts.SLOs, s.String())
	}
	return Open(ctx, st, study, space, opts, spec.Budget)
}

// ReadSpace reads a search space file and keeps its text.
func ReadSpace(path string) (*search.Space, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("reading search space: %w", err)
	}
	space, err := search.ParseSpace(path, b)
	if err != nil {
		return nil, "", err
	}
	return space, string(b), nil
}

// AskResult is an ask's answer (docs/schema/ask.schema.json): the run to
// measure, its configuration and the environment pareto tune would set.
type AskResult struct {
	Study   string            `json:"study" jsonschema:"the tuning study"`
	Run     int64             `json:"trial" jsonschema:"the run's ID, what tell takes"`
	Number  int               `json:"configuration" jsonschema:"the configuration's number (0: the baseline)"`
	Role    string            `json:"role" jsonschema:"baseline or candidate"`
	Session int               `json:"session" jsonschema:"the measurement session"`
	Params  search.Config     `json:"params" jsonschema:"the parameters to run with"`
	Env     map[string]string `json:"env" jsonschema:"the environment variables pareto tune would set"`
}

// AskWorker is the worker the runs an external driver asks for are
// claimed by (pareto ask's and the MCP ask tool's).
const AskWorker = "ask"

// Ask gives an external driver the study's next run, claimed by worker
// without a lease, starting the first session when there is none. When
// the budget is spent the error says so.
func (t *Tuning) Ask(ctx context.Context, worker string) (AskResult, error) {
	if n, err := t.Session(ctx); err != nil {
		return AskResult{}, err
	} else if n == 0 {
		if _, err := t.StartSession(ctx); err != nil {
			return AskResult{}, err
		}
	}
	r, err := t.Next(ctx, worker, 0)
	if err != nil {
		return AskResult{}, err
	}
	out := AskResult{Study: t.study, Run: r.ID, Number: r.Trial, Role: r.Role, Session: r.Session, Params: r.Config, Env: map[string]string{}}
	if out.Params == nil {
		out.Params = search.Config{}
	}
	for _, kv := range Env(r) {
		k, v, _ := strings.Cut(kv, "=")
		out.Env[k] = v
	}
	return out, nil
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
	// Failed, when set, records the run as failed for this reason.
	Failed string
	// Source names where the trials were read (default "tell:run-ID").
	Source string
	// Trials are the trials read from the run's result files.
	Trials []trial.Trial
	// Values are measurements NAME=X (see ValueTrial), one more trial.
	Values []string
}

// Tell records what run id measured (see Record) and returns the gate's
// feedback; with in.Failed set it records the run as failed instead.
func (t *Tuning) Tell(ctx context.Context, id int64, in TellInput) (TellResult, error) {
	r, err := t.Claimed(ctx, id)
	if err != nil {
		return TellResult{}, err
	}
	out := TellResult{Study: t.study, Run: r.ID, Number: r.Trial, Role: r.Role, Decision: "none"}
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
	source := in.Source
	if source == "" {
		source = "tell:run-" + strconv.FormatInt(id, 10)
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

// ValueTrial is the trial of measurements NAME=X (NAME a metric selector
// such as ttft.p99) of run r: the run's parameters and the values. Errors
// are marked query.ErrUsage and quote the measurement.
func ValueTrial(r Run, values []string) (trial.Trial, error) {
	tr := trial.Trial{Params: map[string]string{}, Source: trial.Source{Path: "tell:run-" + strconv.FormatInt(r.ID, 10), Format: "tell"}}
	for name, v := range r.Config {
		tr.Params[name] = v.String()
	}
	for _, kv := range values {
		name, text, ok := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if !ok || err != nil {
			return tr, fmt.Errorf("%w: --value %q: want NAME=NUMBER", query.ErrUsage, kv)
		}
		sel, err := trial.ParseSelector(name)
		if err != nil {
			return tr, fmt.Errorf("%w: --value %q: %w", query.ErrUsage, kv, err)
		}
		m := trial.Measurement{Metric: sel.Metric, Value: x, Native: sel.Name}
		if sel.Statistic != "" {
			m.Dims = trial.StatDims(sel.Statistic)
		}
		tr.Measurements = append(tr.Measurements, m)
	}
	return tr, nil
}
