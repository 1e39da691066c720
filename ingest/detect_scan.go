package ingest

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
)

// headMarks records which of the quoted marks Detect looks for occur in a
// file head, found in one pass over its quotes instead of one
// bytes.Contains per mark (quotes are so frequent in JSON that each of
// those is a slow scan of the whole head).
type headMarks struct {
	h     []byte
	found uint64
}

// detectMarks are the substrings detectJSON tests. Each starts or ends
// with a double quote, so that every occurrence is found by looking at the
// bytes after or before some quote of the head.
var detectMarks = []string{
	`"load_summary"`, `"successes"`, `"failures"`, `"benchmarks"`, `"guidellm`, `"metadata"`,
	`"Test name"`, `TTFT (ms)"`, `"aiperf_version"`, `"records"`, `"was_cancelled"`,
	`"perf_analyzer"`, `"telemetry_stats"`, `"formatted_model_name"`, `_ttft_ms"`,
	`_e2e_latency_ms"`, `"completed"`, `"duration"`, `"dataset_name"`, `"unit"`, `"avg"`,
	`"input_config"`, `"x_request_id"`, `"payload`, `"panels"`,
	`"generative_benchmark"`,
}

// mark is one of detectMarks, with up to eight of its bytes next to its
// quote as a little-endian word and the mask of the bytes used, so that
// most candidates are rejected by one comparison.
type mark struct {
	s          string
	bit        uint64
	word, mask uint64
}

var (
	markBits = map[string]uint64{}
	// marksAfter[c] are the marks `"c...` (word: the first bytes);
	// marksBefore[c] those `...c"` (word: the last bytes).
	marksAfter, marksBefore [256][]mark
)

func init() {
	for _, e := range registry { // the marks of the formats added since
		for _, m := range e.marks {
			if !slices.Contains(detectMarks, m) {
				detectMarks = append(detectMarks, m)
			}
		}
	}
	if len(detectMarks) > 64 {
		panic("ingest: more than 64 detection marks")
	}
	for i, s := range detectMarks {
		bit := uint64(1) << i
		n := min(len(s), 8)
		switch {
		case len(s) >= 2 && s[0] == '"':
			word, mask := wordOf(s[:n])
			marksAfter[s[1]] = append(marksAfter[s[1]], mark{s, bit, word, mask})
		case len(s) >= 2 && s[len(s)-1] == '"':
			word, mask := wordOf(s[len(s)-n:])
			word, mask = word<<(64-8*n), mask<<(64-8*n) // in the top bytes of the word ending at the quote
			marksBefore[s[len(s)-2]] = append(marksBefore[s[len(s)-2]], mark{s, bit, word, mask})
		default:
			continue // left to bytes.Contains
		}
		markBits[s] = bit
	}
	initPlainFilter()
}

// wordOf returns the bytes of s (at most eight) as a little-endian word
// and the mask of those bytes.
func wordOf(s string) (word, mask uint64) {
	for i := range len(s) {
		word |= uint64(s[i]) << (8 * i)
		mask |= 0xff << (8 * i)
	}
	return word, mask
}

// scanHead finds the detectMarks in h.
func scanHead(h []byte) headMarks {
	m := headMarks{h: h}
	for i := 0; i < len(h); i++ {
		if i = nextQuote(h, i); i < 0 {
			break
		}
		if i+1 < len(h) {
			if ks := marksAfter[h[i+1]]; len(ks) > 0 {
				m.after(ks, i)
			}
		}
		if i > 0 {
			if ks := marksBefore[h[i-1]]; len(ks) > 0 {
				m.before(ks, i)
			}
		}
	}
	return m
}

// after records the marks of ks that start at h[i].
func (m *headMarks) after(ks []mark, i int) {
	h := m.h
	if i+8 <= len(h) {
		w := binary.LittleEndian.Uint64(h[i:])
		for _, k := range ks {
			if w&k.mask == k.word && (len(k.s) <= 8 || bytes.HasPrefix(h[i+8:], []byte(k.s[8:]))) {
				m.found |= k.bit
			}
		}
		return
	}
	for _, k := range ks {
		if bytes.HasPrefix(h[i:], []byte(k.s)) {
			m.found |= k.bit
		}
	}
}

