package decide

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// AdmittedLabel=AdmittedValue is the label RunGate sets on the stored
// trials of an admitted candidate; the archive is the configurations that
// carry it.
const AdmittedLabel, AdmittedValue = "gate", "admitted"

// Store is what RunGate asks of a trial store. Package store provides it
// as store.Selecting{Store: st}; decide itself links no database driver.
type Store interface {
	Selector
	// Ingest records the trials read from one source in the study
	// (created if needed), keeping trials already present once, and
	// returns how many were added and how many were present.
	Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error)
	// SetLabels merges labels into the stored labels of the study's trials
	// whose IDs are in ids, without changing their IDs, and returns how
	// many trials ids names.
	SetLabels(ctx context.Context, study string, ids []string, labels map[string]string) (int, error)
}

// Source is the trials read from one result path.
type Source struct {
	// Path names the source in the store.
	Path   string
	Trials []trial.Trial
}

// GateSide is the candidate or the baseline of a GateRequest: runs read
// from result paths, which RunGate records in the study first, or a
// selection of the stored trials.
type GateSide struct {
	// Name is how the side was given (its paths or its selection), for
	// messages; the verdict's Baseline is the baseline's Name. Empty means
	// Selection.Raw.
	Name string
	// Sources are the runs to record. When there are any and Selection is
	// zero, the side is the configuration of their trials (for the
	// baseline, that of the first trial).
	Sources []Source
	// Selection picks the side among the stored trials and the sources'
	// (an Optuna study's trials selected by number, params or user
	// attributes are recorded as sources and selected so).
	Selection repeat.Selection
}

func (s *GateSide) name() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Selection.Raw
}

// GateRequest is one gate question on a study.
type GateRequest struct {
	Study string
	// Where restricts the stored trials considered: the candidate's, the
	// baseline's and the archive's.
	Where []trial.Condition
	// ConfigKeys, when set, are the only params that identify a
	// configuration (see repeat.Config).
	ConfigKeys []string
	// Candidate and Baseline are the two sides; the candidate must be one
	// configuration.
	Candidate, Baseline GateSide
	// Gate holds the objectives (whose names are metric selectors), the
	// SLOs and the levels of the decision.
	Gate GateConfig
	// MinDuration and MinRequests refuse candidate runs too short to be
	// steady state (see TooShort); zero means no minimum.
	MinDuration time.Duration
	MinRequests int64
	// AllowCrossScope uses the newest baseline measured in another
	// environment when there is none in the candidate's (see Baseline).
	AllowCrossScope bool
	// NoLabel leaves an admitted candidate without AdmittedLabel, so that
	// it does not join the archive (its runs are recorded all the same).
	NoLabel bool
	// Session is the measurement session the runs of the sides' Sources
	// are recorded in; empty means a new one (trial.NewSession of the
	// current time). A driver that adds runs to one side across several
	// calls (a baseline re-run that the gate asked for) passes the same
	// name, since the baseline is compared as measured in one session.
	Session string
	// BaselineSession, when set, is the session whose baseline runs are
	// used; empty means, per workload, the newest session the baseline
	// was measured in within the candidate's scope, so that a
	// re-benchmarked baseline is not pooled with stale runs.
	BaselineSession string
}

// ErrCandidateIsBaseline refuses a gate whose candidate is the baseline
// configuration.
var ErrCandidateIsBaseline = errors.New("the candidate is the baseline configuration")

// SideError is a candidate that is not exactly one configuration.
type SideError struct {
	// Side is "candidate"; Name is how it was given.
	Side, Name string
	// Configs names the configurations it holds (key:HEX), none when it
	// matches no usable trial.
	Configs []string
}

// Error renders "candidate key:ffff matches no usable trial" or
// "candidate holds 2 configurations (key:…, key:…)".
func (e *SideError) Error() string {
	if len(e.Configs) == 0 {
		return fmt.Sprintf("%s %s matches no usable trial", e.Side, e.Name)
	}
	return fmt.Sprintf("%s holds %d configurations (%s)", e.Side, len(e.Configs), strings.Join(e.Configs, ", "))
}

