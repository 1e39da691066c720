package table

import (
	"bufio"
	"bytes"
	"io"
	"slices"
)

// blockSize is the size of the blocks a CSV body is read in: whole lines,
// parsed on every core and appended to the table in order. Memory is the
// columns kept plus a few blocks, whatever the size of the input.
const blockSize = 1 << 20

// part holds the rows of one block (or of one run of rows read
// sequentially) in the table's column order: numbers, lines, and the text
// cells' bytes with their ends, so that a row costs no allocation.
type part struct {
	num        [][]float64
	lines      []int32
	text       [][]byte   // per text column of the spec; nil when absent
	ends       [][]uint32 // end of each row's cell in text
	cellErrors []CellError
}

func newPart(p *csvPlan) *part {
	pt := &part{num: make([][]float64, len(p.spec.Numeric)), text: make([][]byte, p.nText), ends: make([][]uint32, p.nText)}
	for _, a := range p.textAt {
		pt.text[a.col] = []byte{}
	}
	return pt
}

func (pt *part) reset() {
	for i := range pt.num {
		pt.num[i] = pt.num[i][:0]
	}
	for i := range pt.text {
		if pt.text[i] != nil {
			pt.text[i], pt.ends[i] = pt.text[i][:0], pt.ends[i][:0]
		}
	}
	pt.lines, pt.cellErrors = pt.lines[:0], pt.cellErrors[:0]
}

// add appends a part's rows to t, their lines moved down by off: one
// string per text column holds the part's cells. A block's numbers and
// lines were parsed in place, into t's columns past their end (reserve),
// so that they are only counted in, or moved down over the rows its
// predecessors left unused (blank lines).
func (t *Table) add(pt *part, off int) {
	base := len(t.Lines)
	for _, ce := range pt.cellErrors {
		ce.Row += base
		ce.Line += off
		t.CellErrors = append(t.CellErrors, ce)
	}
	t.Lines = place(t.Lines, pt.lines)
	if off != 0 {
		for i := base; i < len(t.Lines); i++ {
			t.Lines[i] += int32(off)
		}
	}
	for i := range t.Num {
		t.Num[i] = place(t.Num[i], pt.num[i])
	}
	for i, b := range pt.text {
		if b == nil || len(pt.ends[i]) == 0 {
			continue
		}
		s, lo := string(b), uint32(0)
		for _, hi := range pt.ends[i] {
			t.Text[i] = append(t.Text[i], s[lo:hi])
			lo = hi
		}
	}
}

// place appends src to dst: when src already lies in dst's array right
// after its end, without copying.
func place[T any](dst, src []T) []T {
	n := len(dst)
	if len(src) > 0 && cap(dst)-n >= len(src) && &dst[:n+1][n] == &src[0] {
		return dst[:n+len(src)]
	}
	return append(dst, src...)
}

// reserve makes room for n rows in t's columns, keeping those it holds.
func (t *Table) reserve(p *csvPlan, n int) {
	t.Lines = slices.Grow(t.Lines, n-len(t.Lines))
	for i := range t.Num {
		t.Num[i] = slices.Grow(t.Num[i], n-len(t.Num[i]))
	}
	for _, a := range p.textAt {
		t.Text[a.col] = slices.Grow(t.Text[a.col], n-len(t.Text[a.col]))
	}
}

// inPlace points pt's numbers and lines at rows [at, at+n) of t's
// columns (within their capacity), so that a block parses into the table
// itself; its text cells stay in pt, sized for n rows.
func (pt *part) inPlace(t *Table, at, n int) {
	pt.lines = t.Lines[at : at : at+n]
	for i := range pt.num {
		pt.num[i] = t.Num[i][at : at : at+n]
	}
	for i := range pt.ends {
		if pt.text[i] != nil {
			pt.ends[i] = slices.Grow(pt.ends[i][:0], n)
		}
	}
}

// estimate returns the rows to make room for: the whole input's at the
// rate of the bytes read so far (read of size, holding rows lines) and a
// thirty-second more, or twice what is needed when the size is unknown (0).
func estimate(size, read int64, rows, need int) int {
	n := 2 * need
	if size > read && read > 0 {
		n = int(size * int64(rows) / read)
		n += n/32 + 1
	}
	return max(n, need+need/8)
}

