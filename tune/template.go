package tune

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/search"
)

// placeholder matches {name} in a command template.
var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_.-]*)\}`)

// TemplateFile names a command template in the errors of CheckTemplate.
const TemplateFile = "--command"

// placeholders returns the [start, end, name start, name end] of every
// placeholder of template: {name} not preceded by '$' (${NAME} is the
// shell's parameter expansion, left to it).
func placeholders(template string) [][]int {
	var out [][]int
	for _, m := range placeholder.FindAllStringSubmatchIndex(template, -1) {
		if m[0] > 0 && template[m[0]-1] == '$' {
			continue
		}
		out = append(out, m)
	}
	return out
}

// CheckTemplate checks a command template against the space: every
// placeholder names a parameter, and stands where the one shell-quoted
// word Expand puts there is read as one literal word: outside quotes,
// backquotes, $((…)), ${…}, comments and here-documents, and not after a
// backslash. A placeholder may be a word of its own ({model}) or part of
// one (--tp={tp}, out-{tp}.json: the shell joins the quoted value to the
// rest). The template's quotes, $(…) and here-documents must be closed.
// The error is a *position.Error at the placeholder's line and column
// (bytes) in the template (File TemplateFile).
func CheckTemplate(template string, space *search.Space) error {
	ms := placeholders(template)
	at := make([]int, len(ms))
	for i, m := range ms {
		at[i] = m[0]
	}
	places, serr := executor.ShellPlaces(template, at)
	for i, m := range ms {
		name := template[m[2]:m[3]]
		if _, ok := space.Param(name); !ok {
			return templateError(template, m[0], fmt.Sprintf("{%s} is not a parameter of the search space", name))
		}
		if p := places[i]; p != executor.Unquoted {
			return templateError(template, m[0], fmt.Sprintf("{%s} is %s: write it outside quotes, as a word ({%s}) or part of one (--%s={%s}); "+
				"pareto quotes its value, or read $PARETO_PARAM_%s", name, p, name, name, name, executor.EnvName(name)))
		}
	}
	if se, ok := serr.(*executor.ShellSyntaxError); ok {
		return templateError(template, se.Offset, se.Error())
	}
	return nil
}

// templateError is a *position.Error at byte off of template.
func templateError(template string, off int, msg string) error {
	line := 1 + strings.Count(template[:off], "\n")
	col := off + 1
	if nl := strings.LastIndexByte(template[:off], '\n'); nl >= 0 {
		col = off - nl
	}
	return &position.Error{File: TemplateFile, Line: line, Col: col, Offset: int64(off), Msg: msg}
}

// Expand returns the command line of a run: each {name} of the template
// replaced by the parameter's value as one shell-quoted word
// (executor.ShellQuote; the empty word for an inactive parameter), so that a value is
// always data, never shell syntax. Check the template first
// (CheckTemplate): a placeholder inside quotes would not be one word.
func Expand(template string, c search.Config) string {
	var b strings.Builder
	last := 0
	for _, m := range placeholders(template) {
		b.WriteString(template[last:m[0]])
		v, ok := c[template[m[2]:m[3]]]
		if ok {
			b.WriteString(executor.ShellQuote(v.String()))
		} else {
			b.WriteString("''")
		}
		last = m[1]
	}
	b.WriteString(template[last:])
	return b.String()
}

// Env returns the environment of a run: PARETO_PARAM_<NAME>=value for
// every active parameter (NAME upper-cased, other characters than
// letters and digits as _; the raw value, unquoted), PARETO_RUN (the
// run's ID), PARETO_TRIAL (its configuration's number), PARETO_ROLE and
// PARETO_SEED (the run's ID: a simulated run's noise seed, the same when
// a run is retried).
func Env(r Run) []string {
	var out []string
	for _, name := range r.Config.Names() {
		out = append(out, "PARETO_PARAM_"+executor.EnvName(name)+"="+r.Config[name].String())
	}
	id := strconv.FormatInt(r.ID, 10)
	return append(out, "PARETO_RUN="+id, "PARETO_TRIAL="+strconv.Itoa(r.Trial), "PARETO_ROLE="+r.Role, "PARETO_SEED="+id)
}
