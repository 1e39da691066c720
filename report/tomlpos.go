package report

import (
	"strings"

	"github.com/pareto-llm/pareto/internal/position"
)

// Pos is a 1-based position in a configuration file.
type Pos = position.Pos

// ConfigError is a configuration error located in a file
// (position.Error: "file:line:col: message").
type ConfigError = position.Error

// configError returns the error at p.
func configError(file string, p Pos, msg string) *ConfigError {
	return &ConfigError{File: file, Line: p.Line, Col: p.Col, Msg: msg}
}

// ConfigErrors is every error found in one configuration, in file order.
type ConfigErrors []*ConfigError

// Error renders one error per line.
func (es ConfigErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// decodeError converts a go-toml error into a *ConfigError.
func decodeError(file string, err error) *ConfigError { return position.TOMLError(file, err) }

func join(a, b string) string { return position.JoinKey(a, b) }
