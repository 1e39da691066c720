// Package enc encodes typed results: every command's output, and every
// MCP tool's, goes through Write, which picks the result's encoding by
// Format (table, JSON, CSV, Markdown, or one of the result's own) and
// encodes JSON from the value when the result does not stream its own
// (EncodeJSON, one encoder for all). Below Write sit the byte-level
// encoders the results share: aligned text sections (Section), numbers
// as tables print them (AppendNum, AppendPercent) and an appending JSON
// buffer for results too large to build as values (JSON).
//
// Text for terminals goes through Safe (Section does it for every cell):
// names and values read from inputs may hold escape sequences that would
// drive the terminal.
package enc

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// CellFunc appends the text of cell (row, col) of a section to buf.
type CellFunc func(buf []byte, row, col int) []byte

// Section prints an aligned table in two passes (widths, then text), so
// that a million rows need no per-cell allocation. Control characters in
// headers and cells are escaped (AppendSafe).
func Section(w *bufio.Writer, header []string, rows int, cell CellFunc) {
	var buf, esc []byte
	// text returns cell (r, c) (r < 0: the header) as printed, and its
	// width.
	text := func(r, c int) ([]byte, int) {
		if r < 0 {
			buf = append(buf[:0], header[c]...)
		} else {
			buf = cell(buf[:0], r, c)
		}
		width, escape := scan(buf)
		if !escape {
			return buf, width
		}
		esc = AppendSafe(esc[:0], buf)
		return esc, utf8.RuneCount(esc)
	}
	width := make([]int, len(header))
	for r := -1; r < rows; r++ {
		for c := range header {
			_, n := text(r, c)
			width[c] = max(width[c], n)
		}
	}
	var out []byte
	for r := -1; r < rows; r++ {
		out = out[:0]
		pad := 0 // spaces owed before the next cell that is not empty
		for c := range header {
			t, n := text(r, c)
			if len(t) > 0 {
				for range pad {
					out = append(out, ' ')
				}
				pad = 0
			}
			out = append(out, t...)
			pad += width[c] - n + 2
		}
		out = bytes.TrimRight(out, " ")
		w.Write(append(out, '\n'))
	}
}

// Byte classes of scan: a byte that is escaped, one that starts or
// continues a multi-byte character.
const (
	classControl  = 1
	classNonASCII = 2
)

var byteClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < 0x20 || c == 0x7f:
			t[c] = classControl
		case c >= utf8.RuneSelf:
			t[c] = classNonASCII
		}
	}
	return t
}()

// scan returns the width of b in a terminal (its runes) and whether
// AppendSafe would change it, in one branch-free pass over ASCII text.
func scan(b []byte) (width int, escape bool) {
	var f uint8
	for _, c := range b {
		f |= byteClass[c]
	}
	switch {
	case f == 0:
		return len(b), false
	case f&classNonASCII == 0:
		return len(b), true
	}
	return utf8.RuneCount(b), f&classControl != 0 || needsEscapeRunes(b)
}

// needsEscape reports whether AppendSafe would change b.
func needsEscape[T string | []byte](b T) bool {
	for i := 0; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == 0x7f {
			return true
		} else if c >= utf8.RuneSelf {
			return needsEscapeRunes(b[i:])
		}
	}
	return false
}

func needsEscapeRunes[T string | []byte](b T) bool {
	for i := 0; i < len(b); {
		r, size := decodeRune(b[i:])
		if unsafeRune(r, size) {
			return true
		}
		i += size
	}
	return false
}

func decodeRune[T string | []byte](b T) (rune, int) {
	if c := b[0]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(string(b[:min(len(b), utf8.UTFMax)]))
}

// unsafeRune reports whether r (size bytes, utf8.RuneError of size 1 for
// a byte that is not UTF-8) must be escaped: C0 and C1 controls, DEL,
// invalid bytes, and the bidirectional controls that reorder what a
// terminal shows.
func unsafeRune(r rune, size int) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0, r == utf8.RuneError && size == 1:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// AppendSafe appends s for a terminal: control characters escaped as Go
// writes them (\n, \t, \r, \x1b, \u0085, \u202e) and bytes that are not
// UTF-8 as \xff; everything else, backslashes included, as is.
func AppendSafe[T string | []byte](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		r, size := decodeRune(s[i:])
		if !unsafeRune(r, size) {
			dst = append(dst, s[i:i+size]...)
			i += size
			continue
		}
		switch {
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case size == 1: // C0, DEL, or a byte that is not UTF-8
			dst = append(dst, '\\', 'x', hex[s[i]>>4], hex[s[i]&0xf])
		default:
			dst = append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		}
		i += size
	}
	return dst
}

// Safe is AppendSafe as a string (s itself when nothing needs escaping).
func Safe(s string) string {
	if !needsEscape(s) {
		return s
	}
	return string(AppendSafe(nil, s))
}

// SafeLines is Safe for a message of several lines: its newlines stay.
func SafeLines(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b []byte
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b = append(b, '\n')
		}
		b = AppendSafe(b, line)
	}
	return string(b)
}

