package ingest

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/decimal"
)

// scanner is a minimal single-pass JSON scanner over an in-memory
// document, used by the fast AIPerf reader. It validates what it reads as
// strictly as the jsontext decoder does, but instead of reporting problems
// it gives up: every method returns ok=false on anything it does not
// handle (syntax errors, names with escapes, invalid UTF-8, deep nesting),
// and the caller then reads the document again with the jsontext reader,
// which yields the positioned error or the exact result. It never panics.
type scanner struct {
	data  []byte
	pos   int
	depth int
	// marks, when set, collects the detection marks (scanHead) of every
	// string read, for readGuessed.
	marks *headMarks
	// cols bounds the members of one object (Limits.MaxColumns): past
	// it the scanner gives up, for the jsontext reader's error.
	cols int
	// bare, when set, accepts the bare literals Infinity, -Infinity and
	// NaN as scalars (text, skip), read as written, as the jsontext
	// readers read them through the tolerant pre-pass: the scanner reads
	// an input that pass has not rewritten (servingFast). number still
	// gives up on them.
	bare bool
}

// maxScanDepth bounds nesting; deeper documents take the jsontext path.
const maxScanDepth = 64

// strPlain marks the bytes a plain string (no escapes, ASCII, no control
// characters) may hold.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// ws skips JSON whitespace and returns the next byte (0 at the end).
// Runs of spaces (the indentation of pretty-printed files) are skipped
// eight bytes at a time.
func (s *scanner) ws() byte {
	if s.pos < len(s.data) { // no whitespace (the profile-guided build inlines this)
		if c := s.data[s.pos]; c > ' ' {
			return c
		}
	}
	return s.wsRun()
}

// wsRun is ws past at least one byte of whitespace or at the end.
func (s *scanner) wsRun() byte {
	d, i := s.data, s.pos
	for i < len(d) {
		switch c := d[i]; c {
		case ' ':
			i += spaces(d, i)
		case '\n', '\r', '\t':
			i++
		default:
			s.pos = i
			return c
		}
	}
	s.pos = i
	return 0
}

// spaces returns the length of the run of spaces at d[i], which is one.
func spaces(d []byte, i int) int {
	n := 0
	for ; i+n+8 <= len(d); n += 8 {
		if x := binary.LittleEndian.Uint64(d[i+n:]) ^ 0x2020202020202020; x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
	}
	for i+n < len(d) && d[i+n] == ' ' {
		n++
	}
	return n
}

// str reads a string at s.pos (which holds '"') and returns its raw
// content (between the quotes) and whether it is plain: without escapes
// and all ASCII. ok is false for invalid strings.
func (s *scanner) str() (raw []byte, plain, ok bool) {
	start := s.pos + 1
	i := start
	d := s.data
	for i < len(d) && strPlain[d[i]] {
		i++
	}
	if i < len(d) && d[i] == '"' {
		s.pos = i + 1
		if s.marks != nil {
			s.marks.plain(d[start:i])
		}
		return d[start:i], true, true
	}
	for i < len(d) { // escapes, non-ASCII or control characters
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			if s.marks != nil {
				s.marks.found |= scanHead(d[start-1 : i+1]).found
			}
			return d[start:i], false, validString(d[start-1 : i+1])
		case c == '\\':
			i += 2
		case c < 0x20:
			return nil, false, false
		default:
			i++
		}
	}
	return nil, false, false
}

// validString reports whether the quoted string q is valid JSON with valid
// UTF-8, that is, whether jsontext reads it exactly as unquote does.
func validString(q []byte) bool {
	_, err := jsontext.AppendUnquote(nil, q)
	return err == nil
}

// unquote returns the value of a string read by str.
func unquote(raw []byte, plain bool) (string, bool) {
	if plain {
		return string(raw), true
	}
	if !utf8.Valid(raw) {
		return "", false
	}
	b, err := jsontext.AppendUnquote(make([]byte, 0, len(raw)), append(append([]byte{'"'}, raw...), '"'))
	return string(b), err == nil
}

// name reads an object member name and the colon after it. Names with
// escapes or non-ASCII bytes are not handled.
func (s *scanner) name() ([]byte, bool) {
	if s.ws() != '"' {
		return nil, false
	}
	raw, plain, ok := s.str()
	if !ok || !plain || s.ws() != ':' {
		return nil, false
	}
	s.pos++
	return raw, true
}

// enter consumes open (after whitespace), counting the depth.
func (s *scanner) enter(open byte) bool {
	if s.ws() != open || s.depth >= maxScanDepth {
		return false
	}
	s.pos++
	s.depth++
	return true
}

// more is called before each member or element of an object or array
// entered with enter: it consumes the separator and reports whether
// another one follows (more) or the closing byte was consumed.
func (s *scanner) more(first bool, close byte) (more, ok bool) {
	c := s.ws()
	if c == close {
		s.pos++
		s.depth--
		return false, true
	}
	if first {
		return true, c != 0
	}
	if c != ',' {
		return false, false
	}
	s.pos++
	return true, true
}

