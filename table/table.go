// Package table reads generic trial tables: CSV with a header row, or JSONL
// with one JSON object per line (a JSON array of objects is accepted too).
// The format is sniffed from the content. Only the columns a caller asks for
// are kept: numeric columns as float64 and text columns as strings, so that
// a million-row table reads in a fraction of a second.
package table

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"runtime"
	"strconv"

	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/internal/textin"
)

// Missing is the value of an absent numeric cell: a NaN with its own
// payload (it equals frontier.Missing), so that it can be told apart from
// a NaN written in the data.
var Missing = math.Float64frombits(0x7ff8_0000_00ba_d0ff)

// Spec names the columns to read.
type Spec struct {
	// Numeric columns are parsed as numbers; every one must exist.
	Numeric []string
	// Text columns are kept as strings; every one must exist.
	Text []string
	// OptionalText columns are kept when present (nil column otherwise).
	OptionalText []string
	// MaxRecordSize bounds a line, and an element of a JSON array, in
	// bytes (0: DefaultMaxRecordSize): a longer one is an error.
	MaxRecordSize int
	// MaxColumns bounds the columns of a CSV header and the members of a
	// JSONL object (0: DefaultMaxColumns): more is an error at the first
	// column over it, before the row is held.
	MaxColumns int
}

// DefaultMaxRecordSize is the default of Spec.MaxRecordSize.
const DefaultMaxRecordSize = 64 << 20

// DefaultMaxColumns is the default of Spec.MaxColumns: the columns of a
// spreadsheet (16,384 in Excel and LibreOffice Calc).
const DefaultMaxColumns = 1 << 14

func (s Spec) maxColumns() int {
	if s.MaxColumns <= 0 {
		return DefaultMaxColumns
	}
	return s.MaxColumns
}

// tooManyColumns is the error for a row of more than max columns, at the
// first one over it.
func tooManyColumns(name string, line, col, max int, what string) error {
	return &SyntaxError{File: name, Line: line, Col: col, Err: ErrTooManyColumns,
		Msg: fmt.Sprintf("more than %d %s in one row, over the limit (max_columns)", max, what)}
}

// ErrTooManyColumns is returned (wrapped) for a row over Spec.MaxColumns.
var ErrTooManyColumns = errors.New("too many columns")

func (s Spec) maxRecord() int {
	if s.MaxRecordSize <= 0 {
		return DefaultMaxRecordSize
	}
	return s.MaxRecordSize
}

// Table holds the requested columns of one input.
type Table struct {
	// Name is the input's name as given (a path, or "-" for stdin).
	Name string
	// Format is "csv", "jsonl" or "json".
	Format string
	// Columns lists every column name seen, in order of appearance.
	Columns []string
	// Num[i] holds the values of Spec.Numeric[i], one per row.
	Num [][]float64
	// Text[i] holds Spec.Text[i] followed by Spec.OptionalText; an absent
	// optional column is nil.
	Text [][]string
	// Lines[r] is the 1-based line on which row r starts.
	Lines []int32
	// CellErrors lists numeric cells that could not be parsed; their value
	// is Missing.
	CellErrors []CellError
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.Lines) }

// CellError is a numeric cell that holds something other than a number.
type CellError struct {
	Row    int
	Column string
	Line   int
	Col    int
	// Text is the cell's text, cut after textin.ExcerptLen bytes (with
	// "…") when longer (textin.Cut).
	Text string
}

// Error renders "line L, column "name": "text" is not a number".
func (e CellError) Error() string {
	return fmt.Sprintf("line %d, column %q: %q is not a number", e.Line, e.Column, e.Text)
}

// SyntaxError is a structural problem in an input, with its position
// (position.Error: "file:line:col: message").
type SyntaxError = position.Error

// ErrEmpty is returned for an input with no header and no rows.
var ErrEmpty = errors.New("empty input")

// Read reads one table from r, sniffing CSV, JSONL or a JSON array from
// the first non-blank byte. UTF-16 text is read as UTF-8 (see package
// textin); binary data (a NUL byte near the start) is an error.
func Read(r io.Reader, name string, spec Spec) (*Table, error) {
	return readWith(r, name, spec, runtime.GOMAXPROCS(0))
}

// readWith is Read with CSV blocks parsed by workers goroutines (line by line
// in this one when workers < 2).
func readWith(r io.Reader, name string, spec Spec, workers int) (*Table, error) {
	size := sizeOf(r)
	br := bufio.NewReaderSize(r, blockSize)
	head, _ := br.Peek(512)
	if o, bom := textin.UTF16(head); o != textin.NotUTF16 {
		br.Discard(bom)
		br = bufio.NewReaderSize(textin.NewReader(br, o), blockSize)
		size = 0
	} else if i, ok := textin.Binary(head); ok {
		return nil, binaryError(name, head, i)
	}
	if head, _ := br.Peek(3); bytes.Equal(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	c, err := firstByte(br)
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t := &Table{Name: name}
	switch c {
	case '{':
		t.Format = "jsonl"
		err = readJSONL(br, t, spec)
	case '[':
		t.Format = "json"
		err = readJSONArray(br, t, spec)
	default:
		t.Format = "csv"
		err = readCSV(br, t, spec, size, workers)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// sizeOf returns the size of r's input when it tells (a file, a bytes or
// strings reader), else 0.
func sizeOf(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Size() int64 }:
		return r.Size()
	case interface{ Stat() (fs.FileInfo, error) }:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return 0
}

// binaryError reports binary data, its first NUL at head[i].
func binaryError(name string, head []byte, i int) error {
	line := 1 + bytes.Count(head[:i], []byte{'\n'})
	col := i + 1 - (bytes.LastIndexByte(head[:i], '\n') + 1)
	return &SyntaxError{File: name, Line: line, Col: col, Msg: "binary data (a NUL byte), not a CSV or JSONL table"}
}

// firstByte returns the first byte that is not white space, unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		switch c := b[i-1]; c {
		case ' ', '\t', '\r', '\n':
			if i == 4096 {
				br.Discard(i)
				i = 0
			}
		default:
			return c, nil
		}
	}
}

// columns maps column names to their role in the Spec.
type columns struct {
	spec Spec
	num  map[string]int
	text map[string]int
}

func newColumns(spec Spec) *columns {
	c := &columns{spec: spec, num: map[string]int{}, text: map[string]int{}}
	for i, n := range spec.Numeric {
		c.num[n] = i
	}
	for i, n := range append(append([]string(nil), spec.Text...), spec.OptionalText...) {
		c.text[n] = i
	}
	return c
}

func (c *columns) nText() int { return len(c.spec.Text) + len(c.spec.OptionalText) }

// parseNumber parses a numeric cell; empty means Missing.
func parseNumber(s []byte) (float64, bool) {
	s = bytes.TrimSpace(s)
	if len(s) == 0 {
		return Missing, true
	}
	v, err := parseFloat(s)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true // ±Inf or 0 on overflow; reported as invalid later
		}
		return Missing, false
	}
	return v, true
}

// missingColumns returns an error naming required columns that are absent.
func missingColumns(name string, line int, spec Spec, seen map[string]bool, have []string) error {
	for _, group := range [][]string{spec.Numeric, spec.Text} {
		for _, col := range group {
			if !seen[col] {
				return &SyntaxError{File: name, Line: line, Msg: fmt.Sprintf("no column %s (have: %s)", textin.Excerpt(col), textin.Names(have))}
			}
		}
	}
	return nil
}
