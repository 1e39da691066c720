package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// fuzzRead seeds a fuzz target with the small files of the given globs and
// checks that reading never panics and never yields non-finite values,
// negative latencies, throughputs or counts, or trials from input that is
// not UTF-8.
func fuzzRead(f *testing.F, name string, globs ...string) {
	for _, g := range globs {
		m, _ := filepath.Glob(filepath.Join("testdata", g))
		for _, p := range m {
			if data, err := os.ReadFile(p); err == nil && len(data) < 128<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ReadBytes(append([]byte(nil), data...), name)
		if err != nil && len(err.Error()) > 2048 {
			t.Fatalf("an error of %d bytes: %.200s…", len(err.Error()), err)
		}
		if o, _ := textin.UTF16(data); err == nil && len(ts) > 0 && o == textin.NotUTF16 && !utf8.Valid(data) {
			t.Fatalf("%d trials from input that is not UTF-8", len(ts))
		}
		for _, tr := range ts {
			for _, m := range tr.Measurements {
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					t.Fatalf("non-finite measurement %v", m)
				}
				if m.Value < 0 && trial.NonNegative(m.Metric, m.Unit) {
					t.Fatalf("negative measurement %+v", m)
				}
			}
		}
	})
}

func FuzzReadVLLM(f *testing.F) {
	fuzzRead(f, "result.json", "synthetic/*vllm*", "bad/*vllm*", "vllm/*nightly*")
}

func FuzzReadSGLang(f *testing.F) {
	fuzzRead(f, "result.jsonl", "sglang/*", "synthetic/*sglang*", "bad/*sglang*")
}

func FuzzReadAIPerfJSON(f *testing.F) {
	fuzzRead(f, "profile_export_aiperf.json", "aiperf/*", "synthetic/*aiperf*.json", "bad/*aiperf*.json", "notresults/*.json*", "unseen/aiperf*.json*")
}

func FuzzReadGenAIPerfJSON(f *testing.F) {
	fuzzRead(f, "profile_export_genai_perf.json", "synthetic/*genai_perf*.json")
}

func FuzzReadPerfCSV(f *testing.F) {
	fuzzRead(f, "profile_export_aiperf.csv", "synthetic/*.csv", "bad/*.csv", "twins/*/*.csv")
}

func FuzzReadGenAIPerfAnalyze(f *testing.F) {
	fuzzRead(f, "analyze_export_genai_perf.csv", "unseen/*analyze*.csv")
}

func FuzzReadInferencePerf(f *testing.F) {
	fuzzRead(f, "stage_0_lifecycle_metrics.json", "other/inference-perf*", "unseen/inference-perf*")
}

func FuzzReadGuideLLM(f *testing.F) {
	fuzzRead(f, "guidellm.json", "other/guidellm*", "synthetic/*guidellm*")
}

func FuzzReadLLMPerf(f *testing.F) {
	fuzzRead(f, "llmperf_summary.json", "llmperf/*")
}

func FuzzTolerantReader(f *testing.F) {
	f.Add([]byte(`{"a": Infinity, "b": -Infinity, "c": NaN, "d": "NaN Infinity"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := append([]byte(nil), data...)
		var rw nanRewriter
		rw.rewrite(want, true)
		tr := newTolerantReader(&chunky{data: data})
		got := make([]byte, 0, len(data))
		buf := make([]byte, 3)
		for {
			n, err := tr.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if string(got) != string(want) {
			t.Fatalf("streaming rewrite %q != in-place %q", got, want)
		}
		if !slices.Equal(tr.rw.lits.at, rw.lits.at) {
			t.Fatalf("%q: streaming rewrite noted literals at %v, in-place at %v", data, tr.rw.lits.at, rw.lits.at)
		}
		for _, off := range rw.lits.at { // each names the literal the input has there
			body, _, _ := bytes.Cut(want[off+1:], []byte(`"`))
			if lit, ok := rw.lits.literal(off, string(body)); want[off] != '"' || !ok || !bytes.HasPrefix(data[off:], []byte(lit)) {
				t.Fatalf("%q: literal %q (%v) noted at %d", data, lit, ok, off)
			}
		}
	})
}

