package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// location is the store a tool's arguments name, else the server's.
func (t *tools) location(s string) string {
	if s == "" {
		s = t.opts.Store
	}
	return store.Location(s)
}

func requireStudy(study string) error {
	if study == "" {
		return errors.New("study is required")
	}
	return nil
}

// withStore opens the store that a tool's store argument arg names (the
// server's when empty) with open, store.Open to write or
// store.OpenReadOnly to read only, calls fn with it and closes it.
func withStore[S interface{ Close() error }, T any](ctx context.Context, t *tools, arg string,
	open func(context.Context, string) (S, error), fn func(S) (T, error)) (T, error) {
	st, err := open(ctx, t.location(arg))
	if err != nil {
		var zero T
		return zero, err
	}
	defer st.Close()
	return fn(st)
}

// parseWhere parses a tool's where argument.
func parseWhere(where []string) ([]trial.Condition, error) {
	conds, err := trial.ParseConditions(where)
	if err != nil {
		return nil, fmt.Errorf("where: %w", err)
	}
	return conds, nil
}

// AskInput are the ask tool's arguments (pareto ask's flags).
type AskInput struct {
	Store       string   `json:"store,omitempty" jsonschema:"store: a SQLite path or postgres:// URL (default: the server's)"`
	Study       string   `json:"study" jsonschema:"the tuning study"`
	Space       string   `json:"space,omitempty" jsonschema:"search space TOML file, to create the study on its first ask"`
	Objectives  []string `json:"objectives,omitempty" jsonschema:"objectives NAME:min|max (creating the study)"`
	Noise       []string `json:"noise,omitempty" jsonschema:"noise bands NAME=PCT or PCT (creating the study)"`
	MinImprove  []string `json:"min_improve,omitempty" jsonschema:"minimum improvements NAME=PCT or PCT (creating the study)"`
	SLOs        []string `json:"slos,omitempty" jsonschema:"bounds NAME<=VALUE (creating the study)"`
	Budget      int      `json:"budget,omitempty" jsonschema:"runs of the study in all (creating the study; later: a new budget)"`
	Sampler     string   `json:"sampler,omitempty" jsonschema:"nsga2 (default), sobol, random or grid (creating the study)"`
	Seed        uint64   `json:"seed,omitempty" jsonschema:"seed of the sampler (creating the study)"`
	Repeats     int      `json:"repeats,omitempty" jsonschema:"runs of each configuration (creating the study; default 3)"`
	MaxRuns     int      `json:"max_runs,omitempty" jsonschema:"runs of a configuration the gate may ask for (creating the study; default 10)"`
	MaxAttempts int      `json:"max_attempts,omitempty" jsonschema:"times a run is handed out before a lost lease fails it (creating the study: default 3; later: a new limit)"`
	Driver      string   `json:"driver,omitempty" jsonschema:"the driver's ID (default ask): the run it holds and has not told is given back first"`
	Lease       string   `json:"lease,omitempty" jsonschema:"lease of the run, a Go duration such as 30m (default 1h): after it the run may be handed out again"`
}

func (t *tools) addAsk(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "ask", Title: "Next run of a tuning study",
		Description: "Give the next run to measure in a tuning study: its trial ID (what tell takes), configuration, role, " +
			"parameters, and the driver, attempt and lease that hold it (the run this driver holds and has not told " +
			"comes back first). The first ask creates the study from space, objectives and budget; a later budget " +
			"changes it. Measure the run (for example with pareto simulate) and report it with tell before the lease " +
			"ends."}, nil, t.ask)
}

