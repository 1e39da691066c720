package report

import "github.com/pareto-llm/pareto/internal/position"

// Pos is a 1-based position in a configuration file.
type Pos = position.Pos

// ConfigError is a configuration error located in a file
// (position.Error: "file:line:col: message").
type ConfigError = position.Error

// configError returns the error at p.
func configError(file string, p Pos, msg string) *ConfigError {
	return &ConfigError{File: file, Line: p.Line, Col: p.Col, Msg: msg}
}

// ConfigErrors is every error found in one configuration, in file order
// (position.List: one error per line).
type ConfigErrors = position.List

func join(a, b string) string { return position.JoinKey(a, b) }
