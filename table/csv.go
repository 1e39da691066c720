package table

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/pareto-llm/pareto/internal/textin"
)

// csvReader splits CSV records (RFC 4180: quoted fields may hold commas,
// doubled quotes and newlines). Lines without quotes take a fast path that
// slices the reader's buffer without copying.
type csvReader struct {
	br     *bufio.Reader
	src    []byte // read from instead of br when br is nil
	name   string
	max    int // longest line accepted (Spec.MaxRecordSize)
	cols1  int // Spec.MaxColumns + 1: a plain line is split no further
	line   int // lines consumed so far
	buf    []byte
	fields [][]byte
	cols   []int // 1-based byte column where each field starts
	// open says the last line read has no line end (it ends the input),
	// and openLen is its length.
	open    bool
	openLen int
}

// newCSVReader returns a csvReader of br for spec.
func newCSVReader(br *bufio.Reader, name string, spec Spec) *csvReader {
	return &csvReader{br: br, name: name, max: spec.maxRecord(), cols1: spec.maxColumns() + 1}
}

// next returns the fields of the next record and the line it starts on.
// Blank lines are skipped. It returns io.EOF at the end.
func (c *csvReader) next() ([][]byte, int, error) {
	for {
		raw, err := c.readLine()
		if err != nil {
			return nil, 0, err
		}
		start := c.line
		line := trimEOL(raw)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if bytes.IndexByte(line, '"') < 0 {
			c.splitPlain(line)
		} else if err := c.splitQuoted(line); err != nil {
			return nil, 0, err
		}
		if c.open {
			return nil, 0, &SyntaxError{File: c.name, Line: c.line, Col: c.openLen + 1,
				Msg: "the last line ends without a line end: the file may be truncated (end it with a newline if it is complete)"}
		}
		return c.fields, start, nil
	}
}

// readLine returns the next line including its newline; the slice is valid
// until the next call.
func (c *csvReader) readLine() ([]byte, error) {
	var raw []byte
	var err error
	if c.br == nil {
		raw, c.src, err = cutLine(c.src)
	} else {
		raw, err = c.br.ReadSlice('\n')
	}
	if err == bufio.ErrBufferFull {
		c.buf = append(c.buf[:0], raw...)
		for err == bufio.ErrBufferFull && len(c.buf) <= c.max {
			raw, err = c.br.ReadSlice('\n')
			c.buf = append(c.buf, raw...)
		}
		raw = c.buf
	}
	if c.max > 0 && len(raw) > c.max {
		return nil, &SyntaxError{File: c.name, Line: c.line + 1, Col: 1,
			Msg: fmt.Sprintf("a line of more than %s, over the record size limit of %s (max_record_size)",
				textin.Size(int64(c.max)), textin.Size(int64(c.max)))}
	}
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s:%d: %w", c.name, c.line+1, err)
	}
	if len(raw) == 0 {
		return nil, io.EOF
	}
	c.line++
	if last := raw[len(raw)-1]; last != '\n' && last != '\r' {
		c.open, c.openLen = true, len(raw)
	}
	return raw, nil
}

// cutLine splits the first line (with its newline) off b; at the end of b
// it returns io.EOF.
func cutLine(b []byte) (line, rest []byte, err error) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1], b[i+1:], nil
	}
	if len(b) == 0 {
		return nil, nil, io.EOF
	}
	return b, nil, nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

func (c *csvReader) splitPlain(line []byte) {
	c.fields, c.cols = c.fields[:0], c.cols[:0]
	pos := 0
	for {
		i := bytes.IndexByte(line[pos:], ',')
		if i < 0 {
			c.fields = append(c.fields, line[pos:])
			c.cols = append(c.cols, pos+1)
			return
		}
		c.fields = append(c.fields, line[pos:pos+i])
		c.cols = append(c.cols, pos+1)
		pos += i + 1
		if len(c.fields) == c.cols1 { // over Spec.MaxColumns: the caller says so
			return
		}
	}
}

