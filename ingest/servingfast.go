package ingest

import (
	"bytes"
	"io"
	"slices"

	"github.com/pareto-llm/pareto/trial"
)

// The records of a vLLM or SGLang file (JSONL, --append-result objects)
// are read first with the scanner, over the file in memory or over a
// buffer that follows a streamed file: one pass over the bytes, no
// tokenizer, no pre-pass for literals, string lengths and newlines (a
// bare NaN or Infinity, an escaped name, a negative or non-finite value, a
// record of more than fastMax bytes make it give up). The record readers
// are the same (readSGLangRecord, readVLLMRecord, through perfTokens), so
// a record the scanner reads is the trial the jsontext reader makes of it.
// When it gives up, the jsontext reader reads the file again from its
// start, skipping the records already handed on (jreader.skip), and gives
// the trials or the positioned error.

// fastBuf is the size the scanner's buffer over a streamed file starts
// at (a variable for tests, which make it small to refill it often);
// fastMax its largest size: a larger record takes the jsontext reader.
var fastBuf = 256 << 10

const fastMax = 4 << 20

// servingFast is the scanner's reading of one vLLM or SGLang file.
type servingFast struct {
	j      *jreader
	s      *scanner
	format Format
	in     io.Reader // the rest of a streamed file; nil when buf holds it all
	buf    []byte    // buf[:n] holds the file from offset off
	n      int
	off    int64
	eof    bool
	// lines counts the newlines of the file before offset counted, for
	// the line of each record (source.lineCol, without a pass of its own)
	lines   int
	counted int64
	nul     bool // a backslash was read: a text may hold a NUL (checkTrialsNUL)
	long    bool // a record may hold a name or value over its bound (builder.long)
}

// servingFormat reports whether f is read by servingFast.
func servingFormat(f Format) bool { return f == FormatSGLang || f == FormatVLLM }

// readServingFast is the registry's readFast for an in-memory vLLM or
// SGLang file.
func readServingFast(data []byte, src *source, f Format, r *reader) ([]trial.Trial, bool) {
	j := &jreader{src: src, names: r.names, max: r.lim.maxRecord(), cols: r.lim.maxColumns(), size: int64(len(data))}
	fs := &servingFast{j: j, s: &r.scan, format: f, buf: data, n: len(data), eof: true}
	ts, ok, _ := fs.read()
	r.scan = scanner{}
	return ts, ok
}

// read reads the records, handing them on to j.emit when it is set;
// ok=false when the scanner gave up (the records j.emitted were handed on
// before). err is j.emit's.
func (f *servingFast) read() (out []trial.Trial, ok bool, err error) {
	j, s := f.j, f.s
	*s = scanner{cols: j.cols, bare: f.in != nil} // in memory, the tolerant pre-pass ran when the file held a literal
	p := j.flattener(s)
	prevEnd := int64(0) // file offset after the last record
	for index := 0; ; {
		s.data, s.pos, s.depth = f.buf[:f.n], int(prevEnd-f.off), 0
		c := s.ws()
		if c == 0 {
			if f.eof {
				return out, true, nil
			}
			if !f.fill(prevEnd) {
				return out, false, nil
			}
			continue
		}
		if c != '{' {
			return out, false, nil
		}
		from := s.pos
		var tr trial.Trial
		if f.format == FormatSGLang {
			tr, ok = readSGLangRecord(j, s, p, index)
		} else {
			tr, ok = readVLLMRecord(j, s, p, index)
		}
		if !ok {
			if !f.fill(prevEnd) { // truncated in the buffer? read more and try again
				return out, false, nil
			}
			continue
		}
		if !f.nul && bytes.IndexByte(f.buf[from:s.pos], '\\') >= 0 {
			f.nul = true
		}
		f.long = f.long || j.bld.long
		// the line of the byte after the previous record, as the jsontext
		// readers count it
		switch {
		case index > 0:
			tr.Source.Line = f.lineAt(prevEnd + 1)
		case f.format == FormatSGLang:
			tr.Source.Line = 1
		}
		prevEnd = f.off + int64(s.pos)
		index++
		if j.emit == nil && len(out) == 1 && f.in == nil {
			out = slices.Grow(out, min(f.n/int(prevEnd)+1, 1<<20))
		} else if j.emit != nil {
			out = slices.Grow(out, streamBatch-len(out))
		}
		if out, err = j.pass(append(out, tr)); err != nil {
			return nil, true, err
		}
	}
}

// lineAt returns the line of file offset o, in the buffer, at or after
// the last one asked for.
func (f *servingFast) lineAt(o int64) int {
	f.countTo(o)
	return f.lines + 1
}

// countTo counts the newlines of the buffer up to file offset o.
func (f *servingFast) countTo(o int64) {
	if o > f.counted {
		f.lines += bytes.Count(f.buf[f.counted-f.off:o-f.off], []byte{'\n'})
		f.counted = o
	}
}

// fill reads more of a streamed file into the buffer, keeping it from
// file offset keep (the end of the last record read): it moves those
// bytes to its start, or doubles it up to fastMax when they fill it.
// It returns false at the end of the file, at fastMax and on an error of
// reading (which the jsontext reader meets again).
func (f *servingFast) fill(keep int64) bool {
	if f.in == nil || f.eof {
		return false
	}
	f.countTo(keep)
	if k := int(keep - f.off); k > 0 {
		f.n = copy(f.buf, f.buf[k:f.n])
		f.off = keep
	} else if f.n == len(f.buf) {
		if len(f.buf) >= fastMax {
			return false
		}
		f.buf = slices.Grow(f.buf[:f.n], len(f.buf))[:2*len(f.buf)]
	}
	m, err := io.ReadFull(f.in, f.buf[f.n:])
	f.n += m
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		f.eof = true
	default:
		return false
	}
	return true
}