// chunky returns data a few bytes at a time to split literals across reads.
type chunky struct{ data []byte }

func (c *chunky) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, errEOF
	}
	n := copy(p[:min(len(p), 5)], c.data)
	c.data = c.data[n:]
	return n, nil
}

// FuzzTokenGuard checks the JSON string guard of streamed files against a
// plain byte-by-byte scan: fed in pieces of any size, it reports a string
// longer than its limit exactly when there is one, at its opening quote.
func FuzzTokenGuard(f *testing.F) {
	f.Add([]byte(`{"a": "0123456789", "b": "x\\"}`), uint8(3), uint8(8))
	f.Add([]byte(`["\"quoted\" and \\\\", "short"]`), uint8(1), uint8(5))
	f.Add([]byte(`{"k": "`+string(make([]byte, 40))+`"}`), uint8(7), uint8(16))
	f.Fuzz(func(t *testing.T, data []byte, piece, limit uint8) {
		max := int64(limit)
		wantOff, wantLong := longString(data, max)
		g := tokenGuard{max: max, src: &source{path: "f", data: data}}
		var err error
		for p := data; len(p) > 0 && err == nil; {
			n := min(len(p), int(piece)+1)
			err, p = g.scan(p[:n]), p[n:]
		}
		var se *SyntaxError
		switch {
		case wantLong && !errors.As(err, &se):
			t.Fatalf("a string longer than %d at %d not reported (%v)", max, wantOff, err)
		case wantLong && se.Offset != wantOff:
			t.Fatalf("reported at %d; the string starts at %d", se.Offset, wantOff)
		case !wantLong && err != nil:
			t.Fatalf("reported %v; no string is longer than %d", err, max)
		}
	})
}

// longString is the reference of tokenGuard: the offset of the first
// string (after the opening quote, counting raw bytes up to the closing
// quote or the end) longer than max.
func longString(data []byte, max int64) (int64, bool) {
	in, esc := false, false
	start := 0
	for i, c := range data {
		switch {
		case !in && c == '"':
			in, start = true, i
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
			if int64(i-start-1) > max {
				return int64(start), true
			}
		}
		if in && int64(i-start) > max { // i-start bytes after the quote so far
			return int64(start), true
		}
	}
	return 0, false
}

// FuzzReadUTF16 checks that a result file written in UTF-16 reads exactly
// as its UTF-8 text does (errors included: columns count UTF-8 bytes).
func FuzzReadUTF16(f *testing.F) {
	for _, g := range []string{"synthetic/*", "sglang/*", "aiperf/*"} {
		m, _ := filepath.Glob(filepath.Join("testdata", g))
		for _, p := range m {
			if data, err := os.ReadFile(p); err == nil && len(data) < 16<<10 {
				f.Add(data, filepath.Base(p), false)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, name string, bigEndian bool) {
		if !utf8.Valid(data) {
			return // UTF-16 cannot hold it
		}
		want, werr := ReadBytes(slices.Clone(data), name)
		got, gerr := ReadBytes(toUTF16(data, bigEndian, true), name)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("UTF-16: error %v; UTF-8: %v", gerr, werr)
		}
		if a, b := fmt.Sprint(got), fmt.Sprint(want); a != b {
			t.Fatalf("UTF-16 trials differ:\n%s\n%s", a, b)
		}
	})
}

