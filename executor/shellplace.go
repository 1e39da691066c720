package executor

import (
	"fmt"
	"strings"
)

// A ShellPlace is where a byte of a /bin/sh script stands for the shell:
// whether a word ShellQuote wrote there would reach the command as one
// literal word (Unquoted) or be read some other way.
type ShellPlace int

// The places of a script's bytes. Only Unquoted is a place where a quoted
// value stays data: inside quotes the value's own quotes are literal
// characters (and "…", `…`, $((…)) and a here-document still expand
// $(…) in it), after a backslash its opening quote is escaped, and a
// comment ends at a newline the value may hold.
const (
	Unquoted     ShellPlace = iota // outside any quotes, in a command or a $(…) inside one
	Escaped                        // right after a backslash
	SingleQuoted                   // inside '…'
	DoubleQuoted                   // inside "…"
	Backquoted                     // inside `…`
	Arithmetic                     // inside $((…))
	Expansion                      // inside ${…}
	Comment                        // after a # that starts a word, to the end of the line
	HereDoc                        // in the body of a here-document (<<WORD)
)

var placeNames = [...]string{"unquoted", "after a backslash", "inside single quotes", "inside double quotes",
	"inside backquotes", "inside $((…))", "inside ${…}", "in a comment", "in a here-document"}

// String names p as an error message says it ("inside single quotes").
func (p ShellPlace) String() string {
	if p < 0 || int(p) >= len(placeNames) {
		return fmt.Sprintf("ShellPlace(%d)", int(p))
	}
	return placeNames[p]
}

// A ShellSyntaxError is a construct of a script that does not end: a
// quote, $(, ${, $(( or a here-document opened at Offset and not closed.
type ShellSyntaxError struct {
	Offset int    // 0-based byte offset of the opening
	What   string // what is not closed: "'", "\"", "`", "$(", "${", "$((", "here-document <<EOF"
}

func (e *ShellSyntaxError) Error() string {
	return fmt.Sprintf("%s opened at byte %d is not closed", e.What, e.Offset+1)
}

// frame kinds of the scanner's stack.
const (
	fTop = iota
	fCmd // $( … )
	fSingle
	fDouble
	fBack
	fArith // $(( … ))
	fParam // ${ … }
)

type shellFrame struct {
	kind, at, depth int
}

// heredoc is a here-document whose body starts at the next newline.
type heredoc struct {
	delim string
	tabs  bool // <<-: leading tabs of the body's lines are stripped
	at    int
}

