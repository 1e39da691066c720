// Package frontier computes Pareto frontiers of measured trials: strict and
// noise-aware dominance, SLO feasibility, non-dominated ranks and
// hypervolume.
//
// The package is pure computation: it reads no files and prints nothing.
// Points are passed as a row-major matrix of n rows and k objective columns
// ([]float64 of length n*k). The low-level functions (StrictFront, Ranks,
// Hypervolume) work on minimised objectives; the high-level Analyze applies
// each objective's direction itself without negating values inside a
// relative noise band, so that a band on a maximised metric keeps its
// meaning.
//
// # Semantics
//
// Strict dominance: a dominates b iff a is no worse on every objective and
// strictly better on one. Exact duplicates dominate neither each other, so
// every copy of a frontier point stays on the frontier (reported as ties).
//
// Noise-aware dominance with per-objective relative noise band σ and minimum
// improvement δ: for minimised objectives a beats b iff a_i <= b_i*(1+σ_i)
// for every i and a_j < b_j*(1-δ_j) for some j (mirrored for maximised
// objectives). The relation may contain cycles; the frontier is the Schwartz
// set: the union of the strongly connected components of the graph
// {a→b : a beats b} that no point outside the component beats. It is never
// empty for non-empty input and does not depend on input order.
package frontier
