package cloudai

import (
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// PosError is an error located in a TOML file. It renders as
// "file:line:col: message"; Line and Col are 1-based and 0 when unknown.
type PosError struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error implements error.
func (e *PosError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

// decodeTOML unmarshals data into v and converts go-toml errors into
// *PosError values named after file.
func decodeTOML(file string, data []byte, v any) error {
	err := toml.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	return positioned(file, err)
}

// positioned converts a go-toml error into a *PosError.
func positioned(file string, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) > 0 {
			msg = fmt.Sprintf("%s (key %s)", msg, strings.Join(k, "."))
		}
		return &PosError{File: file, Line: line, Col: col, Msg: msg}
	}
	var se *toml.StrictMissingError
	if errors.As(err, &se) && len(se.Errors) > 0 {
		return positioned(file, &se.Errors[0])
	}
	return &PosError{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

// arrayTableLines returns the 1-based line of every [[name]] header in data, in
// document order. It is used to point semantic errors at the right entry; a
// document that does not parse yields the headers found before the error.
func arrayTableLines(data []byte, name string) []int {
	var p unstable.Parser
	p.Reset(data)
	var lines []int
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.ArrayTable {
			continue
		}
		name2, first := keyString(e.Key())
		if name2 == name && first != nil {
			lines = append(lines, p.Shape(first.Raw).Start.Line)
		}
	}
	return lines
}

// keyString joins the parts of a parsed TOML key with dots and returns the
// first part's node, which carries the key's position.
func keyString(it unstable.Iterator) (string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		if first == nil {
			first = it.Node()
		}
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, "."), first
}