func (t *tools) ask(ctx context.Context, in AskInput) (tune.AskResult, error) {
	if err := requireStudy(in.Study); err != nil {
		return tune.AskResult{}, err
	}
	sc := scopeOf(ctx)
	if err := sc.storeAt(in.Store); err != nil {
		return tune.AskResult{}, err
	}
	if in.Space != "" {
		if err := sc.read("space", in.Space); err != nil {
			return tune.AskResult{}, err
		}
	}
	var lease time.Duration
	if in.Lease != "" {
		d, err := time.ParseDuration(in.Lease)
		if err != nil || d < time.Second {
			return tune.AskResult{}, fmt.Errorf("lease %q: want a duration of at least 1s, such as 30m", in.Lease)
		}
		lease = d
	}
	if in.Budget < 0 || in.MaxAttempts < 0 {
		return tune.AskResult{}, fmt.Errorf("budget %d, max_attempts %d: want at least 1 (or none: the study's)", in.Budget, in.MaxAttempts)
	}
	return withStore(ctx, t, in.Store, store.Open, func(st store.Store) (tune.AskResult, error) {
		tu, err := tune.OpenSpec(ctx, st, in.Study, tune.AskSpec{Space: in.Space, Objectives: in.Objectives, Noise: in.Noise,
			MinImprove: in.MinImprove, SLOs: in.SLOs, Budget: in.Budget, MaxAttempts: in.MaxAttempts, Sampler: in.Sampler, Seed: in.Seed,
			Repeats: in.Repeats, MaxRuns: in.MaxRuns})
		if in.Space == "" && errors.Is(err, tunequeue.ErrNoTune) {
			return tune.AskResult{}, fmt.Errorf("study %q has no tuning state yet: give space, objectives and budget to create it", in.Study)
		}
		if err != nil {
			return tune.AskResult{}, err
		}
		return tu.Ask(ctx, tune.AskOptions{Driver: in.Driver, Lease: lease})
	})
}

