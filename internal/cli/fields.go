package cli

import (
	"errors"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/field"
)

// flagNames are the flags of the library fields (field.Error, and the
// fields texts name: decide.TextFields) that the command line does not
// spell --FIELD (underscores as dashes); "objective" is a value of -o,
// named in prose; "revoke", the archive's, is pareto gate's flag, named
// in the texts of other commands (tell's stalled).
var flagNames = map[string]string{"objectives": "-o", "objective": "objective", "revoke": "pareto gate --revoke"}

// requiredWords phrase the missing fields that read better whole.
var requiredWords = map[string]string{
	"objectives": "no objectives: give at least one -o NAME:min or -o NAME:max",
	"maximize":   "no objective: give --maximize METRIC or --minimize METRIC",
}

// flagName returns the flag that sets a library field.
func flagName(f string) string {
	if n, ok := flagNames[f]; ok {
		return n
	}
	return "--" + strings.ReplaceAll(f, "_", "-")
}

// flagWords phrases a library field error in the command line's words.
func flagWords(e *field.Error) string {
	if w, ok := requiredWords[e.Field]; ok && e.Missing {
		return w
	}
	return e.Phrase(flagName)
}

// flagText is err's message with the library field error it holds, if
// any, phrased in the command line's words.
func flagText(err error) string {
	msg := err.Error()
	if fe, ok := field.As(err); ok {
		msg = strings.Replace(msg, fe.Error(), flagWords(fe), 1)
	}
	return msg
}

// isFieldError reports whether err holds a library field error: a bad
// value on the command line (exit 2).
func isFieldError(err error) bool {
	_, ok := field.As(err)
	return ok
}

// queryUsage turns a library field error into a usage error (exit 2),
// in the command line's words.
func queryUsage(err error) error {
	if isFieldError(err) {
		return usageError{errors.New(flagText(err))}
	}
	return err
}

// fieldText phrases a library text that names fields (a verdict's
// reason, a warning, a stalled candidate) in the command line's words:
// each field becomes its flag (min_improve: --min-improve;
// decide.PhraseFields).
func fieldText(s string) string { return decide.PhraseFields(s, flagName) }

// fieldTexts is fieldText of every text of list, in a new slice.
func fieldTexts(list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fieldText(s)
	}
	return out
}

// phraseVerdict rewrites the reasons and warnings of v in the command
// line's words (fieldText); v's slices are replaced, not changed.
func phraseVerdict(v *decide.Verdict) {
	if v == nil {
		return
	}
	v.Reasons = fieldTexts(v.Reasons)
	if v.Warnings != nil {
		ws := slices.Clone(v.Warnings)
		for i := range ws {
			ws[i].Message = fieldText(ws[i].Message)
		}
		v.Warnings = ws
	}
}