// RunGate answers req on the study in st. It reads the study's trials
// (filtered by Where) together with the runs of the sides given as
// sources, groups them into repeats, resolves the candidate, the baseline
// measured in the candidate's environment (its newest session there, or
// BaselineSession) and the archive (the configurations labelled
// AdmittedLabel=AdmittedValue in that environment, other than the two
// sides), and decides with Gate. Candidate runs that TooShort refuses turn
// the decision into Reject, their reasons first. Then it records the
// sources' runs in the study, in Session, and labels an admitted
// candidate's stored runs AdmittedLabel=AdmittedValue unless NoLabel.
//
// The verdict depends only on the study's trials and req. A request
// refused before the decision (a scope mismatch, a candidate that is not
// one configuration, an unknown study, …) records nothing and returns a
// Verdict whose Decision is Refused, with its code (CodeRefusedScope, …)
// and the error. Failing to record returns the verdict with the error.
// Errors resolving the sides are a *SideError, a *ScopeError (the
// baseline was measured only elsewhere), a *BaselineError or
// ErrCandidateIsBaseline.
func RunGate(ctx context.Context, st Store, req GateRequest) (Verdict, error) {
	r := &gateRun{ctx: ctx, st: st, req: &req}
	cand, base, archive, err := r.sides()
	if err != nil {
		return Refusal(req, err), err
	}
	v := Gate(req.Gate, cand, base, archive)
	if refused := r.refused(); len(refused) > 0 {
		codes := make([]string, len(refused))
		for i := range codes {
			codes[i] = CodeRejectedTooShort
		}
		v.Decision, v.Code = Reject, CodeRejectedTooShort
		v.Reasons, v.ReasonCodes = append(refused, v.Reasons...), append(codes, v.ReasonCodes...)
	}
	v.Thresholds.MinDuration, v.Thresholds.MinRequests = Num(req.MinDuration.Seconds()), req.MinRequests
	v.BaselineSessions = r.baseSessions
	if err := r.record(); err != nil {
		return v, err
	}
	v.Session = req.Session
	if v.Decision == Admit && !req.NoLabel {
		if err := r.label(); err != nil {
			return v, err
		}
	}
	return v, nil
}

// Refusal is the verdict of a request refused with err before any
// decision: Decision Refused, the code RefusalCode gives and err's text.
func Refusal(req GateRequest, err error) Verdict {
	code := RefusalCode(err)
	return Verdict{Decision: Refused, Code: code, Reasons: []string{err.Error()}, ReasonCodes: []string{code},
		Candidate: req.Candidate.name(), Baseline: req.Baseline.name(), Thresholds: withDefaults(req.Gate).thresholds(),
		Workloads: []WorkloadResult{}, Regressions: []Regression{}, BaselineSessions: []string{},
		Trials: TrialIDs{Candidate: []string{}, Baseline: []string{}, Archive: []string{}}}
}

// RefusalCode is the stable code of an error that refuses a gate:
// CodeRefusedScope, CodeRefusedCandidate, CodeRefusedCandidateIsBaseline,
// CodeRefusedBaseline, else CodeRefusedRequest.
func RefusalCode(err error) string {
	var se *SideError
	var sc *repeat.ScopeError
	var be *BaselineError
	switch {
	case errors.As(err, &sc):
		return CodeRefusedScope
	case errors.As(err, &se):
		return CodeRefusedCandidate
	case errors.Is(err, ErrCandidateIsBaseline):
		return CodeRefusedCandidateIsBaseline
	case errors.As(err, &be):
		return CodeRefusedBaseline
	}
	return CodeRefusedRequest
}

// gateRun carries one RunGate: the study's repeats and the candidate.
type gateRun struct {
	ctx    context.Context
	st     Store
	req    *GateRequest
	groups []repeat.Group
	// admitted holds the configuration keys labelled as admitted.
	admitted map[string]bool
	cand     Arm
	// session is the session the sources are recorded in; sources their
	// trials, with it set.
	session string
	sources []Source
	// baseSessions are the sessions of the baseline runs used, sorted.
	baseSessions []string
}

