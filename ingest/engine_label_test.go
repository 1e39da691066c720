package ingest

import (
	"bytes"
	"os"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestEngineLabel: the engine label is the server, never the client's
// backend: SGLang's server_info makes it sglang whatever the backend
// (openai here), with server_info.version as engine_version; a vLLM
// client backend that names only an API (openai-chat) sets no engine; the
// backend stays a parameter in both.
func TestEngineLabel(t *testing.T) {
	sg, err := os.ReadFile("testdata/synthetic/synthetic_sglang_modern.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.SplitN(sg, []byte("\n"), 2)[0]
	line = bytes.Replace(line, []byte(`"backend": "sglang-oai"`), []byte(`"backend": "openai"`), 1)
	vl, err := os.ReadFile("testdata/synthetic/synthetic_vllm_bench_serve_append.json")
	if err != nil {
		t.Fatal(err)
	}
	vline := bytes.SplitN(vl, []byte("\n"), 2)[0]
	vline = bytes.Replace(vline, []byte(`"backend": "vllm"`), []byte(`"backend": "openai-chat"`), 1)
	for _, c := range []struct {
		name                  string
		data                  []byte
		engine, version, tool string
	}{
		{"sglang openai backend", line, "sglang", "", trial.ToolSGLang},
		{"vllm openai-chat backend", vline, "", "", trial.ToolVLLM},
	} {
		ts, err := ReadBytes(c.data, "run.jsonl")
		if err != nil || len(ts) != 1 {
			t.Fatalf("%s: %d trials, %v", c.name, len(ts), err)
		}
		tr := ts[0]
		if tr.Labels[trial.LabelTool] != c.tool || tr.Labels[trial.LabelEngine] != c.engine {
			t.Errorf("%s: labels %v; want tool=%s engine=%q", c.name, tr.Labels, c.tool, c.engine)
		}
		if b := tr.Params["backend"]; b != "openai" && b != "openai-chat" {
			t.Errorf("%s: param backend=%q; want the client backend", c.name, b)
		}
		if c.tool == trial.ToolSGLang && (tr.Labels[trial.LabelEngineVersion] == "" || tr.Labels[trial.LabelEngineVersion] != tr.Params["server_info.version"]) {
			t.Errorf("%s: engine_version %q; want server_info.version %q", c.name, tr.Labels[trial.LabelEngineVersion], tr.Params["server_info.version"])
		}
	}
}
