package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPanicIsToolError registers a tool that panics: the call answers
// with a tool error naming the tool, and the server keeps serving.
func TestPanicIsToolError(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "pareto", Version: "test"}, nil)
	type in struct {
		Study string `json:"study"`
	}
	if err := add(nil, s, &mcp.Tool{Name: "boom", Description: "panics"}, nil, func(context.Context, in) (TrialsOutput, error) {
		var m map[string]int
		//lint:ignore SA5000 the test needs a real runtime panic
		m["x"]++ // a nil map: panics
		return TrialsOutput{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{"study": "x"}})
		if err != nil {
			t.Fatalf("protocol error %v, want a tool error", err)
		}
		msg := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(msg, "boom: internal error") {
			t.Errorf("result %v %q, want a tool error naming the tool", res.IsError, msg)
		}
	}
}
