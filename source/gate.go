package source

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Files reads result paths (tables included) with opts, one decide.Source
// per path; an input that cannot be read, or yields no trial, is an error
// naming it.
func Files(ctx context.Context, paths []string, opts LoadOptions) ([]decide.Source, error) {
	var out []decide.Source
	for _, p := range paths {
		set, err := Trials(ctx, Spec{Paths: []string{p}, Load: opts})
		if err != nil {
			return nil, err
		}
		if err := Unreadable(set.Skipped); err != nil {
			return nil, err
		}
		out = append(out, decide.Source{Path: p, Trials: set.Trials})
	}
	return out, nil
}

// GateSpec is a gate question as the user writes it: the strings of
// pareto gate's flags (or of the MCP gate tool's arguments). Request turns
// it into a decide.GateRequest; it is the one place that does.
type GateSpec struct {
	Study string
	// Where are conditions KEY OP VALUE on the stored trials considered.
	Where []string
	// ConfigKeys are the params that identify a configuration.
	ConfigKeys []string
	// Objectives, Noise, MinImprove and SLOs are validated by
	// query.DecideObjectives.
	Objectives, Noise, MinImprove, SLOs []string
	// Candidate is result paths (recorded in the study), or one selection
	// of stored trials; Baseline is a selection or a result path.
	Candidate []string
	Baseline  string
	// MinRepeats, Confidence, Futility, MaxRuns, MaxBaselineRuns and
	// NoRegression are decide.GateConfig's; DefaultGate holds the
	// defaults.
	MinRepeats               int
	Confidence, Futility     float64
	MaxRuns, MaxBaselineRuns int
	NoRegression             bool
	// MinDuration and MinRequests refuse candidate runs too short.
	MinDuration time.Duration
	MinRequests int64
	// AllowCrossScope, NoLabel, Session and BaselineSession are
	// decide.GateRequest's.
	AllowCrossScope, NoLabel bool
	Session, BaselineSession string
	// Load reads the result files (limits, --gpus, --as table).
	Load LoadOptions
	// Optuna is an Optuna RDB storage (read only) and OptunaStudy its
	// study (default: the only one): with it, Candidate and Baseline are
	// selections of the study's complete trials (optuna_trial=N,
	// params.NAME=V, a user attribute KEY=V, key:HEX, id:HEX), and the
	// trials of the configurations they select are recorded in Study as
	// the runs of result paths are.
	Optuna, OptunaStudy string
}

// DefaultGate holds the defaults of a GateSpec's levels, repeats and caps
// (decide.DefaultGate's).
var DefaultGate = GateSpec{MinRepeats: decide.DefaultGate.MinRepeats, Confidence: decide.DefaultGate.Confidence,
	Futility: decide.DefaultGate.Futility, MaxRuns: decide.DefaultGate.MaxRuns, MaxBaselineRuns: decide.DefaultGate.MaxBaselineRuns}

// Check validates the spec's required values and ranges; errors are
// *field.Error on the fields (study, candidate, baseline, min_repeats,
// max_runs, max_baseline_runs, confidence, futility).
func (s *GateSpec) Check() error {
	switch {
	case s.Study == "":
		return field.Required("study")
	case len(s.Candidate) == 0:
		return field.Required("candidate")
	case s.Baseline == "":
		return field.Required("baseline")
	case s.MinRepeats < 1:
		return &field.Error{Field: "min_repeats", Reason: "must be at least 1"}
	case s.MaxRuns < s.MinRepeats:
		return &field.Error{Field: "max_runs", Reason: "must be at least %s", Others: []string{"min_repeats"}}
	case s.MaxBaselineRuns < s.MinRepeats:
		return &field.Error{Field: "max_baseline_runs", Reason: "must be at least %s", Others: []string{"min_repeats"}}
	case !(s.Confidence > 0 && s.Confidence < 1 && s.Futility > 0 && s.Futility < 1):
		return &field.Error{Field: "confidence", Reason: "and %s must be between 0 and 1", Others: []string{"futility"}}
	}
	return nil
}

