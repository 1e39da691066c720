package executor

import (
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"text/template/parse"
)

// A batch script template is checked when it is parsed (checkScriptTemplate)
// so that no value reaches the job's shell as code, whatever the template:
//
//   - .Command and an environment variable's .Value are printed through
//     quote, nowhere else: they are the user's text, and may hold newlines.
//   - The other text fields (.ID, .Dir, .Output, .Error, .Partition,
//     .Account) are printed through quote, or as they are on a line that
//     is a comment to the shell (#SBATCH lines): pareto guarantees they hold
//     no newline, no double quote and no NUL byte.
//   - What quote prints stands where the shell reads it as one literal word
//     (ShellPlaces: Unquoted), not inside the template's own quotes, a
//     comment or a here-document.
//
// The first two rules are checked on every branch of the template; the
// third on the script the template renders for a job asking for every
// resource (the branches a job can take).

// textFields are SlurmScript's and EnvVar's fields that carry text from
// outside pareto; userFields those that may hold a newline.
var (
	textFields = map[string]bool{"ID": true, "Dir": true, "Output": true, "Error": true, "Partition": true, "Account": true,
		"Command": true, "Value": true}
	userFields = map[string]bool{"Command": true, "Value": true}
)

// checkScriptTemplate applies the rules above to t (a user's template,
// read from path).
func checkScriptTemplate(t *template.Template, path string) error {
	for _, tt := range t.Templates() {
		if tt.Tree == nil || tt.Tree.Root == nil {
			continue
		}
		c := &tmplChecker{tree: tt.Tree, path: path}
		c.list(tt.Tree.Root)
		if c.err != nil {
			return c.err
		}
	}
	return probeScriptTemplate(t, path)
}

type tmplChecker struct {
	tree *parse.Tree
	path string
	line string // the text of the current line before the node
	err  error
}

func (c *tmplChecker) fail(n parse.Node, format string, args ...any) {
	if c.err == nil {
		loc, _ := c.tree.ErrorContext(n)
		c.err = fmt.Errorf("executor: slurm template %s: %s", loc, fmt.Sprintf(format, args...))
	}
}

func (c *tmplChecker) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		c.node(n)
	}
}

func (c *tmplChecker) node(n parse.Node) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := string(n.Text)
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			c.line = text[i+1:]
		} else {
			c.line += text
		}
	case *parse.ActionNode:
		c.action(n)
		c.line += "x"
	case *parse.IfNode:
		c.list(n.List)
		c.list(n.ElseList)
	case *parse.RangeNode:
		c.list(n.List)
		c.list(n.ElseList)
	case *parse.WithNode:
		c.list(n.List)
		c.list(n.ElseList)
	case *parse.ListNode:
		c.list(n)
	}
}

// action checks one {{...}} that prints.
func (c *tmplChecker) action(a *parse.ActionNode) {
	p := a.Pipe
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) == 0 {
		return
	}
	last := p.Cmds[len(p.Cmds)-1]
	if id, ok := last.Args[0].(*parse.IdentifierNode); ok && id.Ident == "quote" {
		return
	}
	var names []string
	unknown := false
	var walk func(parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.FieldNode:
			names = append(names, n.Ident[len(n.Ident)-1])
		case *parse.ChainNode:
			names = append(names, n.Field[len(n.Field)-1])
			walk(n.Node)
		case *parse.VariableNode:
			if len(n.Ident) > 1 {
				names = append(names, n.Ident[len(n.Ident)-1])
			} else {
				unknown = true
			}
		case *parse.DotNode:
			unknown = true
		case *parse.PipeNode:
			for _, cmd := range n.Cmds {
				walk(cmd)
			}
		case *parse.CommandNode:
			for _, arg := range n.Args {
				walk(arg)
			}
		}
	}
	walk(p)
	comment := strings.HasPrefix(strings.TrimLeft(c.line, " \t"), "#")
	for _, name := range names {
		switch {
		case userFields[name]:
			c.fail(a, "%s must be printed with quote ({{quote .%s}}): it is the user's text and may hold any character", a, name)
		case textFields[name] && !comment:
			c.fail(a, "%s must be printed with quote ({{quote .%s}}) outside a comment or #SBATCH line", a, name)
		}
	}
	if unknown && !comment {
		c.fail(a, "%s prints a value that may be text: print it with quote", a)
	}
}

// markerRE finds the probe's markers in a rendered script.
var markerRE = regexp.MustCompile(`PARETO(Q|R)[0-9]+X`)

// probeScriptTemplate renders t for a job asking for every resource, its
// quoted values and text fields as markers, and checks where the shell
// reads each: a quoted value as one word, a text field in a comment.
func probeScriptTemplate(t *template.Template, path string) error {
	n := 0
	raw := func() string { n++; return fmt.Sprintf("PARETOR%dX", n) }
	d := SlurmScript{ID: raw(), JobName: "pareto-probe", Dir: raw(), Output: raw(), Error: raw(), Command: raw(),
		Env: []EnvVar{{Name: "PARETO_PROBE", Value: raw()}}, Nodes: 1, GPUsPerNode: 1, GPUOption: "--gpus-per-node=1",
		TimeLimit: "0-00:01:00", TimeLimitMinutes: 1, Partition: raw(), Account: raw()}
	probe, err := t.Clone()
	if err != nil {
		return fmt.Errorf("executor: slurm template %s: %w", path, err)
	}
	probe.Funcs(template.FuncMap{"quote": func(string) string { n++; return fmt.Sprintf("PARETOQ%dX", n) }})
	var b strings.Builder
	if err := probe.Execute(&b, d); err != nil {
		return nil // Start reports it with the job's data
	}
	script := b.String()
	ms := markerRE.FindAllStringSubmatchIndex(script, -1)
	at := make([]int, len(ms))
	for i, m := range ms {
		at[i] = m[0]
	}
	places, err := ShellPlaces(script, at)
	if se, ok := err.(*ShellSyntaxError); ok {
		return fmt.Errorf("executor: slurm template %s: the script it renders: line %d: %s", path, lineOf(script, se.Offset), se.What+" is not closed")
	}
	for i, m := range ms {
		kind, p := script[m[2]:m[3]], places[i]
		switch {
		case kind == "Q" && p != Unquoted:
			return fmt.Errorf("executor: slurm template %s: line %d of the script it renders: a quoted value is %s; put {{quote ...}} outside quotes, as a word",
				path, lineOf(script, m[0]), p)
		case kind == "R" && p != Comment:
			return fmt.Errorf("executor: slurm template %s: line %d of the script it renders: a value printed without quote is %s, not on a comment or #SBATCH line",
				path, lineOf(script, m[0]), p)
		}
	}
	return nil
}

// lineOf returns the 1-based line of byte off of s.
func lineOf(s string, off int) int { return 1 + strings.Count(s[:off], "\n") }
