package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// TableBatch is the number of lines of a generic table read, turned into
// trials and handed on at a time (LoadOptions.Each), or fewer when they
// hold more than TableBatchBytes: a table of any length, and of any
// width, is held one batch at a time.
const TableBatch = 4096

// TableBatchBytes bounds the text of a batch of TableBatch lines (a batch
// holds one record at least).
const TableBatchBytes = 1 << 20

// readTable reads the generic table r (named name) within lim, handing
// its trials to each batch by batch (TableBatch lines each) as they are
// read. A table that turns out to be no result, or bad at some line, is
// an error after some batches may have been handed on: Load's consumer
// undoes them (pareto ingest stores a file in one transaction). A panic
// while reading becomes a *safe.InternalError.
func readTable(r io.Reader, name string, opts TableOptions, lim Limits, each func([]trial.Trial) error) (err error) {
	defer safe.Recover(&err, "reading", name)
	if panicHook != nil {
		panicHook(name)
	}
	c := newChunker(r, lim.maxRecord())
	tr := tableReader{name: name, opts: opts, lim: lim, check: tableCheck{name: name}, seen: map[string]bool{}}
	for {
		chunk, err := c.next()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if chunk.data == nil {
			break
		}
		ts, err := tr.batch(chunk)
		if err != nil {
			return err
		}
		if err := each(ts); err != nil {
			return err
		}
	}
	return tr.end()
}

// tableReader turns the chunks of one table into trials, keeping what
// spans them: the rows so far, the columns seen and the table's check.
type tableReader struct {
	name  string
	opts  TableOptions
	lim   Limits
	rows  int
	seen  map[string]bool // every column seen (JSONL rows may differ)
	cols  []string
	check tableCheck
	idCol string
}

// batch reads one chunk of the table.
func (tr *tableReader) batch(c chunk) ([]trial.Trial, error) {
	data := c.data
	if c.first {
		if what := notTable(data); what != "" {
			return nil, &NotResultError{Path: tr.name, What: what}
		}
	}
	orig := data
	var lits *literals
	if t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '{' && needsRewrite(data) {
		// JSONL as Python's json.dumps writes it: bare Infinity and NaN
		// become the strings "Infini" and "N" (same lengths, so positions
		// hold), and their cells are taken back as written (literalCells)
		data = bytes.Clone(data)
		rw := new(nanRewriter)
		rw.rewrite(data, true)
		if rw.lits.any() {
			lits = &rw.lits
		}
	}
	spec := table.Spec{MaxRecordSize: tr.lim.maxRecord(), MaxColumns: tr.lim.maxColumns()}
	head, err := table.ReadBytes(data, tr.name, spec)
	if err != nil {
		return nil, c.shift(err)
	}
	if len(head.Columns) == 0 {
		return nil, &table.SyntaxError{File: tr.name, Line: 1, Col: 1, Msg: "no columns"}
	}
	for _, col := range head.Columns {
		if !tr.seen[col] {
			tr.seen[col] = true
			tr.cols = append(tr.cols, col)
		}
	}
	if tr.idCol = tr.opts.ID; tr.idCol == "" && slices.Contains(head.Columns, LabelID) {
		tr.idCol = LabelID
	}
	if head.Format == "csv" { // the header names every column
		if err := tr.idColumn(); err != nil {
			return nil, err
		}
	}
	spec.OptionalText = head.Columns
	t, err := table.ReadBytes(data, tr.name, spec)
	if err != nil {
		return nil, c.shift(err)
	}
	var asWritten map[int32]map[string]string
	if lits != nil {
		if asWritten, err = literalCells(orig, data, lits, tr.name); err != nil {
			return nil, c.shift(err)
		}
	}
	ts, numeric := tableRows(t, head.Columns, tr.name, tr.opts, tr.idCol, asWritten, tr.rows, c.lines)
	tr.rows += t.Len() // every row read, kept (TableOptions.Rows) or not
	if err := checkTrials(ts, tr.name, data, nil); err != nil {
		return nil, c.shift(err)
	}
	return ts, tr.check.add(ts, numeric)
}

// idColumn checks that the id column asked for is one of the table's.
func (tr *tableReader) idColumn() error {
	if id := tr.opts.ID; id != "" && !tr.seen[id] {
		return &table.SyntaxError{File: tr.name, Line: 1, Col: 1,
			Msg: fmt.Sprintf("no id column %s (have: %s)", textin.Excerpt(id), textin.Names(tr.cols))}
	}
	return nil
}

// end checks the table once every row was read.
func (tr *tableReader) end() error {
	if err := tr.idColumn(); err != nil {
		return err
	}
	if tr.rows == 0 {
		return &table.SyntaxError{File: tr.name, Line: 2, Col: 1, Msg: "the table has a header but no rows"}
	}
	return tr.check.end()
}