// Request turns the spec into the library's question, reading the sides
// given as result paths. Errors in the spec's values are *field.Error; an
// unreadable result file is not.
func (s *GateSpec) Request(ctx context.Context) (decide.GateRequest, error) {
	objs, slos, err := query.DecideObjectives(s.Objectives, s.Noise, s.MinImprove, s.SLOs)
	if err != nil {
		return decide.GateRequest{}, err
	}
	where, err := trial.ParseConditions(s.Where)
	if err != nil {
		return decide.GateRequest{}, &field.Error{Field: "where", Err: err}
	}
	req := decide.GateRequest{Study: s.Study, Where: where, ConfigKeys: s.ConfigKeys,
		Gate: decide.GateConfig{Objectives: objs, SLOs: slos, MinRepeats: s.MinRepeats, Confidence: s.Confidence, Futility: s.Futility,
			MaxRuns: s.MaxRuns, MaxBaselineRuns: s.MaxBaselineRuns, NoRegression: s.NoRegression},
		MinDuration: s.MinDuration, MinRequests: s.MinRequests, AllowCrossScope: s.AllowCrossScope, NoLabel: s.NoLabel,
		Session: s.Session, BaselineSession: s.BaselineSession}
	if s.Optuna != "" {
		return s.optunaSides(ctx, req)
	}
	if req.Candidate, err = gateSide(ctx, "candidate", s.Candidate, s.Load); err != nil {
		return req, err
	}
	req.Baseline, err = gateSide(ctx, "baseline", []string{s.Baseline}, s.Load)
	return req, err
}

// optunaSides reads the Optuna study and makes each side its selection
// with, as sources to record, the study's trials of the configurations it
// selects (repeats grouped by s.ConfigKeys, as the gate groups them).
func (s *GateSpec) optunaSides(ctx context.Context, req decide.GateRequest) (decide.GateRequest, error) {
	sides := [...]struct {
		name  string
		specs []string
		side  *decide.GateSide
	}{{"candidate", s.Candidate, &req.Candidate}, {"baseline", []string{s.Baseline}, &req.Baseline}}
	for _, sd := range sides {
		switch {
		case len(sd.specs) != 1:
			return req, &field.Error{Field: sd.name, Reason: "must be one selection of the Optuna study's trials"}
		case len(PathsOf(sd.specs)) > 0:
			return req, &field.Error{Field: sd.name, Reason: "is a path; with an Optuna study it is a selection of the study's trials"}
		}
	}
	st, name, err := ReadOptuna(ctx, s.Optuna, s.OptunaStudy)
	if err != nil {
		return req, err
	}
	path := trial.RedactLocation(s.Optuna) + "#" + name // the trials' own, as pareto ingest --optuna records them
	if len(st.Trials) > 0 {
		path = st.Trials[0].Source.Path
	}
	groups := repeat.GroupRepeats(st.Trials, s.ConfigKeys)
	for _, sd := range sides {
		sel, err := repeat.ParseSelection(sd.specs[0])
		if err != nil {
			return req, &field.Error{Field: sd.name, Err: err}
		}
		src := decide.Source{Path: path}
		for _, g := range repeat.Select(groups, sel) {
			for _, t := range g.Trials {
				src.Trials = append(src.Trials, *t)
			}
		}
		*sd.side = decide.GateSide{Name: sel.Raw, Selection: sel, Sources: []decide.Source{src}}
	}
	return req, nil
}

// gateSide reads a side given as result paths, or parses its selection;
// name is its field.
func gateSide(ctx context.Context, name string, specs []string, opts LoadOptions) (decide.GateSide, error) {
	side := decide.GateSide{Name: strings.Join(specs, " ")}
	paths := PathsOf(specs)
	switch {
	case len(paths) > 0 && len(paths) != len(specs):
		return side, &field.Error{Field: name, Reason: "mixes paths and selections"}
	case len(paths) > 0:
		var err error
		side.Sources, err = Files(ctx, paths, opts)
		return side, err
	case len(specs) > 1:
		return side, &field.Error{Field: name, Err: errors.New("give one selection, or result paths")}
	}
	sel, err := repeat.ParseSelection(specs[0])
	if err != nil {
		return side, &field.Error{Field: name, Err: err}
	}
	side.Selection = sel
	return side, nil
}

// IsPath reports whether s names an existing file or directory (a gate
// side is result paths or a selection).
func IsPath(s string) bool {
	_, err := os.Stat(s)
	return err == nil
}

// PathsOf returns the elements of list that name existing files or
// directories.
func PathsOf(list []string) []string {
	var out []string
	for _, s := range list {
		if IsPath(s) {
			out = append(out, s)
		}
	}
	return out
}
