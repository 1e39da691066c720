package ingest

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestNonFiniteLiteralText: a vLLM `--append-result` file (two records of
// a real result) whose first record holds bare Infinity, -Infinity and NaN
// literals (Python's json.dumps) beside genuine strings "Infini", "-Infini"
// and "N" (what the tolerant pre-pass rewrites the literals to), read in
// memory and streamed: a literal read as text is the literal as written, a
// genuine string stays as written, a literal where a number is expected is
// ±Inf, and a genuine "N" there is no number.
func TestNonFiniteLiteralText(t *testing.T) {
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	if err != nil {
		t.Fatal(err)
	}
	vllm = bytes.TrimSpace(vllm)
	const old = `"burstiness": 1.0,`
	if !bytes.Contains(vllm, []byte(old)) {
		t.Fatalf("fixture lacks %q", old)
	}
	rec := strings.Replace(string(vllm), old, `"burstiness": Infinity, "lo": -Infinity, "nn": NaN, `+
		`"s1": "Infini", "s2": "-Infini", "s3": "N", "s4": "NaN Infinity", "arr": [Infinity, "N", NaN, "Infini"], `+
		`"obj": {"x": NaN, "y": "Infini", "z": -Infinity}, "label": "N", "request_rate": Infinity,`, 1)
	rec = strings.Replace(rec, `"request_rate": 4.0, `, ``, 1)
	data := []byte(rec + "\n" + string(vllm) + "\n")
	path := filepath.Join(t.TempDir(), "append.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wantParams := map[string]string{
		"burstiness": "Infinity", "lo": "-Infinity", "nn": "NaN",
		"s1": "Infini", "s2": "-Infini", "s3": "N", "s4": "NaN Infinity",
		"arr": "Infinity,N,NaN,Infini", "obj.x": "NaN", "obj.y": "Infini", "obj.z": "-Infinity",
		"label": "N", "request_rate": "inf",
	}
	for _, read := range []struct {
		name string
		fn   func() ([]trial.Trial, error)
	}{
		{"in memory", func() ([]trial.Trial, error) { return ReadBytes(data, path) }},
		{"streamed", func() ([]trial.Trial, error) { return ReadFile(path) }},
	} {
		t.Run(read.name, func(t *testing.T) {
			if read.name == "streamed" && len(data) <= StreamThreshold {
				t.Fatalf("%d bytes: not streamed", len(data))
			}
			ts, err := read.fn()
			if err != nil || len(ts) != 2 {
				t.Fatalf("%d trials, %v; want 2", len(ts), err)
			}
			for k, want := range wantParams {
				if got, ok := ts[0].Params[k]; !ok || got != want {
					t.Errorf("param %s = %q (%v); want %q", k, got, ok, want)
				}
			}
			if got := ts[0].Labels["label"]; got != "N" {
				t.Errorf("label %q; want %q", got, "N")
			}
			if got := ts[0].Workload.RequestRate; !math.IsInf(got, 1) {
				t.Errorf("request_rate %v; want +Inf", got)
			}
			if got := ts[1].Params["burstiness"]; got != "1.0" {
				t.Errorf("second record: burstiness %q; want 1.0", got)
			}
			if ts[1].Source.Line != 2 {
				t.Errorf("second record at line %d; want 2", ts[1].Source.Line)
			}
		})
	}
}