// A chunk is whole records of a table: a CSV chunk after the first
// starts with the header, so that each parses on its own.
type chunk struct {
	data  []byte
	first bool // the table's first chunk
	// lines is added to a line of the chunk past its header (headerLines)
	// to give the line in the table.
	lines, headerLines int
}

// shift moves the position of an error of the chunk to the table's.
func (c chunk) shift(err error) error {
	var pe *position.Error
	if errors.As(err, &pe) && pe.Line > c.headerLines {
		pe.Line += c.lines
		pe.Offset = 0 // the chunk's, not the table's
	}
	return err
}

// chunker cuts a table's text into chunks of whole records, about
// TableBatch lines (at most TableBatchBytes) each: a CSV record ends at a line end outside quotes,
// a JSONL record at every line end.
type chunker struct {
	br     *bufio.Reader
	max    int // the record size bound: a longer record ends its chunk, for the reader to report
	csv    bool
	header []byte // the CSV header record
	hlines int    // the lines of the header
	line   int    // the lines handed on
	n      int    // the chunks handed on
	buf    []byte
	// checked: the first JSONL line was checked for a JSON document of
	// several lines
	checked bool
}

// newChunker reads r, UTF-16 transcoded and a UTF-8 byte order mark
// dropped, as package table reads a table.
func newChunker(r io.Reader, max int) *chunker {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	if o, bom := textin.UTF16(head); o != textin.NotUTF16 {
		br.Discard(bom)
		br = bufio.NewReaderSize(textin.NewReader(br, o), 64<<10)
	}
	if head, _ := br.Peek(3); bytes.Equal(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return &chunker{br: br, max: max}
}

// next returns the next chunk; its data is nil at the end of the input.
// The data is valid until the next call.
func (c *chunker) next() (chunk, error) {
	first := c.n == 0
	c.buf = c.buf[:0]
	if first {
		head, _ := c.br.Peek(4096)
		t := bytes.TrimLeft(head, " \t\r\n")
		c.csv = len(t) > 0 && t[0] != '{' && t[0] != '['
	}
	out := chunk{first: first}
	if !first && c.csv {
		c.buf = append(c.buf, c.header...)
		out.headerLines = c.hlines
		out.lines = c.line - c.hlines
	} else {
		out.lines = c.line
	}
	body := len(c.buf)
	for lines := 0; lines < TableBatch && len(c.buf)-body < TableBatchBytes; {
		n, err := c.record()
		lines += n
		c.line += n
		if first && c.csv && c.header == nil && n > 0 && len(bytes.TrimSpace(c.buf)) > 0 {
			c.header, c.hlines = bytes.Clone(c.buf), c.line
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return chunk{}, err
		}
		if t := bytes.TrimSpace(c.buf[body:]); first && !c.csv && !c.checked && len(t) > 0 {
			c.checked = true
			if validLine(t) {
				continue
			}
			// maybe one JSON document over several lines: notTable needs it whole
			rest, err := io.ReadAll(io.LimitReader(c.br, int64(c.max)))
			if err != nil {
				return chunk{}, err
			}
			c.buf = append(c.buf, rest...)
			break
		}
	}
	c.n++
	if len(c.buf) == body && !first {
		return chunk{}, nil
	}
	out.data = c.buf
	if out.data == nil {
		out.data = []byte{} // an empty input: the reader says so
	}
	return out, nil
}

// record appends the next record to the buffer and returns its lines: one
// line of JSONL, the lines of a CSV record up to a line end outside
// quotes, or what was read of a record over the size bound. At the end of
// the input it returns io.EOF (with the record's last line, if any).
func (c *chunker) record() (int, error) {
	start, lines, quotes := len(c.buf), 0, 0
	for {
		part, err := c.br.ReadSlice('\n')
		c.buf = append(c.buf, part...)
		if c.csv {
			quotes += bytes.Count(part, []byte{'"'})
		}
		switch {
		case err == bufio.ErrBufferFull:
			if len(c.buf)-start > c.max {
				return lines + 1, nil
			}
			continue
		case err == io.EOF:
			if len(part) > 0 {
				lines++
			}
			return lines, io.EOF
		case err != nil:
			return lines, err
		}
		lines++
		if quotes%2 == 0 || len(c.buf)-start > c.max {
			return lines, nil
		}
	}
}

// validLine reports whether line is one JSON value, bare Infinity and NaN
// read as Python writes them.
func validLine(line []byte) bool {
	if needsRewrite(line) {
		line = bytes.Clone(line)
		var rw nanRewriter
		rw.rewrite(line, true)
	}
	return jsontext.Value(line).IsValid()
}
