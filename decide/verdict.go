package decide

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Decision is the outcome of Gate.
type Decision string

// Decisions of Gate.
const (
	Admit        Decision = "admit"
	Reject       Decision = "reject"
	Inconclusive Decision = "inconclusive"
	// Refused is RunGate's answer to a request it cannot judge (a scope
	// mismatch, say): nothing was recorded.
	Refused Decision = "refused"
)

// Reason codes: Verdict.Code is the decision's and ReasonCodes[i] that of
// Reasons[i]. They are stable: programs test them, the prose may change.
const (
	// CodeAdmitted: the candidate is admitted.
	CodeAdmitted = "admitted"
	// CodeBetter: a meaningful win over the baseline (a reason of an
	// admit).
	CodeBetter = "better"
	// CodeRegression: an objective worse than the baseline beyond its
	// noise band, known or likely (listed on every verdict that compared).
	CodeRegression = "regression"
	// CodeMoreRuns: inconclusive; MoreRuns says how many runs would settle
	// it (too few repeats, or intervals too wide).
	CodeMoreRuns = "more_runs"
	// CodeRejectedNotBetter: not better than the baseline by the minimum
	// improvement on any objective.
	CodeRejectedNotBetter = "rejected_not_better"
	// CodeRejectedWorse: the baseline or an archive member beats it.
	CodeRejectedWorse = "rejected_worse"
	// CodeRejectedEquivalent: indistinguishable from an archive member.
	CodeRejectedEquivalent = "rejected_equivalent"
	// CodeRejectedSLO: an aggregate violates an SLO.
	CodeRejectedSLO = "rejected_slo"
	// CodeRejectedCoverage: a workload of the baseline is not measured.
	CodeRejectedCoverage = "rejected_coverage"
	// CodeRejectedRegression: with NoRegression, an admit that regresses
	// an objective beyond its band.
	CodeRejectedRegression = "rejected_regression"
	// CodeRejectedTooShort: candidate runs too short to be steady state.
	CodeRejectedTooShort = "rejected_too_short"
	// CodeRejectedMaxRuns: still undecided with MaxRuns runs per side.
	CodeRejectedMaxRuns = "rejected_max_runs"
	// CodeRefusedScope: the baseline was measured only in other
	// environments (Refused).
	CodeRefusedScope = "refused_scope"
	// CodeRefusedCandidate: the candidate is not one configuration, or
	// matches no usable trial (Refused).
	CodeRefusedCandidate = "refused_candidate"
	// CodeRefusedCandidateIsBaseline: the candidate is the baseline
	// configuration (Refused).
	CodeRefusedCandidateIsBaseline = "refused_candidate_is_baseline"
	// CodeRefusedBaseline: the baseline matches no trial, or none of the
	// session asked for (Refused).
	CodeRefusedBaseline = "refused_baseline"
	// CodeRefusedRequest: any other refusal (no study, unreadable
	// metrics, …).
	CodeRefusedRequest = "refused_request"
	// CodeMinImproveBelowNoise: a warning, not a reason: an objective's
	// minimum improvement is below the run-to-run noise (coefficient of
	// variation) of the runs at hand, so that a win that small takes many
	// runs to show and is likely to end rejected_max_runs.
	CodeMinImproveBelowNoise = "min_improve_below_noise"
)

// Codes lists every reason code, in the order of their declaration.
var Codes = []string{CodeAdmitted, CodeBetter, CodeRegression, CodeMoreRuns, CodeRejectedNotBetter,
	CodeRejectedWorse, CodeRejectedEquivalent, CodeRejectedSLO, CodeRejectedCoverage, CodeRejectedRegression,
	CodeRejectedTooShort, CodeRejectedMaxRuns, CodeRefusedScope, CodeRefusedCandidate,
	CodeRefusedCandidateIsBaseline, CodeRefusedBaseline, CodeRefusedRequest, CodeMinImproveBelowNoise}

// Status is how the candidate compares with the baseline on one
// objective and workload.
type Status string

// Statuses of an objective. StatusBetter holds at the admission
// confidence; StatusWorse and StatusWithinNoise, facts against admission,
// at the futility level.
const (
	// StatusBetter: better than the baseline by more than the minimum
	// improvement.
	StatusBetter Status = "better"
	// StatusWithinNoise: neither better by the minimum improvement nor worse
	// beyond the noise band.
	StatusWithinNoise Status = "within_noise"
	// StatusWorse: worse than the baseline beyond the noise band.
	StatusWorse Status = "worse"
	// StatusUncertain: the interval cannot tell yet.
	StatusUncertain Status = "uncertain"
)

