// Package decide turns noisy benchmark trials into decisions: which runs are
// repeats of one configuration, what a configuration measured (the median
// of its repeats with their spread), how it compares with a baseline
// measured in the same environment, whether a candidate change is admitted,
// rejected or needs more runs (Gate), which single configuration to deploy
// under bounds (Pick, RunPick), how noisy each metric is (EstimateNoise),
// and how an environment upgrade moved the baseline (Drift).
//
// # Repeats
//
// The vocabulary of repeats (configurations, workloads, scopes, groups,
// aggregation, selections) is package repeat; decide measures its groups
// through the query pipeline (package query) and decides on them.
//
// # Statistics
//
// Metrics are compared on the log scale, where run-to-run noise is close to
// a constant coefficient of variation. The difference of two
// configurations on an objective is the difference of the means of the log
// values of their repeats, with a Welch t interval built from the repeats of
// both sides (LogDiff). A threshold is cleared when the whole interval is
// beyond it and missed when the whole interval is short of it; otherwise
// the answer is unknown and the interval's half-width, which shrinks as
// 1/√n, says how many more runs would settle it. The gate's admission
// ("better than the baseline by the minimum improvement somewhere") is a
// sequential test whose false admits are bounded by 1 − Confidence over
// every objective, workload and look up to MaxRuns and MaxBaselineRuns: its
// error is split over them (see spending), so that each look's interval is
// wider than Confidence alone would make it.
//
// # Questions of trials
//
// RunGate, RunPick, RunNoise and RunDrift answer a whole question: they
// group the trials into repeats, measure the groups, choose the sides and
// decide, so that every caller gets the answer the command line prints.
// RunGate works on a study through Store (read with a filter, record,
// label), which package store provides as store.Selecting; the others take
// trials already read. The package links no database driver: conditions
// are trial.Condition.
//
// # Sessions, codes and statuses
//
// Every stored run carries the measurement session it was recorded in
// (trial.Source.Session). RunGate compares a candidate with the baseline's
// newest session per workload in its scope (or GateRequest.BaselineSession),
// so that a baseline re-benchmarked on a changed machine is not pooled with
// stale runs, and records the runs it is given in GateRequest.Session (a
// new session when empty). A Verdict carries a stable reason code (Codes)
// beside its prose, a Status per objective and workload with the delta and
// the interval of the rule that gave it, and the regressions; a refused
// request records nothing and is answered by a Verdict too (Refused).
// The verdicts' JSON Schema is docs/schema/gate.schema.json.
//
// Every function is deterministic: outputs depend only on the values and
// order of the inputs, never on map iteration or time (the one exception
// is the name of a new session RunGate records runs in when the request
// names none, which no verdict shows).
package decide
