// Package enc holds the byte-level encoders the command line and the
// query results share: aligned text sections and an appending JSON buffer.
package enc

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// CellFunc appends the text of cell (row, col) of a section to buf.
type CellFunc func(buf []byte, row, col int) []byte

// Section prints an aligned table in two passes (widths, then text), so
// that a million rows need no per-cell allocation.
func Section(w *bufio.Writer, header []string, rows int, cell CellFunc) {
	width := make([]int, len(header))
	for c, h := range header {
		width[c] = UTF8Len(h)
	}
	var buf []byte
	for r := range rows {
		for c := range header {
			buf = cell(buf[:0], r, c)
			width[c] = max(width[c], UTF8Len(string(buf)))
		}
	}
	var out []byte
	line := func(text func(c int) []byte) {
		out = out[:0]
		for c := range header {
			t := text(c)
			out = append(out, t...)
			if c < len(header)-1 {
				for range width[c] - UTF8Len(string(t)) + 2 {
					out = append(out, ' ')
				}
			}
		}
		out = bytes.TrimRight(out, " ")
		w.Write(append(out, '\n'))
	}
	line(func(c int) []byte { return []byte(header[c]) })
	for r := range rows {
		line(func(c int) []byte { buf = cell(buf[:0], r, c); return buf })
	}
}

// UTF8Len counts the runes of s (its width in a terminal).
func UTF8Len(s string) int { return len([]rune(s)) }

// AppendNum appends v in shortest round-trip form, "-" when missing.
func AppendNum(b []byte, v float64) []byte {
	if frontier.IsMissing(v) {
		return append(b, '-')
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
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
	j.b = strconv.AppendFloat(j.b, v, 'g', 6, 64)
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
	j.Raw("[")
	for i, s := range list {
		if i > 0 {
			j.Raw(",")
		}
		j.Raw(`{"path":`)
		j.Str(s.Path)
		j.Raw(`,"run":`)
		j.Str(s.Run)
		j.Raw(`,"code":`)
		j.Str(s.Code)
		j.Raw(`,"reason":`)
		j.Str(s.Reason)
		j.Raw("}")
	}
	j.Raw("]")
}
