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
// # Verdicts
//
// With two objectives each comparison (every point of the curve, and the
// best X each frontier reaches) is better, worse, the same or uncertain
// under the objective's bands, as pareto drift judges a change
// (decide.LogBands): better when the whole interval is beyond the minimum
// improvement, the same when it lies within the noise band both ways. B
// dominates A when it is better somewhere and nowhere possibly worse
// beyond the noise band; crossing when each is better somewhere (with
// where the lead changes); indistinguishable when the same everywhere.
// With other than two objectives the verdict is set dominance under the
// bands (frontier.Beats), kept when the resamples agree with it at the
// confidence level. The status says whether B regressed: established
// (Regression), possible (RegressionUnsettled) or ruled out.
package compare