// before records the marks of ks that end at h[i].
func (m *headMarks) before(ks []mark, i int) {
	h := m.h
	if i >= 7 {
		w := binary.LittleEndian.Uint64(h[i-7:])
		for _, k := range ks {
			if w&k.mask == k.word && (len(k.s) <= 8 || bytes.HasSuffix(h[:i-7], []byte(k.s[:len(k.s)-8]))) {
				m.found |= k.bit
			}
		}
		return
	}
	for _, k := range ks {
		if bytes.HasSuffix(h[:i+1], []byte(k.s)) {
			m.found |= k.bit
		}
	}
}

// plain records the marks found around one plain string token (no escapes,
// no quotes inside: a JSON string the scanner accepted) with content c:
// exactly those scanHead finds at its two quotes, since a mark's bytes
// other than its quotes are never quotes or structural characters. (Marks
// at the opening quote need the bytes after it; at the closing quote, the
// bytes before it.)
func (m *headMarks) plain(c []byte) {
	n := len(c)
	if n == 0 {
		return
	}
	if f := &plainFilter[c[0]]; n >= f.minPrefix || n < 64 && f.lens>>n&1 != 0 {
		m.plainAfter(c)
	}
	if n >= plainFilter[c[n-1]].minSuffix {
		for _, k := range marksBefore[c[n-1]] {
			if m.found&k.bit == 0 && bytes.HasSuffix(c, []byte(k.s[:len(k.s)-1])) {
				m.found |= k.bit
			}
		}
	}
}

// plainFilter tells, by byte, which plain strings can hold a mark: those
// starting with it whose content length is one of lens (a bit per length)
// or at least minPrefix (the shortest prefix mark starting with it, or
// exact mark too long for lens), and those ending with it that are at
// least minSuffix long.
var plainFilter [256]struct {
	lens                 uint64
	minPrefix, minSuffix int
}

// initPlainFilter fills plainFilter from marksAfter and marksBefore.
func initPlainFilter() {
	f := &plainFilter
	for c := range f {
		f[c].minPrefix, f[c].minSuffix = 1<<30, 1<<30
		for _, k := range marksAfter[c] {
			switch w := k.s[1:]; {
			case w[len(w)-1] != '"': // a prefix: c holds it when at least as long
				f[c].minPrefix = min(f[c].minPrefix, len(w))
			case len(w)-1 < 64:
				f[c].lens |= 1 << (len(w) - 1)
			default: // too long for lens
				f[c].minPrefix = min(f[c].minPrefix, len(w)-1)
			}
		}
		for _, k := range marksBefore[c] {
			f[c].minSuffix = min(f[c].minSuffix, len(k.s)-1)
		}
	}
}

// plainAfter is plain for the marks at the opening quote; a mark found
// already is not looked for again ("unit" and "avg" open every block).
func (m *headMarks) plainAfter(c []byte) {
	for _, k := range marksAfter[c[0]] {
		if m.found&k.bit != 0 {
			continue
		}
		if w := k.s[1:]; w[len(w)-1] == '"' {
			if len(c) == len(w)-1 && string(c) == w[:len(w)-1] {
				m.found |= k.bit
			}
		} else if bytes.HasPrefix(c, []byte(w)) {
			m.found |= k.bit
		}
	}
}

// has reports whether s occurs in the head, like bytes.Contains. A mark
// that is none of detectMarks is a slow scan of the head
// (TestDetectMarksKnown finds them).
func (m *headMarks) has(s string) bool {
	if bit, ok := markBits[s]; ok {
		return m.found&bit != 0
	}
	if unknownMark != nil {
		unknownMark(s)
	}
	return bytes.Contains(m.h, []byte(s))
}

// unknownMark, set by tests only, is called with every mark has is asked
// for that detectMarks lacks.
var unknownMark func(string)

// nextQuote returns the index of the first '"' in h at or after i, or -1.
// Quotes are so close together in JSON that checking eight bytes at a time
// beats bytes.IndexByte's call overhead.
func nextQuote(h []byte, i int) int {
	const lo, hi, q = 0x0101010101010101, 0x8080808080808080, 0x2222222222222222
	for ; i+8 <= len(h); i += 8 {
		x := binary.LittleEndian.Uint64(h[i:]) ^ q // zero bytes where h has '"'
		if z := (x - lo) &^ x & hi; z != 0 {
			return i + bits.TrailingZeros64(z)/8
		}
	}
	for ; i < len(h); i++ {
		if h[i] == '"' {
			return i
		}
	}
	return -1
}