// AppendNum appends v as a table prints it: 4 significant digits
// (26.27, 0.01234, 1.5e-06), integers from 10⁴ up to 10⁹ in full (12412,
// not 1.241e+04), "-" when missing. JSON and CSV print values exactly
// (JSON.Num, shortest round-trip form); a table is for reading.
func AppendNum(b []byte, v float64) []byte {
	if frontier.IsMissing(v) {
		return append(b, '-')
	}
	if a := math.Abs(v); a >= 1e4 && a < 1e9 {
		return strconv.AppendFloat(b, math.Round(v), 'f', 0, 64)
	}
	return strconv.AppendFloat(b, v, 'g', 4, 64)
}

// AppendPercent appends a relative difference as a signed percentage.
func AppendPercent(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "n/a"...)
	}
	if v >= 0 {
		b = append(b, '+')
	}
	b = strconv.AppendFloat(b, 100*v, 'f', 1, 64)
	return append(b, '%')
}

// AppendInterval appends an interval of relative differences, each as
// AppendPercent writes it: "-2.0% to +3.5%".
func AppendInterval(b []byte, low, high float64) []byte {
	return AppendPercent(append(AppendPercent(b, low), " to "...), high)
}

// JSON builds a JSON document by appending, flushed in blocks.
type JSON struct{ b []byte }

// Int appends an integer.
func (j *JSON) Int(v int64) { j.b = strconv.AppendInt(j.b, v, 10) }

// Raw appends s as is.
func (j *JSON) Raw(s string) { j.b = append(j.b, s...) }

// Str appends s as a JSON string.
func (j *JSON) Str(s string) {
	const hex = "0123456789abcdef"
	j.b = append(j.b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			j.b = append(j.b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				j.b = append(j.b, `\ufffd`...)
			} else if r == '\u2028' || r == '\u2029' {
				j.b = append(j.b, `\u202`...)
				j.b = append(j.b, hex[r&0xf])
			} else {
				j.b = append(j.b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			j.b = append(j.b, '\\', c)
		case '\n':
			j.b = append(j.b, `\n`...)
		case '\t':
			j.b = append(j.b, `\t`...)
		case '\r':
			j.b = append(j.b, `\r`...)
		default:
			j.b = append(j.b, `\u00`...)
			j.b = append(j.b, hex[c>>4], hex[c&0xf])
		}
		i++
	}
	j.b = append(j.b, '"')
}

// Num writes a float exactly (shortest round-trip form); NaN and ±Inf
// become null.
func (j *JSON) Num(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.Raw("null")
		return
	}
	j.b = strconv.AppendFloat(j.b, v, 'g', -1, 64)
}

// Rel writes a relative difference rounded to 6 significant digits.
func (j *JSON) Rel(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.Raw("null")
		return
	}
	j.b = AppendRel(j.b, v)
}

// Strs appends a JSON array of strings.
func (j *JSON) Strs(list []string) { appendArray(j, list, j.Str) }

// Nums appends a JSON array of numbers (Num).
func (j *JSON) Nums(list []float64) { appendArray(j, list, j.Num) }

// appendArray appends a JSON array of list, each element by elem.
func appendArray[T any](j *JSON, list []T, elem func(T)) {
	j.Raw("[")
	for i, x := range list {
		if i > 0 {
			j.Raw(",")
		}
		elem(x)
	}
	j.Raw("]")
}

// Key appends a member name and its colon.
func (j *JSON) Key(k string) { j.Str(k); j.b = append(j.b, ':') }

// Flush writes the buffer out when it grows large.
func (j *JSON) Flush(w *bufio.Writer, force bool) error {
	if len(j.b) < 1<<16 && !force {
		return nil
	}
	_, err := w.Write(j.b)
	j.b = j.b[:0]
	return err
}

// Skips appends a list of skipped inputs.
func (j *JSON) Skips(list []trial.Skip) {
	appendArray(j, list, func(s trial.Skip) {
		j.Raw(`{"path":`)
		j.Str(s.Path)
		j.Raw(`,"run":`)
		j.Str(s.Run)
		j.Raw(`,"code":`)
		j.Str(s.Code)
		j.Raw(`,"reason":`)
		j.Str(s.Reason)
		j.Raw("}")
	})
}

// Skips is a list of skipped inputs as every JSON output prints it: each
// one's path, run, code and reason.
type Skips []trial.Skip

// MarshalJSON implements json.Marshaler (JSON.Skips).
func (s Skips) MarshalJSON() ([]byte, error) {
	var j JSON
	j.Skips(s)
	return j.b, nil
}

// SkipSection prints skipped inputs as a table: path, run, code, reason.
func SkipSection(w *bufio.Writer, sk []trial.Skip) {
	Section(w, []string{"path", "run", "code", "reason"}, len(sk), func(b []byte, r, c int) []byte {
		return append(b, [...]string{sk[r].Path, sk[r].Run, sk[r].Code, sk[r].Reason}[c]...)
	})
}
