package cli

import (
	"errors"

	"github.com/pareto-llm/pareto/internal/enc"
)

// parseFormat checks a --format value against the formats a command
// offers (enc.ParseFormat), as a usage error in the command line's words.
func parseFormat(name string, offered ...enc.Format) (enc.Format, error) {
	f, err := enc.ParseFormat(name, offered...)
	if fe, ok := errors.AsType[*enc.FormatError](err); ok {
		return "", usagef("unknown --format %q (want %s)", fe.Name, fe.Want())
	}
	return f, err
}

// write encodes a command's typed result to stdout as f (enc.Write).
func (e *env) write(f enc.Format, result any) error { return enc.Write(e.stdout, f, result) }