// TellInput are the tell tool's arguments (pareto tell's).
type TellInput struct {
	Store   string             `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study   string             `json:"study" jsonschema:"the tuning study"`
	Trial   int64              `json:"trial" jsonschema:"the trial ID ask gave"`
	Files   []string           `json:"files,omitempty" jsonschema:"result files or directories of the run (read as pareto ingest reads them: a directory's benchmark results only)"`
	Values  map[string]float64 `json:"values,omitempty" jsonschema:"measurements by metric selector, such as {\"ttft.p99\": 180}"`
	Failed  string             `json:"failed,omitempty" jsonschema:"record the run as failed, for this reason"`
	Driver  string             `json:"driver,omitempty" jsonschema:"the driver that holds the run, as given to ask (default ask)"`
	Attempt int                `json:"attempt,omitempty" jsonschema:"the attempt ask gave: refused if the run was handed out again since"`
}

func (t *tools) addTell(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "tell", Title: "Record a run's measurement",
		Description: "Record the measurement of a run ask gave (result files, or values by metric selector), or that it " +
			"failed; the answer is the gate's verdict on its configuration: admit, reject, inconclusive (with the runs " +
			"it queued, of the configuration, the baseline or archive members: ask again; stalled says why none could " +
			"be queued), or none (runs still to measure). The trials recorded have the run's parameters, whatever the " +
			"files hold; mismatches lists the parameters a file records with another value (kept as tune_file.* labels). " +
			"A folder is read as pareto ingest reads it: only its benchmark results, not the logs or telemetry beside them. " +
			"Every objective of the study must be in what is told, else nothing is recorded; only the driver holding the " +
			"run may tell it."}, nil, t.tell)
}

func (t *tools) tell(ctx context.Context, in TellInput) (tune.TellResult, error) {
	if err := requireStudy(in.Study); err != nil {
		return tune.TellResult{}, err
	}
	if in.Trial < 1 {
		return tune.TellResult{}, fmt.Errorf("trial %d: want the trial ID ask gave", in.Trial)
	}
	if (len(in.Files) == 0 && len(in.Values) == 0) == (in.Failed == "") {
		return tune.TellResult{}, errors.New("give files or values, or failed")
	}
	if err := scopeOf(ctx).storeAt(in.Store); err != nil {
		return tune.TellResult{}, err
	}
	if err := scopeOf(ctx).reads("files", in.Files); err != nil {
		return tune.TellResult{}, err
	}
	ti := tune.TellInput{Driver: in.Driver, Attempt: in.Attempt, Failed: in.Failed}
	for _, name := range slices.Sorted(maps.Keys(in.Values)) {
		ti.Values = append(ti.Values, name+"="+strconv.FormatFloat(in.Values[name], 'g', -1, 64))
	}
	if len(in.Files) > 0 && in.Failed == "" {
		srcs, err := source.Files(ctx, in.Files, source.LoadOptions{Limits: t.opts.Limits})
		if err != nil {
			return tune.TellResult{}, err
		}
		for _, s := range srcs {
			ti.Trials = append(ti.Trials, s.Trials...)
		}
		ti.Source = strings.Join(in.Files, " ")
	}
	out, err := withStore(ctx, t, in.Store, store.Open, func(st store.Store) (tune.TellResult, error) {
		tu, err := tune.OpenExisting(ctx, st, in.Study)
		if err != nil {
			return tune.TellResult{}, err
		}
		return tu.Tell(ctx, in.Trial, ti)
	})
	if inc, ok := errors.AsType[*tune.IncompleteError](err); ok {
		arg := "files"
		if len(in.Values) > 0 {
			arg = "values"
		}
		return out, fmt.Errorf("%s: %w", arg, inc)
	}
	out.Stalled = decide.PhraseFields(out.Stalled, argName) // in the tools' words
	return out, err
}

// GateInput are the gate tool's arguments (pareto gate's flags).
type GateInput struct {
	Store           string   `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study           string   `json:"study" jsonschema:"the study"`
	Candidate       []string `json:"candidate" jsonschema:"candidate result paths (recorded in the study) or one selection: KEY=VALUE, key:HEX or id:HEX"`
	Baseline        string   `json:"baseline" jsonschema:"baseline selection (KEY=VALUE, key:HEX, id:HEX) or result path"`
	Objectives      []string `json:"objectives" jsonschema:"objectives NAME:min|max, in order"`
	Noise           []string `json:"noise,omitempty" jsonschema:"noise bands NAME=PCT or PCT (default: the minimum improvement)"`
	MinImprove      []string `json:"min_improve,omitempty" jsonschema:"minimum improvements NAME=PCT or PCT"`
	SLOs            []string `json:"slos,omitempty" jsonschema:"bounds NAME<=VALUE"`
	Where           []string `json:"where,omitempty" jsonschema:"only stored trials matching KEY OP VALUE"`
	ConfigKey       []string `json:"config_key,omitempty" jsonschema:"the params that identify a configuration"`
	MinRepeats      int      `json:"min_repeats,omitempty" jsonschema:"runs required per workload on each side (default 3)"`
	Confidence      float64  `json:"confidence,omitempty" jsonschema:"1 minus the bound on false admits over every look and objective (default 0.99)"`
	Futility        float64  `json:"futility,omitempty" jsonschema:"interval level a fact against admission must reach (default 0.8)"`
	MaxRuns         int      `json:"max_runs,omitempty" jsonschema:"candidate runs per workload after which an undecided candidate is rejected (default 10)"`
	MaxBaselineRuns int      `json:"max_baseline_runs,omitempty" jsonschema:"baseline runs per workload the gate may ask for (default 20)"`
	NoRegression    bool     `json:"no_regression,omitempty" jsonschema:"reject an admit worse than the baseline beyond the noise band on any objective"`
	MinDuration     string   `json:"min_duration,omitempty" jsonschema:"refuse candidate runs shorter than this Go duration (e.g. 60s)"`
	MinRequests     int64    `json:"min_requests,omitempty" jsonschema:"refuse candidate runs with fewer successful requests"`
	AllowCrossScope bool     `json:"allow_cross_scope,omitempty" jsonschema:"use a baseline measured in another environment"`
	NoLabel         bool     `json:"no_label,omitempty" jsonschema:"do not record admission as a label"`
	Session         string   `json:"session,omitempty" jsonschema:"record the runs given as paths in this session (default: a new one)"`
	BaselineSession string   `json:"baseline_session,omitempty" jsonschema:"compare with the baseline runs of this session (default: its newest)"`
	Optuna          string   `json:"optuna,omitempty" jsonschema:"an Optuna RDB storage (a SQLite file in the roots, or an allowed PostgreSQL URL), read only: candidate and baseline are then selections of its study's trials (optuna_trial=N, params.NAME=V, a user attribute KEY=V)"`
	OptunaStudy     string   `json:"optuna_study,omitempty" jsonschema:"the Optuna study (default: the only one of the storage)"`
}

