package ingest

import (
	"bytes"
	"encoding/binary"
	"math/bits"
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
	`"input_config"`,
}

type mark struct {
	s   string
	bit uint64
}

var (
	markBits = map[string]uint64{}
	// marksAfter[c] are the marks `"c...`; marksBefore[c] those `...c"`.
	marksAfter, marksBefore [256][]mark
)

func init() {
	for i, s := range detectMarks {
		bit := uint64(1) << i
		switch {
		case len(s) >= 2 && s[0] == '"':
			marksAfter[s[1]] = append(marksAfter[s[1]], mark{s, bit})
		case len(s) >= 2 && s[len(s)-1] == '"':
			marksBefore[s[len(s)-2]] = append(marksBefore[s[len(s)-2]], mark{s, bit})
		default:
			continue // left to bytes.Contains
		}
		markBits[s] = bit
	}
}

// scanHead finds the detectMarks in h.
func scanHead(h []byte) headMarks {
	m := headMarks{h: h}
	for i := 0; i < len(h); i++ {
		if i = nextQuote(h, i); i < 0 {
			break
		}
		if i+1 < len(h) {
			for _, k := range marksAfter[h[i+1]] {
				if m.found&k.bit == 0 && bytes.HasPrefix(h[i:], []byte(k.s)) {
					m.found |= k.bit
				}
			}
		}
		if i > 0 {
			for _, k := range marksBefore[h[i-1]] {
				if m.found&k.bit == 0 && bytes.HasSuffix(h[:i+1], []byte(k.s)) {
					m.found |= k.bit
				}
			}
		}
	}
	return m
}

// has reports whether s occurs in the head, like bytes.Contains.
func (m *headMarks) has(s string) bool {
	if bit, ok := markBits[s]; ok {
		return m.found&bit != 0
	}
	return bytes.Contains(m.h, []byte(s))
}

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