// body reads the rows after the header: in blocks of whole lines parsed
// by workers goroutines while there are no quotes, then (from the first
// block holding a quote, or a line longer than a block) line by line.
// size is the input's size when known (else 0): the columns are sized
// from it and the first block, and workers parse into them in place.
func (p *csvPlan) body(c *csvReader, t *Table, size int64, workers int) error {
	if workers < 2 {
		return p.sequential(c, t, nil)
	}
	jobs := make(chan *block)
	defer close(jobs)
	for range workers {
		go func() {
			for b := range jobs {
				b.parse(p, t.Name)
			}
		}()
	}
	var pending, free []*block
	collect := func() error { // the oldest block
		b := pending[0]
		pending = pending[1:]
		<-b.done
		if b.err != nil {
			return shiftError(b.err, b.line)
		}
		t.add(b.part, b.line)
		free = append(free, b)
		return nil
	}
	var carry []byte
	var read int64              // bytes of the body handed to blocks
	line, reserved := c.line, 0 // reserved: rows of t's columns handed to blocks
	for {
		for len(pending) > workers {
			if err := collect(); err != nil {
				return err
			}
		}
		var b *block
		if n := len(free); n > 0 {
			b, free = free[n-1], free[:n-1]
		} else {
			b = &block{buf: make([]byte, blockSize), part: newPart(p), done: make(chan struct{}, 1)}
		}
		n := copy(b.buf, carry)
		m, err := io.ReadFull(c.br, b.buf[n:])
		data := b.buf[:n+m]
		end := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !end {
			return err
		}
		cut := len(data)
		if !end {
			cut = bytes.LastIndexByte(data, '\n') + 1
		}
		if cut == 0 || bytes.IndexByte(data, '"') >= 0 { // the rest is read line by line
			for len(pending) > 0 {
				if err := collect(); err != nil {
					return err
				}
			}
			c.line = line
			c.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(append([]byte(nil), data...)), c.br), 64<<10)
			return p.sequential(c, t, nil)
		}
		carry = append(carry[:0], data[cut:]...)
		b.src, b.line = data[:cut], line
		// Rows of a block are at most its line ends (a line without one
		// ends the input, an error).
		lines := bytes.Count(b.src, []byte{'\n'})
		read += int64(cut)
		if need := reserved + lines; need > cap(t.Lines) {
			for len(pending) > 0 { // no block parses into the columns moved
				if err := collect(); err != nil {
					return err
				}
			}
			reserved = len(t.Lines)
			need = reserved + lines
			want := need
			if !end {
				want = estimate(size, read, need, need)
			}
			t.reserve(p, want)
		}
		b.part.inPlace(t, reserved, lines)
		reserved += lines
		line += lines
		pending = append(pending, b)
		jobs <- b
		if end {
			break
		}
	}
	for len(pending) > 0 {
		if err := collect(); err != nil {
			return err
		}
	}
	return nil
}

// sequential reads the remaining rows line by line, appending them to t
// in runs of up to a block's worth of rows; pt is reused when given.
func (p *csvPlan) sequential(c *csvReader, t *Table, pt *part) error {
	if pt == nil {
		pt = newPart(p)
	}
	for {
		done, err := p.rows(c, pt, 1<<16)
		t.add(pt, 0)
		pt.reset()
		if err != nil || done {
			return err
		}
	}
}

// A block is a run of whole lines parsed by a worker into its part.
type block struct {
	buf  []byte
	src  []byte // the lines, in buf
	line int    // lines before it
	part *part
	err  error
	done chan struct{}
}

func (b *block) parse(p *csvPlan, name string) {
	b.part.reset()
	c := &csvReader{name: name, src: b.src, max: p.spec.maxRecord(), cols1: p.spec.maxColumns() + 1}
	_, b.err = p.rows(c, b.part, -1)
	b.done <- struct{}{}
}

// shiftError moves a block's syntax error down by off lines.
func shiftError(err error, off int) error {
	if se, ok := err.(*SyntaxError); ok {
		se.Line += off
	}
	return err
}

// ReadBytes reads one table held in memory, as Read does (CSV blocks are
// parsed on every core).
func ReadBytes(data []byte, name string, spec Spec) (*Table, error) {
	return Read(bytes.NewReader(data), name, spec)
}
