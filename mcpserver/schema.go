package mcpserver

import (
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/pareto-llm/pareto/search"
)

// Constraints of the tools' arguments, by argument name (the names mean
// the same in every tool): what the handlers and libraries check, stated
// in the input schema so that a client sees them and the SDK refuses a
// violation naming the argument.
var (
	// atLeastOne are counts where 0 would be taken as "not given".
	atLeastOne = []string{"budget", "repeats", "min_repeats", "limit", "trial"}
	// nonNegative are counts where 0 means "no cap" or "default".
	nonNegative = []string{"max_runs", "min_requests", "seed"}
	// fractions are levels strictly between 0 and 1 (0: the default).
	fractions = []string{"confidence", "futility"}
	enums     = map[string][]any{
		"sampler":   toAny(search.Samplers),
		"aggregate": {"median", "mean", "none"},
	}
)

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// constrain adds the arguments' constraints to input schema in: minimums,
// enums, and for a required argument: no null, and a non-empty string or
// list.
func constrain(in *jsonschema.Schema) {
	zero, one := 0.0, 1.0
	for name, p := range in.Properties {
		switch {
		case slices.Contains(atLeastOne, name):
			p.Minimum = &one
		case slices.Contains(nonNegative, name):
			p.Minimum = &zero
		case slices.Contains(fractions, name):
			// 0 is the default (omitted); otherwise strictly inside (0, 1).
			p.Minimum, p.ExclusiveMaximum = &zero, &one
		}
		if e, ok := enums[name]; ok {
			p.Enum = e
		}
		if !slices.Contains(in.Required, name) {
			continue
		}
		if slices.Contains(p.Types, "null") {
			p.Type, p.Types = nonNull(p.Types), nil
		}
		switch p.Type {
		case "array":
			n := 1
			p.MinItems = &n
		case "string":
			n := 1
			p.MinLength = &n
		}
	}
}

func nonNull(types []string) string {
	for _, t := range types {
		if t != "null" {
			return t
		}
	}
	return ""
}

// flagRE matches a command-line flag in a library's message: --name, or
// -o (pareto's objective flag).
var flagRE = regexp.MustCompile(`(^|[\s("'])(--[a-z][a-z0-9-]*|-o)\b`)

// flagArgs are the flags whose argument has another name than the flag's.
var flagArgs = map[string]string{"o": "objectives", "objective": "objectives", "slo": "slos", "value": "values", "file": "files"}

// objectivePhrases are the libraries' phrases about -o that read better
// rewritten whole.
var objectivePhrases = strings.NewReplacer(
	"with -o NAME:min|max", "in objectives (NAME:min or NAME:max)",
	"at least one -o NAME:min or -o NAME:max", "at least one in objectives (NAME:min or NAME:max)")

// argWording phrases a library's message in the tool's terms: a flag of
// the command that names one of the tool's arguments becomes the
// argument's name (--min-improve: min_improve, -o: objectives); other
// flags (of pareto mcp itself) stay.
func argWording(msg string, in *jsonschema.Schema) string {
	if in == nil || !strings.Contains(msg, "-") {
		return msg
	}
	if _, ok := in.Properties["objectives"]; ok {
		msg = objectivePhrases.Replace(msg)
	}
	return flagRE.ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.IndexByte(m, '-')
		flag := strings.TrimLeft(m[i:], "-")
		name, ok := flagArgs[flag]
		if !ok {
			name = strings.ReplaceAll(flag, "-", "_")
		}
		if _, ok := in.Properties[name]; !ok {
			return m
		}
		return m[:i] + name
	})
}

// haveRE matches the column list a table reader's "no column" error
// gives: the names of the file's header.
var haveRE = regexp.MustCompile(`\(have: ([^()\n]*)\)`)

// noContent drops from a message the column list of a header of one
// column: the first line of a file that is no table (a passwd file, a
// note), which would otherwise be quoted whole. The names of a real
// table's columns stay.
func noContent(msg string) string {
	return haveRE.ReplaceAllStringFunc(msg, func(m string) string {
		if strings.Contains(m, ", ") {
			return m
		}
		return "(its first line is no header of named columns: not a table)"
	})
}
