package ingest

import (
	"bytes"
	"io"

	"github.com/pareto-llm/pareto/internal/textin"
)

// tokenGuard finds a JSON string longer than max bytes in input presented
// in consecutive pieces, before a decoder buffers it whole: the record
// size limit of JSON (Limits.MaxRecordSize). It looks only for quotes and
// the backslashes before them, with bytes.IndexByte, so it costs little
// next to decoding.
type tokenGuard struct {
	max   int64
	src   *source
	off   int64 // offset of the next byte presented
	inStr bool
	start int64 // offset of the opening quote of the current string
	bs    int   // backslashes at the end of the last piece, inside a string
}

// scan presents the next piece of the input.
func (g *tokenGuard) scan(p []byte) error {
	for i := 0; i < len(p); {
		j := bytes.IndexByte(p[i:], '"')
		if j < 0 {
			if g.inStr {
				g.bs = trailingBackslashes(p[i:], g.bs)
			}
			break
		}
		q := i + j
		if !g.inStr {
			g.inStr, g.start, g.bs = true, g.off+int64(q), 0
			i = q + 1
			continue
		}
		escaped := trailingBackslashes(p[i:q], g.bs)%2 == 1
		g.bs = 0
		i = q + 1
		if escaped {
			continue
		}
		g.inStr = false
		if n := g.off + int64(q) - g.start - 1; n > g.max {
			return g.tooLong("of", n)
		}
	}
	g.off += int64(len(p))
	if g.inStr && g.off-g.start-1 > g.max {
		return g.tooLong("of more than", g.off-g.start-1)
	}
	return nil
}

// trailingBackslashes counts the backslashes that end b, plus carry when b
// is all backslashes (the run then continues one from before b).
func trailingBackslashes(b []byte, carry int) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	if n == len(b) {
		n += carry
	}
	return n
}

// tooLong reports the current string, of (or of more than) n bytes.
func (g *tokenGuard) tooLong(of string, n int64) error {
	return g.src.errorAt(g.start, ErrTooLarge, "a JSON string %s %s, over the record size limit of %s (max_record_size)",
		of, textin.Size(n), textin.Size(g.max))
}

// guardReader passes a stream through a tokenGuard.
type guardReader struct {
	r   io.Reader
	g   *tokenGuard
	err error
}

// Read implements io.Reader.
func (t *guardReader) Read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.r.Read(p)
	if gerr := t.g.scan(p[:n]); gerr != nil {
		t.err = gerr
		return 0, gerr
	}
	return n, err
}