// splitQuoted parses a record with quotes into a private buffer, reading
// further lines while a quoted field is open.
func (c *csvReader) splitQuoted(line []byte) error {
	start := c.line
	src := append([]byte(nil), line...)
	out := make([]byte, 0, len(src))
	type span struct{ lo, hi, col int }
	var spans []span
	i, fieldStart, col := 0, 0, 1
	for {
		if i < len(src) && src[i] == '"' {
			i++
			for {
				if i == len(src) {
					next, err := c.readLine()
					if err != nil {
						return &SyntaxError{File: c.name, Line: start, Col: col, Msg: "quoted field is not closed"}
					}
					out = append(out, '\n')
					src = append(src[:0], trimEOL(next)...)
					i = 0
					continue
				}
				if src[i] == '"' {
					if i+1 < len(src) && src[i+1] == '"' {
						out = append(out, '"')
						i += 2
						continue
					}
					i++
					break
				}
				out = append(out, src[i])
				i++
			}
			if i < len(src) && src[i] != ',' {
				return &SyntaxError{File: c.name, Line: c.line, Col: i + 1, Msg: "extra text after a closing quote"}
			}
		} else {
			for i < len(src) && src[i] != ',' {
				if src[i] == '"' {
					return &SyntaxError{File: c.name, Line: c.line, Col: i + 1, Msg: `bare " in an unquoted field`}
				}
				out = append(out, src[i])
				i++
			}
		}
		spans = append(spans, span{fieldStart, len(out), col})
		if i >= len(src) {
			break
		}
		i++ // the comma
		fieldStart, col = len(out), i+1
	}
	c.fields, c.cols = c.fields[:0], c.cols[:0]
	for _, s := range spans {
		c.fields = append(c.fields, out[s.lo:s.hi])
		c.cols = append(c.cols, s.col)
	}
	return nil
}

// readCSV reads a CSV table from br; size is the input's size when known
// (else 0), workers the number of goroutines parsing blocks.
func readCSV(br *bufio.Reader, t *Table, spec Spec, size int64, workers int) error {
	c := newCSVReader(br, t.Name, spec)
	p, err := readHeader(c, t, spec)
	if err != nil {
		return err
	}
	return p.body(c, t, size, workers)
}

// csvPlan is what the header says about every row.
type csvPlan struct {
	spec          Spec
	numAt, textAt []assign
	width, nText  int
}

func readHeader(c *csvReader, t *Table, spec Spec) (*csvPlan, error) {
	header, line, err := c.next()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: %w", t.Name, ErrEmpty)
	}
	if err != nil {
		return nil, err
	}
	if max := spec.maxColumns(); len(header) > max {
		return nil, tooManyColumns(t.Name, line, c.cols[max], max, "columns")
	}
	cols := newColumns(spec)
	numAt, textAt, err := csvRoles(t, cols, header, c.cols, line)
	if err != nil {
		return nil, err
	}
	t.Num = make([][]float64, len(spec.Numeric))
	t.Text = make([][]string, cols.nText())
	return &csvPlan{spec: spec, numAt: numAt, textAt: textAt, width: len(header), nText: cols.nText()}, nil
}

// rows reads records into pt until the end of the input (done) or, when
// max >= 0, max rows.
func (p *csvPlan) rows(c *csvReader, pt *part, max int) (done bool, err error) {
	maxCols := p.spec.maxColumns()
	for n := 0; n != max; n++ {
		fields, line, err := c.next()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if len(fields) > maxCols {
			return false, tooManyColumns(c.name, line, c.cols[maxCols], maxCols, "columns")
		}
		if len(fields) != p.width {
			return false, &SyntaxError{File: c.name, Line: line, Col: 1,
				Msg: fmt.Sprintf("row has %d fields, header has %d", len(fields), p.width)}
		}
		row := len(pt.lines)
		pt.lines = append(pt.lines, int32(line))
		for _, a := range p.numAt {
			v, ok := parseNumber(fields[a.field])
			if !ok {
				pt.cellErrors = append(pt.cellErrors, CellError{Row: row, Column: p.spec.Numeric[a.col],
					Line: line, Col: c.cols[a.field], Text: textin.Cut(fields[a.field])})
			}
			pt.num[a.col] = append(pt.num[a.col], v)
		}
		for _, a := range p.textAt {
			pt.text[a.col] = append(pt.text[a.col], fields[a.field]...)
			pt.ends[a.col] = append(pt.ends[a.col], uint32(len(pt.text[a.col])))
		}
	}
	return false, nil
}

// assign maps a field of the record to a column of the Spec.
type assign struct{ field, col int }

// csvRoles maps header fields to numeric and text columns of the spec.
func csvRoles(t *Table, cols *columns, header [][]byte, pos []int, line int) (num, text []assign, err error) {
	seen := map[string]bool{}
	for f, h := range header {
		name := strings.TrimSpace(string(h))
		if seen[name] {
			return nil, nil, &SyntaxError{File: t.Name, Line: line, Col: pos[f], Msg: "duplicate column " + textin.Excerpt(name)}
		}
		seen[name] = true
		t.Columns = append(t.Columns, name)
		if i, ok := cols.num[name]; ok {
			num = append(num, assign{f, i})
		}
		if i, ok := cols.text[name]; ok {
			text = append(text, assign{f, i})
		}
	}
	return num, text, missingColumns(t.Name, line, cols.spec, seen, t.Columns)
}