// ShellPlaces returns the place of every offset of at (ascending byte
// offsets into script) as /bin/sh reads script: quotes, backslashes,
// $(…), `…`, $((…)), ${…}, comments and here-documents. A construct that
// is not closed is a *ShellSyntaxError (the places are still returned).
func ShellPlaces(script string, at []int) ([]ShellPlace, error) {
	out := make([]ShellPlace, len(at))
	next := 0
	stack := []shellFrame{{kind: fTop}}
	var pending []heredoc
	// mark records place p for every offset of at below end.
	mark := func(end int, p ShellPlace) {
		for next < len(at) && at[next] < end {
			out[next] = p
			next++
		}
	}
	place := func() ShellPlace {
		p := Unquoted
		for _, f := range stack {
			switch f.kind {
			case fArith:
				return Arithmetic
			case fParam:
				p = max(p, Expansion)
			case fBack:
				p = max(p, Backquoted)
			}
		}
		if p != Unquoted {
			return p
		}
		switch stack[len(stack)-1].kind {
		case fSingle:
			return SingleQuoted
		case fDouble:
			return DoubleQuoted
		}
		return Unquoted
	}
	push := func(kind, i int) { stack = append(stack, shellFrame{kind: kind, at: i}) }
	pop := func() { stack = stack[:len(stack)-1] }
	for i := 0; i < len(script); {
		mark(i+1, place())
		top := &stack[len(stack)-1]
		c := script[i]
		code := top.kind != fSingle && top.kind != fDouble
		switch {
		case top.kind == fSingle:
			if c == '\'' {
				pop()
			}
			i++
		case c == '\\':
			if i+1 < len(script) {
				mark(i+2, Escaped)
			}
			i += 2
		case top.kind == fDouble && c == '"':
			pop()
			i++
		case c == '`':
			if top.kind == fBack {
				pop()
			} else {
				push(fBack, i)
			}
			i++
		case strings.HasPrefix(script[i:], "$(("):
			push(fArith, i)
			i += 3
		case strings.HasPrefix(script[i:], "$("):
			push(fCmd, i)
			i += 2
		case strings.HasPrefix(script[i:], "${"):
			push(fParam, i)
			i += 2
		case top.kind == fDouble:
			i++
		case c == '\'':
			push(fSingle, i)
			i++
		case c == '"':
			push(fDouble, i)
			i++
		case top.kind == fParam && c == '}':
			pop()
			i++
		case top.kind == fArith && c == '(':
			top.depth++
			i++
		case top.kind == fArith && c == ')':
			if top.depth == 0 && strings.HasPrefix(script[i:], "))") {
				pop()
				i += 2
			} else {
				top.depth--
				i++
			}
		case code && c == '(' && top.kind != fParam:
			top.depth++
			i++
		case code && c == ')' && top.kind != fParam:
			if top.kind == fCmd && top.depth == 0 {
				pop()
			} else {
				top.depth--
			}
			i++
		case (top.kind == fTop || top.kind == fCmd || top.kind == fBack) && c == '#' && wordStart(script, i):
			end := strings.IndexByte(script[i:], '\n')
			if end < 0 {
				end = len(script) - i
			}
			mark(i+end, Comment)
			i += end
		case (top.kind == fTop || top.kind == fCmd || top.kind == fBack) && strings.HasPrefix(script[i:], "<<") && !strings.HasPrefix(script[i:], "<<<"):
			h, n := readHeredoc(script, i)
			if h.delim != "" {
				pending = append(pending, h)
			}
			i += n
		case c == '\n' && len(pending) > 0:
			i++
			for _, h := range pending {
				end, ok := heredocEnd(script, i, h)
				mark(end, HereDoc)
				if !ok {
					return out, &ShellSyntaxError{Offset: h.at, What: "here-document <<" + h.delim}
				}
				i = end
			}
			pending = pending[:0]
		default:
			i++
		}
	}
	mark(len(script)+1, place())
	if len(pending) > 0 {
		return out, &ShellSyntaxError{Offset: pending[0].at, What: "here-document <<" + pending[0].delim}
	}
	if f := stack[len(stack)-1]; f.kind != fTop {
		what := map[int]string{fCmd: "$(", fSingle: "'", fDouble: `"`, fBack: "`", fArith: "$((", fParam: "${"}[f.kind]
		return out, &ShellSyntaxError{Offset: f.at, What: what}
	}
	return out, nil
}

// wordStart reports whether script[i] starts a word: it follows nothing,
// a blank or an operator.
func wordStart(script string, i int) bool {
	return i == 0 || strings.IndexByte(" \t\n;&|()<>", script[i-1]) >= 0
}

// readHeredoc reads the here-document operator at script[i] ("<<" or
// "<<-", blanks, the delimiter word, whose quotes are removed) and
// returns it with the number of bytes it spans.
func readHeredoc(script string, i int) (heredoc, int) {
	h := heredoc{at: i}
	k := i + 2
	if k < len(script) && script[k] == '-' {
		h.tabs = true
		k++
	}
	for k < len(script) && (script[k] == ' ' || script[k] == '\t') {
		k++
	}
	var delim strings.Builder
	for k < len(script) && strings.IndexByte(" \t\n;&|()<>", script[k]) < 0 {
		switch c := script[k]; c {
		case '\'', '"':
			end := strings.IndexByte(script[k+1:], c)
			if end < 0 {
				end = len(script) - k - 1
			}
			delim.WriteString(script[k+1 : k+1+end])
			k += end + 2
		case '\\':
			if k+1 < len(script) {
				delim.WriteByte(script[k+1])
			}
			k += 2
		default:
			delim.WriteByte(c)
			k++
		}
	}
	h.delim = delim.String()
	return h, min(k, len(script)) - i
}

// heredocEnd returns the offset just past the delimiter line of the
// here-document h whose body starts at script[i], and whether there is one.
func heredocEnd(script string, i int, h heredoc) (int, bool) {
	for i < len(script) {
		end := strings.IndexByte(script[i:], '\n')
		line := script[i:]
		if end >= 0 {
			line = script[i : i+end]
		}
		if h.tabs {
			line = strings.TrimLeft(line, "\t")
		}
		if line == h.delim {
			if end < 0 {
				return len(script), true
			}
			return i + end + 1, true
		}
		if end < 0 {
			break
		}
		i += end + 1
	}
	return len(script), false
}
