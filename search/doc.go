// Package search proposes configurations to measure: a search space read
// from TOML, and samplers (grid, random, Sobol, NSGA-II) behind one
// ask/tell Study whose whole state is JSON, so that a driver (pareto
// tune, an external agent through ask and tell) can persist it after
// every change and resume it exactly.
//
// # Search spaces
//
// A Space (ParseSpace, ReadSpace, or NewSpace in Go) has parameters in
// file order, each categorical (values = [...]: numbers, strings or
// booleans), int (integer low and high, optional step) or float (low and
// high, optional step); int and float parameters may be sampled on a log
// scale (log = true, low > 0). A parameter is a server knob (changing it
// restarts the server; the default) or a client knob (knob = "client":
// the benchmark client's load); Space.SameServer tells whether two
// configurations can share a server. A parameter may exist only when
// earlier parameters have given values (when = { other = value } or
// [values]); in a configuration (Config) an inactive parameter has no
// value. Constraints relate parameters and [constants]: one comparison
// (<=, <, >=, >, ==, !=) of two arithmetic expressions (+ - * /,
// parentheses, numbers, names), such as "tp * pp * dp <= gpus"; a
// constraint naming an inactive parameter holds, a division by zero fails
// it. Samplers never propose a configuration that violates one. Every
// problem in a file is reported at its file:line:col (position.List).
// default = v gives the baseline configuration (Space.Defaults).
//
// # Samplers
//
// Every sampler maps a point of the unit cube, one coordinate per
// parameter, onto the space (uniform over a parameter's values, or
// log-uniform), draws again while the configuration violates a constraint
// (up to 10 000 times: ErrInfeasible) or repeats one already asked (up to
// 100 times, then the repeat is taken).
//
//   - Grid visits every combination of the parameters' values once (a
//     float needs a step), in a seeded order (an affine permutation of the
//     combinations, so that a budget smaller than the grid spreads over
//     it), skipping inactive duplicates and infeasible combinations; then
//     Ask returns ErrExhausted.
//   - Random draws independent uniform points.
//   - Sobol takes the points of a digitally shifted Sobol sequence, whose
//     direction numbers this package computes itself (sobol.go): primitive
//     polynomials by search, initial direction numbers chosen for the
//     t-values of their two-dimensional projections. Up to MaxSobolDim
//     parameters.
//   - NSGA2 (the default) is Deb et al.'s NSGA-II: a first generation of
//     Population Sobol (or random) points; then every child is bred from two
//     binary-tournament winners of the current population (lower
//     constrained-domination rank, then larger crowding distance) by
//     crossover with probability CrossoverProb — simulated binary crossover
//     per numeric parameter, uniform crossover per categorical one, each
//     parameter with probability ½ — and mutation of each parameter with
//     probability MutationProb (polynomial mutation, or another category).
//     Numeric parameters are bred in their sampling coordinates (log for a
//     log scale, index for a step) and snapped to values. A generation ends
//     when Population of its trials completed (failures do not count);
//     the population and every trial completed since compete, and the
//     survivors are whole constrained-domination fronts (frontier.Ranks for
//     the feasible ones, then one front per violation value) and, from the
//     front that does not fit, the largest crowding distances.
//
// # Ask and tell
//
// Study.Ask returns a Trial (an ID, a configuration) recorded as running;
// Study.Tell records its Result: objective values in Options.Objectives
// order (directions from frontier.Objective), a Violation (0 when the
// trial meets its outcome constraints, such as SLOs; NSGA-II ranks every
// feasible trial first), or Failed. Trials may be told in any order and
// several may run at once. Study.Enqueue puts a given configuration (the
// baseline, an agent's proposal) first in line. The same space, options,
// seed and calls give the same trials; MarshalJSON saves the study (the
// options, the random generator's state, every trial, NSGA-II's
// population) and ResumeStudy restores it on the same space (checked by
// Space.Fingerprint) to continue exactly.
package search
