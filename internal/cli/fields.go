package cli

import (
	"strings"

	"github.com/pareto-llm/pareto/field"
)

// flagNames are the flags of the library fields (field.Error) that the
// command line does not spell --FIELD (underscores as dashes).
var flagNames = map[string]string{}

// flagName returns the flag that sets a library field.
func flagName(f string) string {
	if n, ok := flagNames[f]; ok {
		return n
	}
	return "--" + strings.ReplaceAll(f, "_", "-")
}

// flagWords phrases a library field error in the command line's words.
func flagWords(e *field.Error) string { return e.Phrase(flagName) }
