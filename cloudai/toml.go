package cloudai

import (
	toml "github.com/pelletier/go-toml/v2"

	"github.com/pareto-llm/pareto/internal/position"
)

// PosError is an error located in a TOML file (position.Error): it renders
// as "file:line:col: message"; Line and Col are 1-based and 0 when unknown.
type PosError = position.Error

// decodeTOML unmarshals data into v and converts go-toml errors into
// *PosError values named after file.
func decodeTOML(file string, data []byte, v any) error {
	err := toml.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	return position.TOMLError(file, err)
}

// arrayTableLines returns the 1-based line of every [[name]] header in data, in
// document order. It is used to point semantic errors at the right entry.
func arrayTableLines(data []byte, name string) []int {
	return position.IndexTOML(data).ArrayTableLines(name)
}
