package store

import "github.com/pareto-llm/pareto/trial"

// Condition is one condition of a Query's Where: trial.Condition, which
// holds the parser and the matching rules (one implementation, shared with
// the packages that must not depend on a database driver, such as decide).
type Condition = trial.Condition

// Op is the comparison of a Condition (trial.Op).
type Op = trial.Op

// Comparison operators of a Condition, as in package trial.
const (
	OpEq = trial.OpEq
	OpNe = trial.OpNe
	OpLt = trial.OpLt
	OpLe = trial.OpLe
	OpGt = trial.OpGt
	OpGe = trial.OpGe
)

// EnvLabels maps each environment column of the trials table to the labels
// it is copied from, first present wins: trial.EnvLabels.
var EnvLabels = trial.EnvLabels
