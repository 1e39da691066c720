package table

import (
	"bufio"
	"bytes"
	"runtime"
	"sync"

	"github.com/pareto-llm/pareto/internal/textin"
)

// parallelMin is the input size from which CSV rows are parsed by several
// goroutines.
const parallelMin = 4 << 20

// ReadBytes reads one table held in memory. Large CSV inputs without quoted
// fields are split at line boundaries and parsed on every core; the result
// is the same as Read's.
func ReadBytes(data []byte, name string, spec Spec) (*Table, error) {
	if o, bom := textin.UTF16(data); o != textin.NotUTF16 {
		data = textin.Decode(data, o, bom)
	} else if i, ok := textin.Binary(data[:min(len(data), 512)]); ok {
		return nil, binaryError(name, data, i)
	}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first := bytes.TrimLeft(body, " \t\r\n")
	workers := runtime.GOMAXPROCS(0)
	if len(data) < parallelMin || workers < 2 || len(first) == 0 || first[0] == '{' || first[0] == '[' ||
		bytes.IndexByte(body, '"') >= 0 {
		return Read(bytes.NewReader(data), name, spec)
	}
	t := &Table{Name: name, Format: "csv"}
	c := newCSVReader(bufio.NewReaderSize(bytes.NewReader(body), 64<<10), name, spec)
	p, err := readHeader(c, t, spec)
	if err != nil {
		return nil, err
	}
	rest := body[headerEnd(body, c.line):]
	return parseChunks(t, p, rest, c.line, workers)
}

// headerEnd returns the offset just after the first n lines.
func headerEnd(b []byte, n int) int {
	off := 0
	for range n {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			return len(b)
		}
		off += i + 1
	}
	return off
}

// parseChunks parses rest (which starts on line base+1) in workers pieces
// split at newlines, then concatenates the pieces in order.
func parseChunks(t *Table, p *csvPlan, rest []byte, base, workers int) (*Table, error) {
	chunks := splitLines(rest, workers)
	parts := make([]*Table, len(chunks))
	errs := make([]error, len(chunks))
	var wg sync.WaitGroup
	for i, ch := range chunks {
		wg.Go(func() {
			part := presized(t, p, bytes.Count(ch, []byte{'\n'})+1)
			c := newCSVReader(bufio.NewReaderSize(bytes.NewReader(ch), 64<<10), t.Name, p.spec)
			errs[i] = p.rows(c, part)
			parts[i] = part
		})
	}
	wg.Wait()
	total := 0
	for _, part := range parts {
		total += part.Len()
	}
	*t = *presized(t, p, total)
	line := base
	for i, part := range parts {
		if err := shiftLines(part, errs[i], line); err != nil {
			return nil, err
		}
		t.merge(part)
		line += bytes.Count(chunks[i], []byte{'\n'})
	}
	return t, nil
}

// splitLines cuts b into up to n pieces of similar size at line ends.
func splitLines(b []byte, n int) [][]byte {
	var out [][]byte
	for i := n; i > 1 && len(b) > 0; i-- {
		cut := len(b) / i
		j := bytes.IndexByte(b[cut:], '\n')
		if j < 0 {
			break
		}
		out = append(out, b[:cut+j+1])
		b = b[cut+j+1:]
	}
	return append(out, b)
}

// shiftLines renumbers a piece's lines (and its error's) by off.
func shiftLines(part *Table, err error, off int) error {
	for i := range part.Lines {
		part.Lines[i] += int32(off)
	}
	for i := range part.CellErrors {
		part.CellErrors[i].Line += off
	}
	if se, ok := err.(*SyntaxError); ok {
		se.Line += off
		return se
	}
	return err
}

// merge appends a piece's rows to t.
func (t *Table) merge(part *Table) {
	base := len(t.Lines)
	for i := range part.CellErrors {
		part.CellErrors[i].Row += base
	}
	t.CellErrors = append(t.CellErrors, part.CellErrors...)
	t.Lines = append(t.Lines, part.Lines...)
	for i := range t.Num {
		t.Num[i] = append(t.Num[i], part.Num[i]...)
	}
	for i := range t.Text {
		if part.Text[i] != nil {
			t.Text[i] = append(t.Text[i], part.Text[i]...)
		}
	}
}

// presized returns an empty table shaped like t with room for n rows;
// only text columns present in the header get a slice.
func presized(t *Table, p *csvPlan, n int) *Table {
	out := &Table{Name: t.Name, Format: t.Format, Columns: t.Columns, Lines: make([]int32, 0, n),
		Num: make([][]float64, len(t.Num)), Text: make([][]string, len(t.Text))}
	for i := range out.Num {
		out.Num[i] = make([]float64, 0, n)
	}
	for _, a := range p.textAt {
		out.Text[a.col] = make([]string, 0, n)
	}
	return out
}
