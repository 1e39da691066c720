// Package field types the errors of a request's values: which field of a
// library request (a query's Spec, a gate's GateSpec, a pick's PickSpec, a
// tuning study's spec…) holds a bad value, the value, and why, so that
// each caller phrases it in its own words: the command line names its
// flags (--min-repeats), the MCP server its arguments (min_repeats).
//
// Fields are named in lower snake case, as the MCP tools name their
// arguments (min_repeats, config_key); a caller maps the names it spells
// otherwise. A Reason may refer to other fields with %s verbs, filled, in
// order, with the names of Others as the caller spells them:
//
//	&field.Error{Field: "max_runs", Reason: "must be at least %s", Others: []string{"min_repeats"}}
//
// reads "max_runs must be at least min_repeats" (Error), and
// "--max-runs must be at least --min-repeats" on the command line.
package field

import (
	"errors"
	"fmt"
	"strings"
)

// Error is a bad value in one field of a request.
type Error struct {
	// Field names the field (lower snake case).
	Field string
	// Value is the value given, after the field's name in the message
	// (quoted when Quote); empty when the reason or Err quotes it, or the
	// field was not given.
	Value string
	Quote bool
	// Reason says why the value is refused, without naming the field; with
	// Others it is a format naming them through %s verbs (see the package
	// doc). Empty when Err says it all.
	Reason string
	Others []string
	// Err is the underlying error, when there is one; its text follows
	// the reason.
	Err error
	// Named says that the message names the value itself and does not
	// start with the field: it is the Reason (with Others) alone, else
	// Err's text (a parser's message quoting the value).
	Named bool
	// Missing says that the field was not given (Required).
	Missing bool
}

// Error renders the error with the fields' own names.
func (e *Error) Error() string { return e.Phrase(func(f string) string { return f }) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Phrase renders the error with the fields named by name: the field (and
// its value, quoted when Quote), the reason, then the underlying error.
func (e *Error) Phrase(name func(field string) string) string {
	switch {
	case e.Named && e.Reason != "":
		return e.reason(name)
	case e.Named && e.Err != nil:
		return e.Err.Error()
	case e.Missing:
		names := []string{name(e.Field)}
		for _, o := range e.Others {
			names = append(names, name(o))
		}
		return strings.Join(names, " or ") + " is required"
	}
	s := name(e.Field)
	switch {
	case e.Quote:
		s += fmt.Sprintf(" %q", e.Value)
	case e.Value != "":
		s += " " + e.Value
	}
	if e.Reason != "" {
		s += " " + e.reason(name)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// reason renders the Reason, naming Others by name.
func (e *Error) reason(name func(string) string) string {
	if len(e.Others) == 0 {
		return e.Reason
	}
	others := make([]any, len(e.Others))
	for i, o := range e.Others {
		others[i] = name(o)
	}
	return fmt.Sprintf(e.Reason, others...)
}

// Invalid returns the error of field's value, refused for reason.
func Invalid(field, value, reason string) *Error {
	return &Error{Field: field, Value: value, Quote: true, Reason: reason}
}

// Wrap returns the error of field's value, refused for err.
func Wrap(field, value string, err error) *Error {
	return &Error{Field: field, Value: value, Quote: true, Err: err}
}

// Required returns the error of a field that must be given; with others,
// one of field and others must be.
func Required(field string, others ...string) *Error {
	return &Error{Field: field, Others: others, Missing: true}
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) { return errors.AsType[*Error](err) }

// Namer names fields as a caller spells them (the command line: min_repeats
// is --min-repeats); a library whose texts name its request's fields
// takes one, and a nil Namer keeps the fields' own names (the MCP tools'
// arguments).
type Namer func(field string) string

// Name returns field as n spells it.
func (n Namer) Name(field string) string {
	if n == nil {
		return field
	}
	return n(field)
}
