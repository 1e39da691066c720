package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnOutput: pareto's own JSON outputs are recognised from their
// leading keys, and no real benchmark result of testdata is taken for
// one (every real and synthetic result keeps its format).
func TestOwnOutput(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"study":"s","complete":3,"failed":0,"queued":1,"budget_left":4,"frontier":[],"trials":[]}`, "pareto tune --format json"},
		{`{"trials":3,"stored":{"store":"s.db"},"formats":[],"skipped":[]}`, "pareto ingest --format json"},
		{"{\n  \"trials\": [\n    {\n      \"id\": \"ab\",\n      \"source\": {}}]}", "trials of a pareto test's golden file"},
		{`{"decision":"admit","code":"admitted","reasons":[]}`, "pareto gate's JSON verdict"},
		{`{"objectives":[{"name":"x"}],"slos":[],"aggregate":"median"`, "pareto front --format json"}, // cut: the head of a large output
		{"{\n  \"trials\": null,\n  \"error\": \"x.json:2:18: within /p99_ttft_ms\"\n}\n", "a pareto test's golden file (of an input that is an error)"},
		{`{"trials":[{"ttft":1}]}`, ""},
		{`{"trials":"x","formats":[]}`, "pareto ingest --format json"},
		{`{"study":"s","trial":1}`, ""},
		{`{"date":"20250414-141505","backend":"vllm"}`, ""},
		{`[{"objectives":1}]`, ""},
		{`{"objectives`, ""},
	} {
		if got := ownOutput([]byte(c.doc)); got != c.want {
			t.Errorf("ownOutput(%s) = %q; want %q", c.doc, got, c.want)
		}
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if len(goldens) < 20 {
		t.Fatalf("%d golden files", len(goldens))
	}
	for _, f := range goldens {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(data[:min(len(data), HeadSize)], f); got != FormatParetoOutput {
			t.Errorf("golden %s: detected as %q", f, got)
		}
	}
	var files []string
	for _, dir := range []string{"vllm", "sglang", "aiperf", "other", "synthetic", "twins/bare", "twins-genai-perf/llama-3-8b-openai-chat-concurrency32"} {
		m, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json*"))
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("%d result files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head := data[:min(len(data), HeadSize)]
		if got := Detect(head, f); got == FormatParetoOutput || got == FormatUnknown && !strings.HasSuffix(f, ".md") {
			t.Errorf("%s: detected as %q", f, got)
		}
	}
}

// FuzzOwnOutput: recognising pareto's outputs never panics on any head.
func FuzzOwnOutput(f *testing.F) {
	f.Add([]byte(`{"trials":[{"id":"a","source":{}}]}`))
	f.Add([]byte(`{"objectives":[],"slos":[],"aggregate":"median"}`))
	f.Fuzz(func(t *testing.T, head []byte) {
		if w := ownOutput(head); w != "" && head[0] != '{' {
			t.Fatalf("%q recognised as %s", head, w)
		}
	})
}
