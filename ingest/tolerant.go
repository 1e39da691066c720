package ingest

import (
	"bytes"
	"io"
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
// parseFloatText accepts these strings as ±Inf and NaN where numbers are
// expected. Anything else is left alone for the JSON decoder to reject.
type nanRewriter struct {
	inStr, esc bool
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
// its start are not processed and must be presented again with more data.
func (r *nanRewriter) rewrite(buf []byte, eof bool) int {
	for i := 0; i < len(buf); i++ {
		c := buf[i]
		if r.inStr {
			switch {
			case r.esc:
				r.esc = false
			case c == '\\':
				r.esc = true
			case c == '"':
				r.inStr = false
			}
			continue
		}
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
			i += len(lit) - 1
		}
	}
	return len(buf)
}

// tolerantReader applies nanRewriter to a stream.
type tolerantReader struct {
	r          io.Reader
	rw         nanRewriter
	buf        []byte
	start, end int // buf[start:ready] is rewritten, buf[ready:end] pending
	ready      int
	err        error
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
		t.start, t.ready, t.end = 0, 0, n
		m, err := t.r.Read(t.buf[t.end:])
		t.end += m
		t.err = err
		t.ready = t.rw.rewrite(t.buf[:t.end], err != nil)
	}
	n := copy(p, t.buf[t.start:t.ready])
	t.start += n
	return n, nil
}
