package table

import (
	"bufio"
	"bytes"
	"io"
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
// string per text column holds the part's cells.
func (t *Table) add(pt *part, off int) {
	base := len(t.Lines)
	for _, ce := range pt.cellErrors {
		ce.Row += base
		ce.Line += off
		t.CellErrors = append(t.CellErrors, ce)
	}
	for _, l := range pt.lines {
		t.Lines = append(t.Lines, l+int32(off))
	}
	for i := range t.Num {
		t.Num[i] = append(t.Num[i], pt.num[i]...)
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

// grow makes room for about n rows in t.
func (t *Table) grow(p *csvPlan, n int) {
	t.Lines = make([]int32, 0, n)
	for i := range t.Num {
		t.Num[i] = make([]float64, 0, n)
	}
	for _, a := range p.textAt {
		t.Text[a.col] = make([]string, 0, n)
	}
}

// body reads the rows after the header: in blocks of whole lines parsed
// by workers goroutines while there are no quotes, then (from the first
// block holding a quote, or a line longer than a block) line by line.
// size is the input's size when known (else 0): the columns are sized
// from it and the first block.
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
	line, first := c.line, true
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
		lines := bytes.Count(b.src, []byte{'\n'})
		switch {
		case !first || lines == 0:
		case end: // the whole body in one block
			t.grow(p, lines)
		case size > 0:
			t.grow(p, int(size*int64(lines)/int64(cut))+lines/64)
		}
		first = false
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