func (t *tools) addGate(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "gate", Title: "Judge a candidate change",
		Description: "Admit, reject or ask for more runs of a candidate against the baseline and the archive, as pareto " +
			"gate does: the verdict (docs/schema/gate.schema.json) with a stable code, reason codes, per-objective " +
			"status, delta and interval, regressions and the runs asked for. A refused question is a verdict with a " +
			"refused_* code, and records nothing."}, nil, t.gate)
}

func (t *tools) gate(ctx context.Context, in GateInput) (decide.Verdict, error) {
	spec := source.GateSpec{Study: in.Study, Where: in.Where, ConfigKeys: in.ConfigKey, Objectives: in.Objectives,
		Noise: in.Noise, MinImprove: in.MinImprove, SLOs: in.SLOs, Candidate: in.Candidate, Baseline: in.Baseline,
		MinRepeats: in.MinRepeats, Confidence: in.Confidence, Futility: in.Futility, MaxRuns: in.MaxRuns, MaxBaselineRuns: in.MaxBaselineRuns,
		NoRegression: in.NoRegression, MinRequests: in.MinRequests, AllowCrossScope: in.AllowCrossScope,
		NoLabel: in.NoLabel, Session: in.Session, BaselineSession: in.BaselineSession, Load: source.LoadOptions{Limits: t.opts.Limits},
		Optuna: in.Optuna, OptunaStudy: in.OptunaStudy}
	if spec.MinRepeats == 0 {
		spec.MinRepeats = source.DefaultGate.MinRepeats
	}
	if spec.Confidence == 0 {
		spec.Confidence = source.DefaultGate.Confidence
	}
	if spec.Futility == 0 {
		spec.Futility = source.DefaultGate.Futility
	}
	if spec.MaxRuns == 0 {
		spec.MaxRuns = source.DefaultGate.MaxRuns
	}
	if spec.MaxBaselineRuns == 0 {
		spec.MaxBaselineRuns = source.DefaultGate.MaxBaselineRuns
	}
	if in.MinDuration != "" {
		d, err := time.ParseDuration(in.MinDuration)
		if err != nil {
			return decide.Verdict{}, fmt.Errorf("min_duration %q: %w", in.MinDuration, err)
		}
		spec.MinDuration = d
	}
	if err := spec.Check(); err != nil {
		return decide.Verdict{}, err
	}
	sc := scopeOf(ctx)
	if err := sc.storeAt(in.Store); err != nil {
		return decide.Verdict{}, err
	}
	if err := sc.optunaAt(in.Optuna); err != nil {
		return decide.Verdict{}, err
	}
	if err := sc.side("candidate", in.Candidate); err != nil {
		return decide.Verdict{}, err
	}
	if err := sc.side("baseline", []string{in.Baseline}); err != nil {
		return decide.Verdict{}, err
	}
	req, err := spec.Request(ctx)
	if err != nil {
		return decide.Verdict{}, err
	}
	v, err := withStore(ctx, t, in.Store, store.Open, func(st store.Store) (decide.Verdict, error) {
		return decide.RunGate(ctx, store.Selecting{Store: st}, req)
	})
	if v.Decision != "" {
		return v, nil // a refusal is a verdict too
	}
	return v, err
}