// Num is a float that encodes in JSON with 6 significant digits (null
// when not finite), so that verdicts are byte-identical across platforms.
type Num float64

// MarshalJSON renders the number with 6 significant digits.
func (n Num) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	if v == 0 {
		return []byte("0"), nil
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return strconv.AppendFloat(nil, r, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler: null, which MarshalJSON
// writes for NaN and ±Inf, reads as NaN, so that a decoded result
// encodes as it was.
func (n *Num) UnmarshalJSON(b []byte) error { return unmarshalNum((*float64)(n), b) }

// unmarshalNum reads a JSON number into v, null as NaN.
func unmarshalNum(v *float64, b []byte) error {
	if string(b) == "null" {
		*v = math.NaN()
		return nil
	}
	return json.Unmarshal(b, v)
}

// Verdict is Gate's answer, meant to be read by people and agents alike.
type Verdict struct {
	Decision Decision `json:"decision"`
	// Code is the decision's reason code (see Codes): CodeAdmitted,
	// CodeMoreRuns, the code of the first reason of a rejection, or that
	// of a refusal.
	Code string `json:"code"`
	// Reasons explain the decision, most important first; ReasonCodes
	// holds the code of each, in the same order. A reason names the
	// request's settings as fields (max_runs, no_regression: lower snake
	// case, see package field); each caller phrases them in its own words
	// (TextFields).
	Reasons     []string `json:"reasons"`
	ReasonCodes []string `json:"reason_codes"`
	// Candidate, Baseline and Nearest name the configurations compared;
	// Nearest is the archive member (or the baseline) closest to the
	// candidate.
	Candidate string `json:"candidate"`
	Baseline  string `json:"baseline"`
	Nearest   string `json:"nearest"`
	// Thresholds are the values applied.
	Thresholds Thresholds `json:"thresholds"`
	// Workloads holds the per-workload comparison, sorted by workload.
	Workloads []WorkloadResult `json:"workloads"`
	// Regressions lists the objectives and workloads on which the
	// candidate is worse than the baseline beyond the noise band, known
	// (StatusWorse) or by the point estimate (StatusUncertain); empty when none.
	Regressions []Regression `json:"regressions"`
	// MoreRuns says how many more runs would settle an inconclusive
	// verdict (all zero otherwise), within MaxRuns.
	MoreRuns MoreRuns `json:"more_runs"`
	// Session is the session named by the request (GateRequest.Session)
	// that RunGate recorded the runs in: an automatic one is not shown, so
	// that the same question asked again gets the same bytes.
	// BaselineSessions are the sessions of the baseline runs compared,
	// sorted ("" for runs recorded before sessions).
	Session          string   `json:"session,omitempty"`
	BaselineSessions []string `json:"baseline_sessions"`
	// Trials lists the trial IDs used.
	Trials TrialIDs `json:"trials"`
	// Warnings are facts about the question rather than the candidate
	// (CodeMinImproveBelowNoise); absent when none.
	Warnings []Warning `json:"warnings,omitempty"`
}

// TextFields are the request fields that Reasons and Warning messages
// name, in lower snake case, for a caller to phrase as it names them (the
// command line: --max-runs; see PhraseFields); revoke is the archive's
// (Revoke), which the texts of a tuning study's stalled candidate name. A
// text uses these words only as the fields.
var TextFields = []string{"max_runs", "max_baseline_runs", "min_improve", "no_regression", "revoke"}

// textFieldRE matches the fields of TextFields as whole words.
var textFieldRE = regexp.MustCompile(`\b(` + strings.Join(TextFields, "|") + `)\b`)

// PhraseFields is text (a reason, a warning's message) with every field
// of TextFields it names replaced by name(field): the field as a caller
// names it.
func PhraseFields(text string, name func(field string) string) string {
	return textFieldRE.ReplaceAllStringFunc(text, name)
}

// Warning is a fact about a gate question that makes its answer weak: a
// minimum improvement below the run-to-run noise of the runs at hand.
// Message names fields as Reasons do.
type Warning struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Objective string `json:"objective"`
	// MinImprove is the objective's minimum improvement; CV, CVLow and
	// CVHigh the pooled coefficient of variation of the candidate's and
	// the baseline's runs with its 95 % interval, and DF its degrees of
	// freedom (EstimateNoise, as pareto noise prints it).
	MinImprove Num `json:"min_improve"`
	CV         Num `json:"cv"`
	CVLow      Num `json:"cv_low"`
	CVHigh     Num `json:"cv_high"`
	DF         int `json:"df"`
}

// Regression is one objective on one workload on which the candidate is
// worse than the baseline beyond the noise band.
type Regression struct {
	Workload  string `json:"workload"`
	Objective string `json:"objective"`
	Status    Status `json:"status"`
	// Delta, Low, High and Level are those of the ObjectiveResult.
	Delta Num `json:"delta"`
	Low   Num `json:"delta_low"`
	High  Num `json:"delta_high"`
	Level Num `json:"level"`
}

// Thresholds are the parameters a verdict was reached with.
type Thresholds struct {
	Objectives []ObjectiveThreshold `json:"objectives"`
	SLOs       []string             `json:"slos"`
	MinRepeats int                  `json:"min_repeats"`
	Confidence Num                  `json:"confidence"`
	Futility   Num                  `json:"futility"`
	// MaxRuns and MaxBaselineRuns cap the runs of the candidate and of
	// the baseline per workload; NoRegression says whether an admit that
	// regresses is rejected.
	MaxRuns         int  `json:"max_runs"`
	MaxBaselineRuns int  `json:"max_baseline_runs"`
	NoRegression    bool `json:"no_regression"`
	// Spending names the admission test (Bonferroni over objectives and
	// workloads, alpha spending α·t^ρ over the looks) and Looks is the
	// number of looks per test it spends 1 − Confidence over.
	Spending    string `json:"spending"`
	Looks       int    `json:"looks"`
	MinDuration Num    `json:"min_duration_s,omitempty"`
	MinRequests int64  `json:"min_requests,omitempty"`
}

// ObjectiveThreshold is one objective's direction and relative thresholds.
type ObjectiveThreshold struct {
	Name       string `json:"name"`
	Direction  string `json:"direction"`
	Noise      Num    `json:"noise"`
	MinImprove Num    `json:"min_improve"`
}

// WorkloadResult compares the candidate on one workload.
type WorkloadResult struct {
	Workload      string            `json:"workload"`
	CandidateRuns int               `json:"candidate_runs"`
	BaselineRuns  int               `json:"baseline_runs"`
	Objectives    []ObjectiveResult `json:"objectives"`
}

// ObjectiveResult is the candidate against the baseline and the nearest
// archive member on one objective. Deltas are relative: +0.35 is 35% more.
// Delta and its interval are on one estimator, the ratio of the geometric
// means of the repeats minus one, which the decision uses; Candidate and
// Baseline are those geometric means, CandidateMedian and BaselineMedian
// the medians the SLOs are checked on.
type ObjectiveResult struct {
	Name      string `json:"name"`
	Candidate Num    `json:"candidate"`
	Baseline  Num    `json:"baseline"`
	Delta     Num    `json:"delta"`
	// Low and High bound Delta at Level, the level of the rule that gave
	// Status (the admission confidence for StatusBetter and
	// StatusUncertain, the futility level for StatusWorse and
	// StatusWithinNoise).
	Low    Num    `json:"delta_low"`
	High   Num    `json:"delta_high"`
	Level  Num    `json:"level"`
	Status Status `json:"status"`
	// CandidateMedian and BaselineMedian are the medians of the repeats.
	CandidateMedian Num `json:"candidate_median"`
	BaselineMedian  Num `json:"baseline_median"`
	// Nearest is the nearest member's geometric mean and DeltaNearest the
	// candidate's relative delta to it, on the same estimator.
	Nearest      Num `json:"nearest"`
	DeltaNearest Num `json:"delta_nearest"`
}

// MoreRuns is the number of additional runs per workload that would settle
// an inconclusive verdict.
type MoreRuns struct {
	Candidate int `json:"candidate"`
	Baseline  int `json:"baseline"`
	// Members maps an archive member to the runs it needs.
	Members map[string]int `json:"members,omitempty"`
}

// TrialIDs are the trials a verdict used.
type TrialIDs struct {
	Candidate []string `json:"candidate"`
	Baseline  []string `json:"baseline"`
	Archive   []string `json:"archive"`
}
