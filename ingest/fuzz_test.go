package ingest

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fuzzRead seeds a fuzz target with the small files of the given globs and
// checks that reading never panics and never yields non-finite values.
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
		ts, _ := ReadBytes(append([]byte(nil), data...), name)
		for _, tr := range ts {
			for _, m := range tr.Measurements {
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					t.Fatalf("non-finite measurement %v", m)
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
	fuzzRead(f, "profile_export_aiperf.json", "aiperf/*", "synthetic/*aiperf*.json", "bad/*aiperf*.json")
}

func FuzzReadGenAIPerfJSON(f *testing.F) {
	fuzzRead(f, "profile_export_genai_perf.json", "synthetic/*genai_perf*.json")
}

func FuzzReadPerfCSV(f *testing.F) {
	fuzzRead(f, "profile_export_aiperf.csv", "synthetic/*.csv", "bad/*.csv")
}

func FuzzReadInferencePerf(f *testing.F) {
	fuzzRead(f, "stage_0_lifecycle_metrics.json", "other/inference-perf*")
}

func FuzzReadGuideLLM(f *testing.F) {
	fuzzRead(f, "guidellm.json", "other/guidellm*")
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