// sides reads the study with the sources' runs and measures the
// candidate, the baseline and the archive; it records nothing.
func (r *gateRun) sides() (cand, base Side, archive []Side, err error) {
	if err := r.req.check(); err != nil {
		return cand, base, nil, err
	}
	sels, err := selectors(r.req.Gate.Objectives, r.req.Gate.SLOs)
	if err != nil {
		return cand, base, nil, err
	}
	r.prepareSources()
	if err := r.load(); err != nil {
		return cand, base, nil, err
	}
	ca, err := r.candidate()
	if err != nil {
		return cand, base, nil, err
	}
	ba, err := r.baseline(ca.Scope)
	if err != nil {
		return cand, base, nil, err
	}
	if ba, err = r.baselineSession(ba); err != nil {
		return cand, base, nil, err
	}
	if ba.Config == ca.Config {
		return cand, base, nil, fmt.Errorf("%w (%s)", ErrCandidateIsBaseline, ca.Name)
	}
	if cand, err = MeasureArm(ca, sels); err != nil {
		return cand, base, nil, err
	}
	if base, err = MeasureArm(ba, sels); err != nil {
		return cand, base, nil, err
	}
	for _, a := range r.archive(ca, ba) {
		if s, err := MeasureArm(a, sels); err == nil {
			archive = append(archive, s)
		}
	}
	return cand, base, archive, nil
}

// check refuses a request that names no study or leaves a side empty.
func (req *GateRequest) check() error {
	switch {
	case req.Study == "":
		return errors.New("gate: no study")
	case len(req.Candidate.Sources) == 0 && req.Candidate.Selection.IsZero():
		return errors.New("gate: no candidate (give sources or a selection)")
	case len(req.Baseline.Sources) == 0 && req.Baseline.Selection.IsZero():
		return errors.New("gate: no baseline (give sources or a selection)")
	}
	return nil
}

// prepareSources copies the sides' sources with the session they are
// recorded in set on their trials.
func (r *gateRun) prepareSources() {
	for _, side := range []*GateSide{&r.req.Candidate, &r.req.Baseline} {
		for _, s := range side.Sources {
			if r.session == "" {
				if r.session = r.req.Session; r.session == "" {
					r.session = trial.NewSession(time.Now())
				}
			}
			ts := slices.Clone(s.Trials)
			for i := range ts {
				ts[i].Source.Session = r.session
				if ts[i].ID == "" { // the ID the store gives it, so that a stored copy counts once
					ts[i].ID = trial.ComputeID(&ts[i])
				}
			}
			r.sources = append(r.sources, Source{Path: s.Path, Trials: ts})
		}
	}
}

// record stores the trials of each source, one source per path.
func (r *gateRun) record() error {
	for _, s := range r.sources {
		if len(s.Trials) == 0 { // a selection of an Optuna study that matched none of its trials
			continue
		}
		if _, _, err := r.st.Ingest(r.ctx, r.req.Study, s.Path, s.Trials); err != nil {
			return fmt.Errorf("recording %s: %w", s.Path, err)
		}
	}
	return nil
}

// load reads the study, adds the sources' runs that satisfy Where (after
// the stored ones, so that a run already stored counts once, as stored),
// groups the trials into repeats and notes the configurations with trials
// labelled as admitted. A study that does not exist yet is empty when the
// request has sources to record in it.
func (r *gateRun) load() error {
	ts, err := r.st.Select(r.ctx, r.req.Study, r.req.Where)
	if err != nil && !(len(r.sources) > 0 && errors.Is(err, trial.ErrNoStudy)) {
		return fmt.Errorf("reading study %q: %w", r.req.Study, err)
	}
	for _, s := range r.sources {
		for i := range s.Trials {
			if trial.MatchAll(&s.Trials[i], r.req.Where) {
				ts = append(ts, s.Trials[i])
			}
		}
	}
	r.admitted = map[string]bool{}
	for i := range ts {
		if ts[i].Labels[AdmittedLabel] == AdmittedValue {
			r.admitted[repeat.Config(&ts[i], r.req.ConfigKeys)] = true
		}
	}
	r.groups = repeat.GroupRepeats(ts, r.req.ConfigKeys)
	return nil
}

// candidate returns the candidate's configuration: that of the recorded
// sources, or the one selected among the stored trials.
func (r *gateRun) candidate() (Arm, error) {
	side := &r.req.Candidate
	var groups []*repeat.Group
	if len(side.Sources) > 0 && side.Selection.IsZero() {
		configs := map[string]bool{}
		for _, s := range side.Sources {
			for i := range s.Trials {
				configs[repeat.Config(&s.Trials[i], r.req.ConfigKeys)] = true
			}
		}
		for i := range r.groups {
			if configs[r.groups[i].Config] {
				groups = append(groups, &r.groups[i])
			}
		}
	} else {
		groups = repeat.Select(r.groups, side.Selection)
	}
	arms := Arms(groups)
	if len(arms) != 1 {
		e := &SideError{Side: "candidate", Name: side.name()}
		for _, a := range arms {
			e.Configs = append(e.Configs, a.Name)
		}
		return Arm{}, e
	}
	r.cand = arms[0]
	return arms[0], nil
}

