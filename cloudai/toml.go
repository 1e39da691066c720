package cloudai

import "github.com/pareto-llm/pareto/internal/position"

// PosError is an error located in a TOML file (position.Error): it renders
// as "file:line:col: message"; Line and Col are 1-based and 0 when unknown.
type PosError = position.Error

// arrayTableLines returns the 1-based line of every [[name]] header in data, in
// document order. It is used to point semantic errors at the right entry.
func arrayTableLines(data []byte, name string) []int {
	return position.IndexTOML(data).ArrayTableLines(name)
}
