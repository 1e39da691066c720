package position

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// DecodeTOML unmarshals data, the TOML file named file, into v; a go-toml
// error becomes an *Error (TOMLError).
func DecodeTOML(file string, data []byte, v any) error {
	if err := toml.Unmarshal(data, v); err != nil {
		return TOMLError(file, err)
	}
	return nil
}

// TOMLError converts an error of go-toml (a *toml.DecodeError or a
// *toml.StrictMissingError) into an *Error named after file, with the
// key it concerns when go-toml says.
func TOMLError(file string, err error) *Error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) > 0 {
			msg = fmt.Sprintf("%s (key %s)", msg, strings.Join(k, "."))
		}
		return &Error{File: file, Line: line, Col: col, Msg: msg, Err: err}
	}
	var se *toml.StrictMissingError
	if errors.As(err, &se) && len(se.Errors) > 0 {
		return TOMLError(file, &se.Errors[0])
	}
	return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: "), Err: err}
}

// TOMLIndex maps a concrete key path ("reports.pareto.plots.0.x.metric",
// array elements numbered from 0) to the position of its key, or of the
// element for array items.
type TOMLIndex map[string]Pos

// IndexTOML records the position of every table, key and array element of
// a TOML document. It assumes the document parses (decode it first); a
// document that does not parse is indexed up to the error.
func IndexTOML(data []byte) TOMLIndex {
	var p unstable.Parser
	p.Reset(data)
	ix := TOMLIndex{}
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

// ArrayTableLines returns the 1-based line of every [[name]] header (name
// dotted, "Tests" or "reports.pareto.plots"), in document order.
func (ix TOMLIndex) ArrayTableLines(name string) []int {
	var lines []int
	for i := 0; ; i++ {
		p, ok := ix[JoinKey(name, strconv.Itoa(i))]
		if !ok {
			return lines
		}
		lines = append(lines, p.Line)
	}
}

// concretePath resolves a table header to a path with array indices.
func concretePath(parts []string, arrays map[string]int, arrayTable bool) string {
	path := ""
	for i, part := range parts {
		path = JoinKey(path, part)
		last := i == len(parts)-1
		if last && arrayTable {
			n := arrays[path]
			arrays[path] = n + 1
			return JoinKey(path, strconv.Itoa(n))
		}
		if n, ok := arrays[path]; ok && n > 0 {
			path = JoinKey(path, strconv.Itoa(n-1))
		}
	}
	return path
}

// keyValue indexes one key = value expression under prefix.
func (ix TOMLIndex) keyValue(p *unstable.Parser, prefix string, kv *unstable.Node) {
	parts, first := keyParts(kv.Key())
	path := prefix
	for _, part := range parts {
		path = JoinKey(path, part)
	}
	if first != nil {
		ix[path] = shape(p, first)
	}
	ix.value(p, path, kv.Value(), ix[path])
}

// value indexes the contents of an inline table or array.
func (ix TOMLIndex) value(p *unstable.Parser, path string, v *unstable.Node, at Pos) {
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
			el := JoinKey(path, strconv.Itoa(i))
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

// JoinKey joins two parts of a key path with a dot ("" joins to the other).
func JoinKey(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
