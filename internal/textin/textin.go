// Package textin holds what every reader of text inputs shares: the
// sniffing of UTF-16 text and of binary data from a file's first bytes,
// the transcoding of UTF-16 to UTF-8, and the short excerpts of input that
// error messages quote.
//
// UTF-16 text (what Windows PowerShell's ">" writes) is read after
// transcoding: with a byte-order mark, or without one when every other
// byte of its first 64 is NUL (its first 32 characters are Latin-1, as in
// any CSV or JSON benchmark file). Lines keep their numbers; columns count
// the bytes of the UTF-8 text.
package textin

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Order is the byte order of UTF-16 text.
type Order int

// Byte orders reported by UTF16.
const (
	NotUTF16 Order = iota
	LittleEndian
	BigEndian
)

// UTF16 reports whether head, the first bytes of an input, is UTF-16
// text, its byte order and the length of its byte-order mark (0 or 2).
func UTF16(head []byte) (Order, int) {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe:
		if len(head) >= 4 && head[2] == 0 && head[3] == 0 {
			return NotUTF16, 0 // UTF-32LE's mark: binary to us
		}
		return LittleEndian, 2
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return BigEndian, 2
	case len(head) < 4:
		return NotUTF16, 0
	}
	// No mark: ASCII (and Latin-1) text has a NUL in every other byte.
	n := min(len(head), 64) &^ 1
	le, be := true, true
	for i := 0; i < n && (le || be); i += 2 {
		le = le && head[i] != 0 && head[i+1] == 0
		be = be && head[i] == 0 && head[i+1] != 0
	}
	switch {
	case le:
		return LittleEndian, 0
	case be:
		return BigEndian, 0
	}
	return NotUTF16, 0
}

// Decode returns data, UTF-16 text in order o with a mark of bom bytes
// (as UTF16 reports them), as UTF-8. Unpaired surrogates and an odd last
// byte become U+FFFD.
func Decode(data []byte, o Order, bom int) []byte {
	data = data[bom:]
	out := make([]byte, 0, len(data)/2+len(data)/8)
	var d decoder
	d.order = o
	out = d.append(out, data)
	return d.flush(out)
}

// decoder transcodes UTF-16 in pieces, keeping a high surrogate or an odd
// byte between them.
type decoder struct {
	order Order
	odd   []byte // a byte of an unfinished code unit
	high  rune   // a high surrogate waiting for its pair, or 0
}

func (d *decoder) unit(b0, b1 byte) uint16 {
	if d.order == BigEndian {
		return uint16(b0)<<8 | uint16(b1)
	}
	return uint16(b1)<<8 | uint16(b0)
}

// append transcodes p after what came before and appends it to out.
func (d *decoder) append(out, p []byte) []byte {
	if len(d.odd) == 1 && len(p) > 0 {
		out = d.rune(out, d.unit(d.odd[0], p[0]))
		d.odd, p = d.odd[:0], p[1:]
	}
	for ; len(p) >= 2; p = p[2:] {
		out = d.rune(out, d.unit(p[0], p[1]))
	}
	if len(p) == 1 {
		d.odd = append(d.odd[:0], p[0])
	}
	return out
}

func (d *decoder) rune(out []byte, u uint16) []byte {
	r := rune(u)
	if d.high != 0 {
		high := d.high
		d.high = 0
		if utf16.IsSurrogate(r) && r >= 0xdc00 {
			return utf8.AppendRune(out, utf16.DecodeRune(high, r))
		}
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	switch {
	case r >= 0xd800 && r < 0xdc00:
		d.high = r
		return out
	case utf16.IsSurrogate(r):
		return utf8.AppendRune(out, utf8.RuneError)
	}
	return utf8.AppendRune(out, r)
}

// flush ends the text: an unpaired surrogate or odd byte is U+FFFD.
func (d *decoder) flush(out []byte) []byte {
	if d.high != 0 || len(d.odd) > 0 {
		d.high, d.odd = 0, d.odd[:0]
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// NewReader returns a reader of r's UTF-16 text in order o as UTF-8; the
// caller has consumed the byte-order mark, if any.
func NewReader(r io.Reader, o Order) io.Reader {
	return &reader{r: r, d: decoder{order: o}, in: make([]byte, 32<<10)}
}

type reader struct {
	r       io.Reader
	d       decoder
	in, out []byte
	err     error
}

// Read implements io.Reader.
func (t *reader) Read(p []byte) (int, error) {
	for len(t.out) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		n, err := t.r.Read(t.in)
		t.out = t.d.append(t.out[:0], t.in[:n])
		if err != nil {
			t.out, t.err = t.d.flush(t.out), err
		}
	}
	n := copy(p, t.out)
	t.out = t.out[n:]
	return n, nil
}

// Binary reports whether head holds a NUL byte outside UTF-16 text: the
// input is binary data (or text in an encoding no reader reads), and the
// offset of the first NUL.
func Binary(head []byte) (int, bool) {
	if o, _ := UTF16(head); o != NotUTF16 {
		return 0, false
	}
	i := bytes.IndexByte(head, 0)
	return i, i >= 0
}

// ExcerptLen is how many bytes of input an error message quotes at most.
const ExcerptLen = 40

// Excerpt quotes the first ExcerptLen bytes of b (cut at a character
// boundary) as a Go string, followed by "…" when b is longer: what an
// error message may embed of an input.
func Excerpt[T string | []byte](b T) string {
	if len(b) <= ExcerptLen {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:cutLen(b)])) + "…"
}

// Cut is b, cut like Excerpt but not quoted.
func Cut[T string | []byte](b T) string {
	if len(b) <= ExcerptLen {
		return string(b)
	}
	return string(b[:cutLen(b)]) + "…"
}

// cutLen is where Excerpt cuts b: at most ExcerptLen bytes, at the start
// of a character.
func cutLen[T string | []byte](b T) int {
	n := ExcerptLen
	for n > ExcerptLen-utf8.UTFMax && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// Names lists names for a message, comma-separated: the first 20, each
// longer than ExcerptLen as an Excerpt, then how many more there are.
func Names(names []string) string {
	var b strings.Builder
	for i, c := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == 20 {
			b.WriteString("… " + strconv.Itoa(len(names)-20) + " more")
			break
		}
		if len(c) > ExcerptLen {
			c = Excerpt(c)
		}
		b.WriteString(c)
	}
	return b.String()
}

// Size renders a byte count for messages: "512 bytes", "64 KiB",
// "3.5 MiB", "2 GiB".
func Size(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < k*k:
		return trim(float64(n)/k) + " KiB"
	case n < k*k*k:
		return trim(float64(n)/(k*k)) + " MiB"
	}
	return trim(float64(n)/(k*k*k)) + " GiB"
}

func trim(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}
