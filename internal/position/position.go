// Package position is the one way pareto locates a problem in a user's
// file: a 1-based line and column, and the error that renders them as
// "file:line:col: message". The readers (ingest, table), the CloudAI
// configuration decoder and the report configuration all return it, so
// that every positioned message looks the same and callers test for one
// type. toml.go indexes the keys of a TOML document by position.
package position

import (
	"cmp"
	"fmt"
)

// Pos is a 1-based position in a file; zero fields are unknown.
type Pos struct {
	Line, Col int
}

// Compare returns -1, 0 or +1 as p comes before, at or after q in the
// file: by line, then column.
func (p Pos) Compare(q Pos) int {
	if c := cmp.Compare(p.Line, q.Line); c != 0 {
		return c
	}
	return cmp.Compare(p.Col, q.Col)
}

// Error is a problem located in a file. It renders as
// "file:line:col: message", "file:line: message" without a column, and
// "file: message" without a line.
type Error struct {
	// File names the file as the user gave it.
	File string
	// Line and Col are 1-based (the column counts bytes); 0 when unknown.
	Line, Col int
	// Offset is the 0-based byte offset of the problem, when known.
	Offset int64
	// Msg says what is wrong.
	Msg string
	// Err is the underlying error, if any (errors.Is sees it).
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// At returns the error's position.
func (e *Error) At() Pos { return Pos{e.Line, e.Col} }