// digitsEnd returns the index of the first byte of d at or after i that
// is not an ASCII digit.
func digitsEnd(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// rawNumber reads a JSON number and returns its raw bytes.
func (s *scanner) rawNumber() ([]byte, bool) {
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digitsEnd(d, i)
	default:
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		j := digitsEnd(d, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digitsEnd(d, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	raw := d[s.pos:i]
	s.pos = i
	return raw, true
}

// float reads a JSON number and returns its value exactly as
// number followed by parseNumber would. Plain decimals (no exponent, at
// most 19 significant digits) are scanned and converted in one pass; other
// numbers are read again by those two.
func (s *scanner) float() (float64, bool) {
	d, i := s.data, s.pos
	neg := i < len(d) && d[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits, q := 0, 0
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i, mant, digits = decimal.Digits(d, i, 0, 0)
	default:
		return 0, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		j := i
		i, mant, digits = decimal.Digits(d, i, mant, digits) // past 19 digits mant wraps: read again below
		if i == j {
			return 0, false
		}
		q = j - i
	}
	if digits <= 19 && (i == len(d) || d[i] != 'e' && d[i] != 'E') {
		if f, ok := decimal.Float(mant, q, neg); ok {
			s.pos = i
			return f, true
		}
	}
	raw, ok := s.rawNumber()
	if !ok {
		return 0, false
	}
	return parseNumber(raw)
}

// literal consumes the literal lit (true, false, null) at s.pos.
func (s *scanner) literal(lit string) bool {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return false
	}
	s.pos += len(lit)
	return true
}

// skip validates and skips one value.
func (s *scanner) skip() bool {
	switch c := s.ws(); c {
	case '{', '[':
		// An object's members are a name and a value, an array's elements
		// a value.
		object, close := c == '{', byte(']')
		if object {
			close = '}'
		}
		if !s.enter(c) {
			return false
		}
		for first := true; ; first = false {
			more, ok := s.more(first, close)
			if !ok {
				return false
			}
			if !more {
				return true
			}
			if object {
				if _, ok := s.name(); !ok {
					return false
				}
			}
			if !s.skip() {
				return false
			}
		}
	case '"':
		_, _, ok := s.str()
		return ok
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	if _, ok := s.nonFinite(); ok {
		return true
	}
	_, ok := s.rawNumber()
	return ok
}

// nonFinite consumes a bare Infinity, -Infinity or NaN when s.bare is
// set, and returns it.
func (s *scanner) nonFinite() (string, bool) {
	if !s.bare || s.pos >= len(s.data) {
		return "", false
	}
	rest := s.data[s.pos:]
	for _, lit := range [...]string{"Infinity", "-Infinity", "NaN"} {
		if len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
			s.pos += len(lit)
			return lit, true
		}
	}
	return "", false
}

// text reads a scalar like jreader.text: strings unquoted, numbers and
// booleans as written, null as set=false; objects and arrays are skipped
// with set=false.
func (s *scanner) text() (v string, set, ok bool) {
	switch s.ws() {
	case '{', '[':
		return "", false, s.skip()
	case 'n':
		return "", false, s.literal("null")
	case 't':
		return "true", true, s.literal("true")
	case 'f':
		return "false", true, s.literal("false")
	case '"':
		raw, plain, ok := s.str()
		if !ok {
			return "", false, false
		}
		v, ok := unquote(raw, plain)
		return v, true, ok
	}
	if lit, ok := s.nonFinite(); ok {
		return lit, true, true
	}
	raw, ok := s.rawNumber()
	return string(raw), true, ok
}

// parseNumber parses the raw bytes of a JSON number exactly as
// strconv.ParseFloat does; ok is false where ParseFloat fails (out of
// range). Numbers of up to 19 significant digits with a decimal exponent
// in [minPow10, maxPow10] take exact fast paths (see float.go); anything
// else goes to strconv.
func parseNumber(raw []byte) (float64, bool) {
	var mant uint64
	digits, q, i := 0, 0, 0
	neg := len(raw) > 0 && raw[0] == '-'
	if neg {
		i++
	}
	dot := false
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == '.' {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		if dot {
			q--
		}
		if mant == 0 && c == '0' {
			continue
		}
		if digits == 19 {
			return parseSlow(raw)
		}
		mant = mant*10 + uint64(c-'0')
		digits++
	}
	if i < len(raw) { // exponent: [eE][+-]?digits, validated by the scanner
		i++
		eneg := i < len(raw) && raw[i] == '-'
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			i++
		}
		e := 0
		for ; i < len(raw); i++ {
			if c := raw[i]; c < '0' || c > '9' || e > 10000 {
				return parseSlow(raw)
			}
			e = e*10 + int(raw[i]-'0')
		}
		if eneg {
			e = -e
		}
		q += e
	}
	if f, ok := decimal.Float(mant, q, neg); ok {
		return f, true
	}
	return parseSlow(raw)
}

func parseSlow(raw []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}