// ArchiveInput are the archive tool's arguments (pareto gate
// --archive-list and --revoke).
type ArchiveInput struct {
	Store     string   `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study     string   `json:"study" jsonschema:"the study"`
	Where     []string `json:"where,omitempty" jsonschema:"only stored trials matching KEY OP VALUE"`
	ConfigKey []string `json:"config_key,omitempty" jsonschema:"the params that identify a configuration"`
	Revoke    string   `json:"revoke,omitempty" jsonschema:"remove the members this selection (key:HEX) selects from the archive; their runs stay"`
}

// ArchiveOutput is the archive tool's answer: pareto gate --archive-list's
// array (docs/schema/gate-archive.schema.json) as Members.
type ArchiveOutput struct {
	Members []decide.ArchiveMember `json:"members" jsonschema:"the archive's members (after a revoke: those removed)"`
}

func (t *tools) addArchive(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "archive", Title: "List or revoke archive members",
		Description: "List the study's archive members (the baseline and the admitted candidates the gate compares " +
			"with), read only; with revoke, remove the members it selects (their runs stay stored)."}, nil, t.archive)
}

func (t *tools) archive(ctx context.Context, in ArchiveInput) (ArchiveOutput, error) {
	if err := requireStudy(in.Study); err != nil {
		return ArchiveOutput{}, err
	}
	if err := scopeOf(ctx).storeAt(in.Store); err != nil {
		return ArchiveOutput{}, err
	}
	where, err := parseWhere(in.Where)
	if err != nil {
		return ArchiveOutput{}, err
	}
	var members []decide.ArchiveMember
	if in.Revoke == "" {
		members, err = withStore(ctx, t, in.Store, store.OpenReadOnly, func(st store.Reader) ([]decide.ArchiveMember, error) {
			return decide.RunArchive(ctx, store.ReaderSelecting{Reader: st}, in.Study, where, in.ConfigKey)
		})
	} else {
		sel, perr := repeat.ParseSelection(in.Revoke)
		if perr != nil {
			return ArchiveOutput{}, fmt.Errorf("revoke: %w", perr)
		}
		members, err = withStore(ctx, t, in.Store, store.Open, func(st store.Store) ([]decide.ArchiveMember, error) {
			return decide.Revoke(ctx, store.Selecting{Store: st}, in.Study, where, in.ConfigKey, sel)
		})
	}
	if err != nil {
		return ArchiveOutput{}, err
	}
	if members == nil {
		members = []decide.ArchiveMember{}
	}
	return ArchiveOutput{Members: members}, nil
}

// FrontInput are the front tool's arguments (pareto front's flags).
type FrontInput struct {
	Store           string   `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study           string   `json:"study,omitempty" jsonschema:"a study of the store (or give files)"`
	Files           []string `json:"files,omitempty" jsonschema:"result files, trees or tables (CSV, JSONL)"`
	Where           []string `json:"where,omitempty" jsonschema:"only stored trials matching KEY OP VALUE"`
	Objectives      []string `json:"objectives" jsonschema:"objectives NAME[:min|:max], in order"`
	Noise           []string `json:"noise,omitempty" jsonschema:"relative noise bands NAME=PCT, or PCT for every objective"`
	MinImprove      []string `json:"min_improve,omitempty" jsonschema:"minimum improvements NAME=PCT, or PCT for every objective"`
	SLOs            []string `json:"slos,omitempty" jsonschema:"feasibility bounds NAME<=VALUE (also <, >=, >)"`
	ID              string   `json:"id,omitempty" jsonschema:"trial id column of tables"`
	GroupBy         string   `json:"group_by,omitempty" jsonschema:"one frontier per value of this column"`
	Ranks           bool     `json:"ranks,omitempty" jsonschema:"report strict non-dominated ranks"`
	FrontierOnly    bool     `json:"frontier_only,omitempty" jsonschema:"the frontier and the size of every other list, not its members"`
	Ref             string   `json:"ref,omitempty" jsonschema:"hypervolume reference point: auto or v1,v2,..."`
	Aggregate       string   `json:"aggregate,omitempty" jsonschema:"combine repeats: median (default), mean or none"`
	ConfigKey       []string `json:"config_key,omitempty" jsonschema:"the params that identify a configuration"`
	Baseline        string   `json:"baseline,omitempty" jsonschema:"state every point's delta to this baseline selection"`
	AllowCrossScope bool     `json:"allow_cross_scope,omitempty" jsonschema:"allow a baseline measured in another environment"`
	KeepGoing       bool     `json:"keep_going,omitempty" jsonschema:"answer even when some inputs could not be read"`
}