// baseline chooses the baseline in the candidate's scope: the
// configuration of the recorded sources, or the selected one.
func (r *gateRun) baseline(scope repeat.Scope) (Arm, error) {
	side := &r.req.Baseline
	sel := side.Selection
	if len(side.Sources) > 0 && sel.IsZero() {
		first, ok := firstTrial(side.Sources)
		if !ok {
			return Arm{}, fmt.Errorf("baseline %s holds no trial", side.name())
		}
		var err error
		if sel, err = repeat.ParseSelection("key:" + repeat.Config(first, r.req.ConfigKeys)); err != nil {
			return Arm{}, err
		}
	}
	arm, err := Baseline(r.groups, sel, scope, r.req.AllowCrossScope)
	if err != nil {
		return Arm{}, err
	}
	arm.Name = side.name()
	return arm, nil
}

// baselineSession keeps, per workload, the baseline's runs of one
// session: BaselineSession, else the session of its newest run there. A
// workload with no run of BaselineSession is dropped; a baseline with none
// at all is a *BaselineError.
func (r *gateRun) baselineSession(arm Arm) (Arm, error) {
	out := arm
	out.Groups = nil
	for _, g := range arm.Groups {
		want := r.req.BaselineSession
		if want == "" && len(g.Trials) > 0 {
			want = g.Trials[len(g.Trials)-1].Source.Session
		}
		h := *g
		h.Trials = nil
		for _, t := range g.Trials {
			if t.Source.Session == want {
				h.Trials = append(h.Trials, t)
			}
		}
		if len(h.Trials) > 0 {
			out.Groups = append(out.Groups, &h)
			if !slices.Contains(r.baseSessions, want) {
				r.baseSessions = append(r.baseSessions, want)
			}
		}
	}
	slices.Sort(r.baseSessions)
	if len(out.Groups) == 0 {
		return out, &BaselineError{Name: arm.Name, Session: r.req.BaselineSession}
	}
	return out, nil
}

func firstTrial(sources []Source) (*trial.Trial, bool) {
	for _, s := range sources {
		if len(s.Trials) > 0 {
			return &s.Trials[0], true
		}
	}
	return nil, false
}

// archive returns the admitted configurations measured in the
// candidate's scope, other than the candidate and the baseline.
func (r *gateRun) archive(cand, base Arm) []Arm {
	var groups []*repeat.Group
	for i := range r.groups {
		g := &r.groups[i]
		if r.admitted[g.Config] && g.Scope == cand.Scope && g.Config != cand.Config && g.Config != base.Config {
			groups = append(groups, g)
		}
	}
	return Arms(groups)
}

// refused lists the candidate runs too short to be steady state.
func (r *gateRun) refused() []string {
	var out []string
	for _, g := range r.cand.Groups {
		for _, t := range g.Trials {
			if why := TooShort(t, r.req.MinDuration, r.req.MinRequests); why != "" {
				out = append(out, fmt.Sprintf("run %s on %s refused: %s", t.ID, g.Workload, why))
			}
		}
	}
	return out
}

// label records the admission on the stored trials of the candidate's
// runs; their IDs stay those they were ingested with.
func (r *gateRun) label() error {
	if _, err := r.st.SetLabels(r.ctx, r.req.Study, r.cand.IDs(), map[string]string{AdmittedLabel: AdmittedValue}); err != nil {
		return fmt.Errorf("recording admission: %w", err)
	}
	return nil
}

// selectors parses the names of the objectives, then those of the SLOs:
// the columns Gate, Drift and Pick read.
func selectors(objs []frontier.Objective, slos []frontier.SLO) ([]trial.Selector, error) {
	names := make([]string, 0, len(objs)+len(slos))
	for _, o := range objs {
		names = append(names, o.Name)
	}
	for _, s := range slos {
		names = append(names, s.Name)
	}
	out := make([]trial.Selector, len(names))
	for i, n := range names {
		sel, err := trial.ParseSelector(n)
		if err != nil {
			return nil, err
		}
		out[i] = sel
	}
	return out, nil
}
