package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// SyntaxError is a problem in a benchmark file, positioned at a line and
// column (both 1-based; the column counts bytes), with the byte Offset
// (position.Error: "file:line:col: message").
type SyntaxError = position.Error

// ErrUnknownFormat is returned (wrapped) for input no reader recognises.
var ErrUnknownFormat = errors.New("unknown benchmark format")

// NotResultError is a file recognised as no benchmark result (per-request
// records, the requests a benchmark sends, a dashboard): Load skips it with
// code trial.SkipNotResult, also when it is named on its own.
type NotResultError struct {
	Path string
	What string // what the file is
}

func (e *NotResultError) Error() string { return e.Path + ": " + e.What }

// ErrEmpty is returned (wrapped) for empty input.
var ErrEmpty = errors.New("empty input")

// source gives access to the bytes before an offset, to turn offsets into
// line and column numbers on the error path only.
type source struct {
	path string
	key  string    // trial.Source.Key of the file's trials
	data []byte    // whole input when read into memory
	file *os.File  // streaming input, re-read on error
	base int64     // offset of data[0] (or of the stream start) in the file
	lits *literals // the non-finite literals the tolerant pre-pass rewrote, if any
	// noIDs leaves the ID of the file's trials unset (LoadOptions.NoIDs)
	noIDs bool
	// deploy, when set, gives the trials of the fast AIPerf reader their
	// deployment (readSettings.deploy)
	deploy *trial.GPUs

	// the last position lineCol counted to, from which it counts on when
	// asked for a later one (the readers ask for the line of each record,
	// in order: counting from byte 0 each time was quadratic)
	memoOff           int64
	memoLine, memoCol int
	lines             *lineIndex // the newlines of a stream, when noted as it is read

	num numPos       // where the last number read starts (badValue)
	bad *SyntaxError // the first damaged value (badValue), the file's error
}

// lineCol returns the 1-based line and column of off.
func (s *source) lineCol(off int64) (int, int) {
	line, col := 1, 1
	from := int64(0)
	if s.memoOff > 0 && s.memoOff <= off {
		from, line, col = s.memoOff, s.memoLine, s.memoCol
	}
	reached := true
	defer func() {
		if reached {
			s.memoOff, s.memoLine, s.memoCol = off, line, col
		}
	}()
	if x := s.lines; x != nil && !x.full && s.file != nil && off <= x.end && s.memoOff <= off {
		i0, _ := slices.BinarySearch(x.nl, from)
		i1, _ := slices.BinarySearch(x.nl, off)
		if i1 > i0 {
			line += i1 - i0
			col = int(off - x.nl[i1-1])
		} else {
			col += int(off - from)
		}
		x.nl = x.nl[:copy(x.nl, x.nl[i1:])]
		return line, col
	}
	count := func(b []byte) {
		n := bytes.Count(b, []byte{'\n'})
		if n > 0 {
			line += n
			col = len(b) - bytes.LastIndexByte(b, '\n')
		} else {
			col += len(b)
		}
	}
	switch {
	case s.data != nil:
		begin := min(max(from-s.base, 0), int64(len(s.data)))
		end := min(max(off-s.base, 0), int64(len(s.data)))
		count(s.data[begin:end])
	case s.file != nil:
		buf := make([]byte, min(64<<10, max(off-from, 0))) // the bytes since the last record, not 64 KiB each
		for pos := from; pos < off; {
			n, err := s.file.ReadAt(buf[:min(int64(len(buf)), off-pos)], pos)
			count(buf[:n])
			pos += int64(n)
			if err != nil || n == 0 {
				reached = pos >= off
				break
			}
		}
	}
	return line, col
}

// errorAt builds a SyntaxError at byte offset off.
func (s *source) errorAt(off int64, err error, format string, args ...any) *SyntaxError {
	line, col := s.lineCol(off)
	return &SyntaxError{File: s.path, Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(format, args...), Err: err}
}

// wrap converts a decoder error into a SyntaxError; other errors (I/O) are
// wrapped with the path.
func (s *source) wrap(err error, fallbackOff int64) error {
	if err == nil {
		return nil
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return se // also when a decoder wrapped it (the token guard's, read through the decoder)
	}
	var je *jsontext.SyntacticError
	if errors.As(err, &je) {
		return s.errorAt(s.base+je.ByteOffset, err, "%s", jsonMessage(je))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return s.errorAt(fallbackOff, err, "unexpected end of input (truncated JSON?)")
	}
	return fmt.Errorf("%s: %w", s.path, err)
}

func jsonMessage(je *jsontext.SyntacticError) string {
	msg := "invalid JSON"
	if je.Err != nil {
		msg = je.Err.Error()
	}
	if errors.Is(je.Err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of input (truncated JSON?)"
	}
	msg = strings.TrimPrefix(msg, "jsontext: ")
	if p := string(je.JSONPointer); p != "" {
		if len(p) > 2*textin.ExcerptLen { // the pointer holds member names, which may be huge
			p = textin.Excerpt(p)
		}
		msg += " within " + p
	}
	return msg
}

// tooLong reports a name or value read from s that is longer than max,
// positioned at its first occurrence in s when it is found there (names
// with escapes or rewritten by a reader are not).
func (s *source) tooLong(what, v string, max int) error {
	msg := fmt.Sprintf("%s of %s is longer than %s: %s", what, textin.Size(int64(len(v))), textin.Size(int64(max)), textin.Excerpt(v))
	if off := s.find([]byte(v[:min(len(v), 64)])); off >= 0 {
		return s.errorAt(off, ErrTooLarge, "%s", msg)
	}
	return fmt.Errorf("%s: %s: %w", s.path, msg, ErrTooLarge)
}

// find returns the offset of the first occurrence of needle in s, or -1.
func (s *source) find(needle []byte) int64 {
	switch {
	case len(needle) == 0:
		return -1
	case s.data != nil:
		if i := bytes.Index(s.data, needle); i >= 0 {
			return s.base + int64(i)
		}
	case s.file != nil:
		buf := make([]byte, 64<<10+len(needle))
		for pos := int64(0); ; {
			n, err := s.file.ReadAt(buf, pos)
			if i := bytes.Index(buf[:n], needle); i >= 0 {
				return pos + int64(i)
			}
			if err != nil || n < len(buf) {
				return -1
			}
			pos += int64(n - len(needle) + 1)
		}
	}
	return -1
}
