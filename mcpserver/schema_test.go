package mcpserver_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/mcpserver"
)

// TestInputSchemas checks that the input schemas state what the tools
// check: minimums, enums, required arguments that may not be null or
// empty.
func TestInputSchemas(t *testing.T) {
	cs := connect(t, mcpserver.Options{Store: filepath.Join(t.TempDir(), "s.db")})
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]map[string]map[string]any{}
	required := map[string][]any{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []any                     `json:"required"`
		}
		json.Unmarshal(b, &s)
		props[tool.Name], required[tool.Name] = s.Properties, s.Required
	}
	for _, c := range []struct{ tool, arg, key string }{
		{"ask", "budget", "minimum"}, {"ask", "repeats", "minimum"}, {"ask", "max_runs", "minimum"}, {"ask", "sampler", "enum"},
		{"gate", "min_repeats", "minimum"}, {"gate", "confidence", "exclusiveMaximum"}, {"gate", "candidate", "minItems"},
		{"gate", "objectives", "minItems"}, {"gate", "study", "minLength"}, {"gate", "baseline", "minLength"},
		{"tell", "trial", "minimum"}, {"trials", "limit", "minimum"}, {"front", "aggregate", "enum"}, {"pick", "aggregate", "enum"},
	} {
		p, ok := props[c.tool][c.arg]
		if !ok || p[c.key] == nil {
			t.Errorf("%s.%s: no %s in %v", c.tool, c.arg, c.key, p)
		}
	}
	if typ := props["gate"]["candidate"]["type"]; typ != "array" {
		t.Errorf("gate.candidate: type %v, want array (not null)", typ)
	}
}

// TestArgumentErrors checks that refused arguments are named as the
// tool's arguments, never as the command's flags.
func TestArgumentErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	ingestDecide(t, db)
	cs := connect(t, mcpserver.Options{Store: db})
	obj := []string{"output_token_throughput:max", "ttft.p99:min"}
	cand := filepath.Join("..", "examples", "decide", "candidate-sglang-0.5.6.jsonl")
	gate := func(extra map[string]any) map[string]any {
		m := map[string]any{"study": "tune", "candidate": []string{cand}, "baseline": "role=baseline", "objectives": obj}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, c := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"budget below 1", "ask", map[string]any{"study": "s", "budget": -5}, "budget"},
		{"sampler unknown", "ask", map[string]any{"study": "s", "sampler": "bogus"}, "sampler"},
		{"candidate null", "gate", gate(map[string]any{"candidate": nil}), "candidate"},
		{"candidate empty", "gate", gate(map[string]any{"candidate": []string{}}), "candidate"},
		{"candidate missing", "gate", map[string]any{"study": "tune", "baseline": "role=baseline", "objectives": obj}, "candidate"},
		{"max_runs below min_repeats", "gate", gate(map[string]any{"max_runs": 2}), "max_runs must be at least min_repeats"},
		{"confidence 1", "gate", gate(map[string]any{"confidence": 1}), "confidence"},
		{"bad where", "gate", gate(map[string]any{"where": []string{"=="}}), "where"},
		{"bad selection", "gate", gate(map[string]any{"candidate": []string{"nokey"}}), "candidate"},
		{"bad min_improve", "gate", gate(map[string]any{"min_improve": []string{"x=abc"}}), "min_improve"},
		{"bad aggregate", "front", map[string]any{"study": "tune", "objectives": obj, "aggregate": "max"}, "aggregate"},
		{"limit 0", "trials", map[string]any{"study": "tune", "limit": 0}, "limit"},
		{"trial 0", "tell", map[string]any{"study": "tune", "trial": 0, "failed": "x"}, "trial"},
		{"study empty", "trials", map[string]any{"study": ""}, "study"},
		{"no objectives", "ask", map[string]any{"study": "new", "space": filepath.Join("..", "examples", "tune", "space.toml"), "budget": 3}, "objectives is required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatalf("protocol error %v, want a tool error", err)
			}
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, c.want) {
				t.Errorf("%s: %v %q, want a tool error with %q", c.tool, res.IsError, msg, c.want)
			}
			if strings.Contains(msg, "--") || strings.Contains(msg, " -o ") {
				t.Errorf("%s: %q names a command-line flag", c.tool, msg)
			}
		})
	}
}
