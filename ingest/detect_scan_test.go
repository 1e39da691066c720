package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzScanHead checks that the one-pass mark scan agrees with
// bytes.Contains for every mark.
func FuzzScanHead(f *testing.F) {
	f.Add([]byte(`{"load_summary": 1, "x_ttft_ms": 2, "Test name": "TTFT (ms)"}`))
	f.Add([]byte(`""records"""avg""unit"_e2e_latency_ms"`))
	f.Add([]byte(`"guidellm"guidellm`))
	f.Fuzz(func(t *testing.T, h []byte) {
		m := scanHead(h)
		for _, s := range append(detectMarks, `"other"`) {
			if got, want := m.has(s), bytes.Contains(h, []byte(s)); got != want {
				t.Fatalf("has(%q) = %v, bytes.Contains says %v", s, got, want)
			}
		}
	})
}

// BenchmarkScanHead sniffs the generated 14 KB AIPerf file.
func BenchmarkScanHead(b *testing.B) {
	h := aiperfFile(b, 1)
	b.Run(fmt.Sprintf("kb=%d", len(h)>>10), func(b *testing.B) {
		b.SetBytes(int64(len(h)))
		for b.Loop() {
			scanHead(h)
		}
	})
}

// TestPlainMarks checks the marks found in one plain string token against
// scanHead over the quoted token, on random contents made of pieces of the
// marks.
func TestPlainMarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var pieces []string
	for _, s := range detectMarks {
		w := strings.Trim(s, `"`)
		pieces = append(pieces, w, w[:len(w)/2], w[len(w)/2:])
	}
	pieces = append(pieces, "x", "_", " ", "ms")
	for range 200000 {
		var c []byte
		for range rng.IntN(4) {
			c = append(c, pieces[rng.IntN(len(pieces))]...)
		}
		var m headMarks
		m.plain(c)
		if want := scanHead([]byte(`"` + string(c) + `"`)).found; m.found != want {
			t.Fatalf("plain(%q) found %b; scanHead %b", c, m.found, want)
		}
	}
}

// TestDetectMarksKnown: every mark a sniff asks for while detecting the
// golden inputs and the look-alikes is one of the precomputed marks (a
// registry entry's marks), not a slow scan of the head.
func TestDetectMarksKnown(t *testing.T) {
	missed := map[string]bool{}
	unknownMark = func(s string) { missed[s] = true }
	defer func() { unknownMark = nil }()
	files := goldenInputs(t)
	more, _ := filepath.Glob("testdata/notresults/*")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		Detect(data[:min(len(data), HeadSize)], f)
	}
	for m := range missed {
		t.Errorf("mark %s is not in detectMarks: add it to its registry entry's marks", m)
	}
}
