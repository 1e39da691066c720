package decide

import (
	"math"
	"strconv"
)

// Decision is the outcome of Gate.
type Decision string

// Decisions of Gate.
const (
	Admit        Decision = "admit"
	Reject       Decision = "reject"
	Inconclusive Decision = "inconclusive"
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

// Verdict is Gate's answer, meant to be read by people and agents alike.
type Verdict struct {
	Decision Decision `json:"decision"`
	// Reasons explain the decision, most important first.
	Reasons []string `json:"reasons"`
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
	// MoreRuns says how many more runs would settle an inconclusive
	// verdict (all zero otherwise).
	MoreRuns MoreRuns `json:"more_runs"`
	// Trials lists the trial IDs used.
	Trials TrialIDs `json:"trials"`
}

// Thresholds are the parameters a verdict was reached with.
type Thresholds struct {
	Objectives  []ObjectiveThreshold `json:"objectives"`
	SLOs        []string             `json:"slos"`
	MinRepeats  int                  `json:"min_repeats"`
	Confidence  Num                  `json:"confidence"`
	Futility    Num                  `json:"futility"`
	MinDuration Num                  `json:"min_duration_s,omitempty"`
	MinRequests int64                `json:"min_requests,omitempty"`
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
type ObjectiveResult struct {
	Name      string `json:"name"`
	Candidate Num    `json:"candidate"`
	Baseline  Num    `json:"baseline"`
	Delta     Num    `json:"delta"`
	// Low and High bound the ratio of geometric means minus one at the
	// admission confidence.
	Low  Num `json:"delta_low"`
	High Num `json:"delta_high"`
	// Nearest is the nearest member's aggregate and DeltaNearest the
	// candidate's relative delta to it.
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