func (t *tools) addFront(s *mcp.Server) error {
	out, err := published("front")
	if err != nil {
		return err
	}
	return add(t, s, &mcp.Tool{Name: "front", Title: "Pareto frontier of a study or of results",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "The trials worth keeping (strict or noise-aware Pareto frontier, SLOs first) and why every other " +
			"was left out, as pareto front --format json prints it (docs/schema/front.schema.json)."}, out, t.front)
}

func (t *tools) front(ctx context.Context, in FrontInput) (jsonRaw, error) {
	if err := studyOrFiles(ctx, in.Store, in.Study, in.Files); err != nil {
		return nil, err
	}
	q, err := query.Spec{Objectives: in.Objectives, Noise: in.Noise, MinImprove: in.MinImprove, SLOs: in.SLOs,
		ID: in.ID, GroupBy: in.GroupBy, Ranks: in.Ranks, FrontierOnly: in.FrontierOnly, Ref: in.Ref,
		Aggregate: in.Aggregate, ConfigKeys: in.ConfigKey, Baseline: in.Baseline, AllowCrossScope: in.AllowCrossScope}.Query()
	if err != nil {
		return nil, err
	}
	spec, err := t.inputs(in.Store, in.Study, in.Files, in.Where)
	if err != nil {
		return nil, err
	}
	spec.Load.Table.ID = in.ID
	res, bad, err := source.Front(ctx, spec, q)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 && !in.KeepGoing {
		return nil, source.Unreadable(bad)
	}
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		return nil, err
	}
	return jsonRaw(bytes.TrimSpace(b.Bytes())), nil
}

// studyOrFiles checks the arguments of a tool that reads a study or
// result files (front, pick): one of them is given, and the store and the
// files are within the call's scope.
func studyOrFiles(ctx context.Context, storeArg, study string, files []string) error {
	if study == "" && len(files) == 0 {
		return errors.New("give study or files")
	}
	if err := scopeOf(ctx).storeAt(storeArg); err != nil {
		return err
	}
	return scopeOf(ctx).reads("files", files)
}

// inputs is the source.Spec of a tool's study (its trials matching where,
// in the store storeArg names) or files (standard input is none).
func (t *tools) inputs(storeArg, study string, files, where []string) (source.Spec, error) {
	spec := source.Spec{Paths: files, Stdin: strings.NewReader(""), Study: study}
	spec.Load.Limits = t.opts.Limits
	if study != "" {
		spec.Store = t.location(storeArg)
		var err error
		if spec.Where, err = parseWhere(where); err != nil {
			return source.Spec{}, err
		}
	}
	return spec, nil
}

// jsonRaw is JSON written by the library (front's byte appender).
type jsonRaw = json.RawMessage