// FuzzReadTable: reading a generic table never panics, a table is
// refused as not_a_result when its only numbers are load settings, and
// every row read holds a measurement.
func FuzzReadTable(f *testing.F) {
	for _, p := range []string{"notresults/harness_runs.json", "../../examples/trials.csv"} {
		if data, err := os.ReadFile(filepath.Join("testdata", p)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("concurrency,request_rate,ttft_ms\n1,inf,20\n"))
	f.Add([]byte("{\"concurrency\": 4, \"file\": \"a.json\"}\n"))
	f.Add([]byte("{\"id\": \"a\", \"request_rate\": Infinity, \"ttft_ms\": NaN, \"x\": -Infinity}\n{\"id\": \"N\", \"request_rate\": 2, \"ttft_ms\": 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte(nil), data...)
		ts, err := ReadTable(in, "t.csv", TableOptions{})
		if !bytes.Equal(in, data) {
			t.Fatalf("ReadTable changed its input")
		}
		for i := range ts {
			if r := ts[i].Workload.RequestRate; math.IsNaN(r) || r < 0 && math.IsInf(r, 0) {
				t.Fatalf("trial %d: request_rate %v", i, r)
			}
			for _, m := range ts[i].Measurements {
				if math.IsInf(m.Value, 0) || math.IsNaN(m.Value) {
					t.Fatalf("trial %d: non-finite measurement %+v", i, m)
				}
			}
		}
		var nr *NotResultError
		if errors.As(err, &nr) {
			if nr.What == "" || len(ts) != 0 {
				t.Fatalf("not a result, %d trials, %q", len(ts), nr.What)
			}
			return
		}
		if err == nil && onlySettings(ts) != nil {
			t.Fatalf("%d trials whose only numbers are load settings accepted", len(ts))
		}
		for i := range ts {
			if err == nil && len(ts[i].Measurements) == 0 && !slices.ContainsFunc(slices.Collect(maps.Values(ts[i].Params)), isNumberCell) {
				t.Fatalf("row %d, without a numeric cell, accepted as a trial", i)
			}
		}
	})
}

// isNumberCell reports whether a table cell is a number (NaN and ±Inf
// included).
func isNumberCell(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// rewriteRef is the byte-at-a-time nanRewriter.rewrite that the one which
// jumps through strings replaced: FuzzRewriteRef holds them equal, the
// offsets of the literals replaced included.
func rewriteRef(r *nanRewriter, buf []byte, eof bool) int {
	n := scanRef(r, buf, eof)
	r.pos += int64(n)
	return n
}

func scanRef(r *nanRewriter, buf []byte, eof bool) int {
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
			r.lits.at = append(r.lits.at, r.pos+int64(i))
			i += len(lit) - 1
		}
	}
	return len(buf)
}

// sameRewriter reports whether a and b are in the same state and noted
// the same literals.
func sameRewriter(a, b *nanRewriter) bool {
	return a.inStr == b.inStr && a.esc == b.esc && a.pos == b.pos && slices.Equal(a.lits.at, b.lits.at)
}

// FuzzRewriteRef: the rewriter gives the bytes, the count of final bytes
// and the state of the byte-at-a-time reference, for any input cut
// anywhere (the state carried from the first part to the second).
func FuzzRewriteRef(f *testing.F) {
	f.Add([]byte(`{"a": Infinity, "b": "x\"NaN\\", "c": NaN, "d": "\\\\\"Infinity"}`), uint16(7))
	f.Add([]byte(`"\\\\\\"" NaN "\\" -Infinity`), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		k := int(cut) % (len(data) + 1)
		got, want := append([]byte(nil), data...), append([]byte(nil), data...)
		var a, b nanRewriter
		na, nb := a.rewrite(got[:k], false), rewriteRef(&b, want[:k], false)
		if na != nb || !sameRewriter(&a, &b) || !bytes.Equal(got, want) {
			t.Fatalf("first part %q: %d %+v %q; reference %d %+v %q", data[:k], na, a, got, nb, b, want)
		}
		na, nb = a.rewrite(got[na:], true), rewriteRef(&b, want[nb:], true)
		if na != nb || !sameRewriter(&a, &b) || !bytes.Equal(got, want) {
			t.Fatalf("%q: %d %+v %q; reference %d %+v %q", data, na, a, got, nb, b, want)
		}
	})
}
