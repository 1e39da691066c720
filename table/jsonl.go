package table

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/textin"
)

// readJSONL reads one JSON object per line. Blank lines are skipped.
func readJSONL(br *bufio.Reader, t *Table, spec Spec) error {
	c := newCSVReader(br, t.Name, spec)
	b := newObjectBuilder(t, spec)
	for {
		raw, err := c.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			continue
		}
		if max := spec.maxColumns(); len(line) >= 5*max { // n members take at least 5n-1 bytes
			if col := memberOver(line, max); col > 0 {
				return tooManyColumns(t.Name, c.line, col+len(raw)-len(bytes.TrimLeft(raw, " \t\r\n")), max, "members")
			}
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			return jsonError(t.Name, c.line, line, err)
		}
		if err := b.add(obj, c.line); err != nil {
			return err
		}
	}
	return b.finish()
}

// memberOver returns the 1-based byte column of the member of the object
// line past the first max, or 0 when it has no more than max (or is no
// object: Unmarshal then says why).
func memberOver(line []byte, max int) int {
	d := jsontext.NewDecoder(bytes.NewReader(line), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0
	}
	for n := 0; d.PeekKind() != '}'; n++ {
		if n == max {
			rest := line[d.InputOffset():]
			return int(d.InputOffset()) + len(rest) - len(bytes.TrimLeft(rest, ", \t\r\n")) + 1
		}
		if _, err := d.ReadToken(); err != nil {
			return 0
		}
		if err := d.SkipValue(); err != nil {
			return 0
		}
	}
	return 0
}

// readJSONArray reads a JSON array of objects.
func readJSONArray(br *bufio.Reader, t *Table, spec Spec) error {
	dec := json.NewDecoder(br)
	b := newObjectBuilder(t, spec)
	lines := &lineCounter{}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	max := spec.maxColumns()
	for dec.More() {
		// Each element is held as its bytes first, and its members counted
		// when it may hold more than max, before it becomes a map.
		var raw json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			return &SyntaxError{File: t.Name, Line: 1, Msg: fmt.Sprintf("array element at byte %d: %v", start, err)}
		}
		if n := dec.InputOffset() - start; n > int64(spec.maxRecord()) {
			return &SyntaxError{File: t.Name, Line: 1, Msg: fmt.Sprintf("array element at byte %d: %s, over the record size limit of %s (max_record_size)",
				start, textin.Size(n), textin.Size(int64(spec.maxRecord())))}
		}
		if len(raw) >= 5*max {
			if col := memberOver(raw, max); col > 0 {
				return &SyntaxError{File: t.Name, Line: 1, Err: ErrTooManyColumns,
					Msg: fmt.Sprintf("array element at byte %d: more than %d members in one row, over the limit (max_columns)", start, max)}
			}
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return &SyntaxError{File: t.Name, Line: 1, Msg: fmt.Sprintf("array element at byte %d: %v", start, err)}
		}
		if err := b.add(obj, lines.next()); err != nil {
			return err
		}
	}
	return b.finish()
}

// lineCounter numbers array elements when lines are not meaningful.
type lineCounter struct{ n int }

func (l *lineCounter) next() int { l.n++; return l.n }

// jsonError positions a JSON decoding error within its line.
func jsonError(name string, line int, text []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &SyntaxError{File: name, Line: line, Col: int(se.Offset), Msg: "invalid JSON: " + se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &SyntaxError{File: name, Line: line, Col: int(te.Offset), Msg: "want a JSON object per line, got " + te.Value}
	}
	return &SyntaxError{File: name, Line: line, Col: 1, Msg: "invalid JSON: " + err.Error()}
}

// objectBuilder accumulates columns from JSON objects.
type objectBuilder struct {
	t     *Table
	cols  *columns
	seen  map[string]bool
	found []bool
}

func newObjectBuilder(t *Table, spec Spec) *objectBuilder {
	cols := newColumns(spec)
	t.Num = make([][]float64, len(spec.Numeric))
	t.Text = make([][]string, cols.nText())
	return &objectBuilder{t: t, cols: cols, seen: map[string]bool{}, found: make([]bool, cols.nText())}
}

func (b *objectBuilder) add(obj map[string]json.RawMessage, line int) error {
	t := b.t
	row := len(t.Lines)
	t.Lines = append(t.Lines, int32(line))
	for key := range obj {
		if !b.seen[key] {
			b.seen[key] = true
			t.Columns = append(t.Columns, key)
		}
	}
	for i, name := range b.cols.spec.Numeric {
		v, text, ok := jsonNumber(obj[name])
		if !ok {
			t.CellErrors = append(t.CellErrors, CellError{Row: row, Column: name, Line: line, Text: textin.Cut(text)})
		}
		t.Num[i] = append(t.Num[i], v)
	}
	for name, i := range b.cols.text {
		raw, present := obj[name]
		if present {
			b.found[i] = true
		}
		for len(t.Text[i]) < row {
			t.Text[i] = append(t.Text[i], "")
		}
		t.Text[i] = append(t.Text[i], jsonText(raw))
	}
	return nil
}

// finish checks required columns and drops optional ones never seen.
func (b *objectBuilder) finish() error {
	t := b.t
	if len(t.Lines) == 0 {
		return fmt.Errorf("%s: %w", t.Name, ErrEmpty)
	}
	if err := missingColumns(t.Name, 1, b.cols.spec, b.seen, t.Columns); err != nil {
		return err
	}
	for i, ok := range b.found {
		if !ok && i >= len(b.cols.spec.Text) {
			t.Text[i] = nil
		}
	}
	return nil
}

// jsonNumber reads a numeric cell: a number, a numeric string ("inf"), or
// null/absent (Missing).
func jsonNumber(raw json.RawMessage) (float64, string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return Missing, "", true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return Missing, string(raw), false
		}
		v, ok := parseNumber([]byte(s))
		return v, s, ok
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return Missing, string(raw), false
	}
	return v, "", true
}

// jsonText renders a text cell: strings unquoted, other values as written.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}