// PickInput are the pick tool's arguments (pareto pick's flags).
type PickInput struct {
	Store     string   `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study     string   `json:"study,omitempty" jsonschema:"a study of the store (or give files)"`
	Files     []string `json:"files,omitempty" jsonschema:"result files, trees or tables"`
	Where     []string `json:"where,omitempty" jsonschema:"only stored trials matching KEY OP VALUE"`
	ConfigKey []string `json:"config_key,omitempty" jsonschema:"the params that identify a configuration"`
	Maximize  []string `json:"maximize,omitempty" jsonschema:"objectives to maximise (the first is primary)"`
	Minimize  []string `json:"minimize,omitempty" jsonschema:"objectives to minimise (primary when nothing is maximised)"`
	SLOs      []string `json:"slos,omitempty" jsonschema:"bounds NAME<=VALUE every workload of the configuration must meet"`
	Aggregate string   `json:"aggregate,omitempty" jsonschema:"repeats become median (default), mean or none"`
	Relax     string   `json:"relax,omitempty" jsonschema:"price each binding bound by relaxing it by this percentage (default 10%)"`
}

func (t *tools) addPick(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "pick", Title: "Choose the configuration to deploy",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Choose one configuration among those meeting every SLO at every workload they were measured on: " +
			"the best on the primary objective, with what relaxing each binding bound would buy; when nothing is " +
			"feasible, feasible is false and closest lists the nearest misses (docs/schema/pick.schema.json)."}, nil, t.pick)
}

func (t *tools) pick(ctx context.Context, in PickInput) (decide.PickOutput, error) {
	if err := studyOrFiles(ctx, in.Store, in.Study, in.Files); err != nil {
		return decide.PickOutput{}, err
	}
	req, err := decide.PickSpec{Maximize: in.Maximize, Minimize: in.Minimize, SLOs: in.SLOs, Aggregate: in.Aggregate,
		Relax: in.Relax, ConfigKeys: in.ConfigKey}.Request()
	if err != nil {
		return decide.PickOutput{}, err
	}
	spec, err := t.inputs(in.Store, in.Study, in.Files, in.Where)
	if err != nil {
		return decide.PickOutput{}, err
	}
	set, err := source.Trials(ctx, spec)
	if errors.Is(err, store.ErrNoStudy) {
		return decide.PickOutput{}, fmt.Errorf("study %q does not exist", in.Study)
	}
	if err != nil {
		return decide.PickOutput{}, err
	}
	if err := source.Unreadable(set.Skipped); err != nil {
		return decide.PickOutput{}, err
	}
	rep, err := decide.RunPick(set.Trials, req)
	if err != nil {
		return decide.PickOutput{}, err
	}
	return decide.NewPickOutput(rep, req), nil
}

// TrialsInput are the trials tool's arguments (pareto trials').
type TrialsInput struct {
	Store string   `json:"store,omitempty" jsonschema:"store (default: the server's)"`
	Study string   `json:"study" jsonschema:"the study"`
	Where []string `json:"where,omitempty" jsonschema:"KEY OP VALUE on labels, params, workload or environment; session=NAME; key=HEX"`
	Limit int      `json:"limit,omitempty" jsonschema:"at most this many trials (default 1000)"`
}

// TrialsOutput is the trials tool's answer: the trials pareto trials
// exports, one per element.
type TrialsOutput struct {
	Trials []trial.Trial `json:"trials" jsonschema:"the trials, as pareto trials exports them"`
	// Truncated says that more trials matched than Limit.
	Truncated bool `json:"truncated" jsonschema:"more trials matched than the limit"`
}

// DefaultTrialsLimit is the trials tool's default limit.
const DefaultTrialsLimit = 1000

func (t *tools) addTrials(s *mcp.Server) error {
	return add(t, s, &mcp.Tool{Name: "trials", Title: "A study's trials",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Export a study's trials filtered by where (labels, params, workload, environment, session=NAME, " +
			"key=HEX of a configuration or repeat key), as pareto trials does, up to limit."}, nil, t.trials)
}

var errLimit = errors.New("limit reached")

func (t *tools) trials(ctx context.Context, in TrialsInput) (TrialsOutput, error) {
	if err := requireStudy(in.Study); err != nil {
		return TrialsOutput{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultTrialsLimit
	}
	if err := scopeOf(ctx).storeAt(in.Store); err != nil {
		return TrialsOutput{}, err
	}
	q, keep, err := source.TrialFilter(in.Where)
	if err != nil {
		return TrialsOutput{}, err
	}
	return withStore(ctx, t, in.Store, store.OpenReadOnly, func(st store.Reader) (TrialsOutput, error) {
		out := TrialsOutput{Trials: []trial.Trial{}}
		err := st.Scan(ctx, in.Study, q, func(ts []trial.Trial) error {
			for i := range ts {
				if !keep(&ts[i]) {
					continue
				}
				if len(out.Trials) == limit {
					out.Truncated = true
					return errLimit
				}
				out.Trials = append(out.Trials, ts[i])
			}
			return nil
		})
		if err != nil && !errors.Is(err, errLimit) {
			return TrialsOutput{}, err
		}
		return out, nil
	})
}
