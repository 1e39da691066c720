package report

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Pos is a 1-based position in a configuration file.
type Pos struct {
	Line, Col int
}

// ConfigError is a configuration error located in a file. It renders as
// "file:line:col: message"; Line and Col are 0 when unknown.
type ConfigError struct {
	File string
	Pos
	Msg string
}

// Error implements error.
func (e *ConfigError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
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

// posIndex maps a concrete key path ("reports.pareto.plots.0.x.metric") to
// the position of its key, or of the element for array items.
type posIndex map[string]Pos

// buildIndex records the position of every key and array element of a TOML
// document. It assumes the document parses (decode it first).
func buildIndex(data []byte) posIndex {
	var p unstable.Parser
	p.Reset(data)
	ix := posIndex{}
	arrays := map[string]int{}
	var table string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, first := keyParts(e.Key())
			table = concretePath(parts, arrays, e.Kind == unstable.ArrayTable)
			if first != nil {
				ix[table] = shape(&p, first)
			}
		case unstable.KeyValue:
			ix.keyValue(&p, table, e)
		}
	}
	return ix
}

// concretePath resolves a table header to a path with array indices.
func concretePath(parts []string, arrays map[string]int, arrayTable bool) string {
	path := ""
	for i, part := range parts {
		path = join(path, part)
		last := i == len(parts)-1
		if last && arrayTable {
			n := arrays[path]
			arrays[path] = n + 1
			return join(path, strconv.Itoa(n))
		}
		if n, ok := arrays[path]; ok && n > 0 {
			path = join(path, strconv.Itoa(n-1))
		}
	}
	return path
}

// keyValue indexes one key = value expression under prefix.
func (ix posIndex) keyValue(p *unstable.Parser, prefix string, kv *unstable.Node) {
	parts, first := keyParts(kv.Key())
	path := prefix
	for _, part := range parts {
		path = join(path, part)
	}
	if first != nil {
		ix[path] = shape(p, first)
	}
	ix.value(p, path, kv.Value(), ix[path])
}

// value indexes the contents of an inline table or array.
func (ix posIndex) value(p *unstable.Parser, path string, v *unstable.Node, at Pos) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				ix.keyValue(p, path, n)
			}
		}
	case unstable.Array:
		it := v.Children()
		i := 0
		for it.Next() {
			n := it.Node()
			if n.Kind == unstable.Comment {
				continue
			}
			el := join(path, strconv.Itoa(i))
			ix[el] = at
			if n.Raw.Length > 0 {
				ix[el] = shape(p, n)
			}
			ix.value(p, el, n, ix[el])
			i++
		}
	}
}

// keyParts returns the parts of a key and its first node.
func keyParts(it unstable.Iterator) ([]string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		if first == nil {
			first = it.Node()
		}
		parts = append(parts, string(it.Node().Data))
	}
	return parts, first
}

func shape(p *unstable.Parser, n *unstable.Node) Pos {
	s := p.Shape(n.Raw)
	return Pos{s.Start.Line, s.Start.Column}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// decodeError converts a go-toml error into a *ConfigError.
func decodeError(file string, err error) *ConfigError {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return &ConfigError{File: file, Pos: Pos{line, col}, Msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return &ConfigError{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}
