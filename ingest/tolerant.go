package ingest

import (
	"bytes"
	"io"
	"slices"
)

// nanRewriter implements the tolerant pre-pass of FORMATS.md §1: bare
// Infinity, -Infinity and NaN tokens outside strings (Python's json.dumps
// default) are rewritten in place, with the same length so that byte
// offsets and error positions stay exact:
//
//	Infinity  -> "Infini"
//	-Infinity -> "-Infini"
//	NaN       -> "N"
//
// It notes where each replacement string starts (lits), so that the
// readers tell a rewritten literal from a genuine string "Infini" or "N":
// the literal reads back as ±Inf or NaN where a number is expected, and as
// written (Infinity, -Infinity, NaN) where text is. Anything else is left
// alone for the JSON decoder to reject.
type nanRewriter struct {
	inStr, esc bool
	pos        int64 // stream offset of the next buf given to rewrite
	lits       literals
}

// literals holds the stream offsets (in the decoder's InputOffset terms)
// at which a nanRewriter put a replacement string, ascending. Most files
// hold no literal, and a reader only looks one up for a string token that
// reads "Infini", "-Infini" or "N".
type literals struct {
	at []int64
	// forward is set when lookups come in stream order (a streamed file,
	// read once): the offsets before one looked up are dropped (drop), so
	// that a stream does not hold an offset for every literal it had.
	forward bool
}

// literal returns the literal the file holds where the string whose body
// (between its quotes, as read) is body starts at off, when the rewriter
// put that string there.
func (l *literals) literal(off int64, body string) (string, bool) {
	if !l.any() {
		return "", false
	}
	var lit string
	switch body {
	case "Infini":
		lit = "Infinity"
	case "-Infini":
		lit = "-Infinity"
	case "N":
		lit = "NaN"
	default:
		return "", false
	}
	l.drop(off)
	_, ok := slices.BinarySearch(l.at, off)
	return lit, ok
}

// any reports whether l holds an offset.
func (l *literals) any() bool { return l != nil && len(l.at) > 0 }

// drop forgets, when lookups come in stream order, the offsets before
// off, which no later lookup asks for: once they are half of l, in place
// (the rewriter appends to the same array; each offset is moved once on
// average).
func (l *literals) drop(off int64) {
	if l != nil && l.forward && len(l.at) > 0 && l.at[0] < off {
		if i, _ := slices.BinarySearch(l.at, off); 2*i >= len(l.at) {
			l.at = l.at[:copy(l.at, l.at[i:])]
		}
	}
}

var (
	litInf    = []byte("Infinity")
	litNegInf = []byte("-Infinity")
	litNaN    = []byte("NaN")
	repInf    = []byte(`"Infini"`)
	repNegInf = []byte(`"-Infini"`)
	repNaN    = []byte(`"N"`)
)

// needsRewrite reports whether b may contain a bare non-finite literal.
func needsRewrite(b []byte) bool {
	return bytes.Contains(b, litInf) || bytes.Contains(b, litNaN)
}

// rewrite processes buf in place and returns how many bytes are final. When
// a literal may continue past the end of buf and eof is false, the bytes from
// its start are not processed and must be presented again with more data:
// the next buf starts at the first byte not final.
func (r *nanRewriter) rewrite(buf []byte, eof bool) int {
	n := r.scan(buf, eof)
	r.pos += int64(n)
	return n
}

func (r *nanRewriter) scan(buf []byte, eof bool) int {
	for i := 0; i < len(buf); i++ {
		if r.inStr {
			// jump to the string's closing quote: the next quote not
			// escaped by an odd run of backslashes (the run may begin in
			// an earlier buffer: r.esc)
			q := bytes.IndexByte(buf[i:], '"')
			if q < 0 {
				r.esc = escapes(buf[i:], r.esc)
				return len(buf)
			}
			j := i + q
			if escapes(buf[i:j], r.esc) {
				r.esc, i = false, j // an escaped quote: the string goes on
				continue
			}
			r.esc, r.inStr, i = false, false, j
			continue
		}
		c := buf[i]
		var lit, rep []byte
		switch c {
		case '"':
			r.inStr = true
			continue
		case 'I':
			lit, rep = litInf, repInf
		case 'N':
			lit, rep = litNaN, repNaN
		case '-':
			lit, rep = litNegInf, repNegInf
		default:
			continue
		}
		rest := buf[i:]
		if len(rest) < len(lit) {
			if !eof && bytes.HasPrefix(lit, rest) {
				return i
			}
			continue
		}
		if bytes.HasPrefix(rest, lit) {
			copy(rest, rep)
			r.lits.at = append(r.lits.at, r.pos+int64(i))
			i += len(lit) - 1
		}
	}
	return len(buf)
}

// escapes reports whether the byte after b is escaped: b ends in an odd
// run of backslashes, counting the escape pending before b (esc) when the
// run is all of b.
func escapes(b []byte, esc bool) bool {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	if n == len(b) && esc {
		n++
	}
	return n%2 == 1
}

// tolerantReader applies nanRewriter to a stream.
type tolerantReader struct {
	r          io.Reader
	rw         nanRewriter
	buf        []byte
	start, end int // buf[start:ready] is rewritten, buf[ready:end] pending
	ready      int
	err        error
	pos        int64      // stream offset of buf[0]
	lines      *lineIndex // when set, notes the newlines passed on
	// mayNUL is set once the stream held a NUL byte or a backslash
	// (mayHoldNUL): until then no text read from it holds a NUL.
	mayNUL bool
}

// lineIndex holds the stream offsets of the newlines a tolerantReader has
// passed on and source.lineCol has not yet counted past, so that the line
// of each record is counted from memory instead of by re-reading the file.
// It gives up (full) past maxNoted pending newlines, for input of many
// lines and few records; lineCol then re-reads the file.
type lineIndex struct {
	nl   []int64
	end  int64 // every newline before end is noted
	full bool
}

const maxNoted = 1 << 16

// note records the newlines of b, which starts at stream offset pos.
func (x *lineIndex) note(b []byte, pos int64) {
	if x.full {
		return
	}
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '\n')
		if k < 0 {
			break
		}
		i += k
		if len(x.nl) >= maxNoted {
			x.full, x.nl = true, nil
			return
		}
		x.nl = append(x.nl, pos+int64(i))
		i++
	}
	x.end = pos + int64(len(b))
}

func newTolerantReader(r io.Reader) *tolerantReader {
	return &tolerantReader{r: r, buf: make([]byte, 64<<10)}
}

// Read implements io.Reader.
func (t *tolerantReader) Read(p []byte) (int, error) {
	for t.start == t.ready {
		if t.err != nil {
			return 0, t.err
		}
		n := copy(t.buf, t.buf[t.ready:t.end])
		t.pos += int64(t.ready)
		t.start, t.ready, t.end = 0, 0, n
		m, err := t.r.Read(t.buf[t.end:])
		if !t.mayNUL && mayHoldNUL(t.buf[t.end:t.end+m]) {
			t.mayNUL = true
		}
		t.end += m
		t.err = err
		t.ready = t.rw.rewrite(t.buf[:t.end], err != nil)
		if t.lines != nil {
			t.lines.note(t.buf[:t.ready], t.pos)
		}
	}
	n := copy(p, t.buf[t.start:t.ready])
	t.start += n
	return n, nil
}
