// Package compare judges frontier against frontier: two or more
// selections of trials (engine versions, engines, hardware, a PR and its
// base), each a Side of feasible points with their repeats, compared on
// the same objectives.
//
// Every side's hypervolume is measured against one common reference point
// (given, or frontier.AutoReference over every run of every side),
// and B's relative change against A. For two objectives (X the first, Y
// the second) the uplift curve gives B's best Y at each X relative to A's,
// at every X of either frontier within both spans, and the buckets read
// both frontiers at chosen X values: measured where a frontier point lies
// there, else interpolated (Step: the staircase, what a measured
// configuration achieves; Linear: between the two points around X), and
// never extrapolated: a bucket outside a frontier's span says so.
//
// # Uncertainty
//
// Every value has a percentile interval from a seeded bootstrap: each
// resample draws every configuration's repeats with replacement (a run
// as a whole, so that its objectives stay together), aggregates them as
// the query did and recomputes the frontiers. A side's resamples depend on
// the seed and the side's position only (its first, for a side given
// twice), so they are the same in every pair. Points that no resample can
// put on the frontier (another point's worst runs beat their best) are
// not drawn. A configuration measured once contributes no uncertainty (Run
// warns about it), and with few repeats (3) the percentile intervals are
// narrower than the truth.
//
// # Bands
//
// Every objective is judged with a noise band and a minimum improvement
// (frontier.Objective). An objective given neither gets both from the
// noise the repeats of every side show: the band pareto noise suggests
// (decide.EstimateNoise: twice the upper bound of the pooled run-to-run
// coefficient of variation, rounded up to 0.5%); with fewer than
// MinNoiseDF degrees of freedom it is unmeasured and every verdict is
// inconclusive. A zero band is never assumed; it is measured (repeats
// that never differ, as a GPU count) or given. A given band below the
// measured CV of one run draws a warning.
//
// # Verdicts
//
// The verdict is the noise-aware relation of pareto front --noise
// (frontier.Beats) on the union of both sides' points. A point of A leads
// when it is on the noise-aware frontier of A ∪ B (frontier.NoiseFront,
// the Schwartz set) and no point of B reaches it within the noise band
// (no worse beyond the band on every objective); A also leads when B's
// best value on some objective falls short of A's beyond the band; the
// same for B. B dominates A when only B leads, A dominates when only A
// does, crossing when both, indistinguishable when neither: so "B
// dominates A" means that no point of A is on the noise-aware frontier of
// A ∪ B beyond the bands of B's points, B reaches at least as far on every
// objective, and some point of B is beyond A's bands. These are the point
// estimates' leads; each is then confirmed over the resamples (it holds in
// at least the confidence level of them), and an unconfirmed one makes the
// verdict inconclusive. A difference inside the bands is never a lead
// (unless a given band is below the measured noise: then the resamples
// must rule it out). The status says whether B regressed: A leads,
// confirmed (Regression), A's lead is unconfirmed (RegressionUnsettled),
// or A does not lead (NoRegression). With two objectives the uplift curve
// describes where each side leads (its points better, worse, the same or
// uncertain as pareto drift judges a change, decide.LogBands, and the
// crossings); it does not make the verdict.
package compare
