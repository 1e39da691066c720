package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// repeatReader yields n bytes of c, then EOF.
type repeatReader struct {
	c byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= k
	return k, nil
}

// TestReadFrameOverLimit reads a 64 MiB line with a 1 MiB limit: it is
// reported over the limit with its start (for its id), the memory held
// stays within twice the limit (not the line's length), and the next line reads whole.
func TestReadFrameOverLimit(t *testing.T) {
	const max, size = 1 << 20, 64 << 20
	head := `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":"`
	r := bufio.NewReaderSize(io.MultiReader(strings.NewReader(head), &repeatReader{'a', size}, strings.NewReader("\"}}\n{\"next\":1}\n")), 64<<10)
	line, over, err := readFrame(r, nil, max)
	if err != nil || !over {
		t.Fatalf("over %v, err %v", over, err)
	}
	if len(line) > idPrefix || cap(line) > 2*max {
		t.Errorf("kept %d bytes (capacity %d) of a %d-byte line, limit %d", len(line), cap(line), size, max)
	}
	if id := recoverID(line); id.Raw() != "big" {
		t.Errorf("id %v, want big", id.Raw())
	}
	line, over, err = readFrame(r, line[:0], max)
	if string(line) != `{"next":1}` || over || err != nil {
		t.Errorf("next line %q, over %v, err %v", line, over, err)
	}
	if _, _, err := readFrame(r, nil, max); err != io.EOF {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

func TestReadFrameEndings(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("a\r\nb\n\nlast"))
	var got []string
	for {
		line, _, err := readFrame(r, nil, 10)
		got = append(got, string(line))
		if err != nil {
			break
		}
	}
	if strings.Join(got, "|") != "a|b||last" {
		t.Errorf("lines %q", got)
	}
}

func TestParseID(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want any // nil: refused
	}{
		{`"a"`, "a"}, {`7`, int64(7)}, {`-3`, int64(-3)}, {`0`, int64(0)}, {`9007199254740992`, int64(1 << 53)},
		{`9007199254740993`, nil}, {`1.5`, nil}, {`1e3`, nil}, {`null`, nil}, {`{}`, nil}, {`[1]`, nil}, {`true`, nil},
	} {
		id, err := parseID([]byte(c.raw))
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: id %v, want refused", c.raw, id.Raw())
			}
			continue
		}
		if err != nil || id.Raw() != c.want {
			t.Errorf("%s: %v %v, want %v", c.raw, id.Raw(), err, c.want)
		}
	}
}

func TestRecoverID(t *testing.T) {
	for _, c := range []struct {
		frame string
		want  any
	}{
		{`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"trunc`, int64(5)},
		{`{"params":{"a":[1,{"id":9}]},"id":"x"`, "x"},
		{`{"params":{"id":9}`, nil},
		{`{"id":1,"id":2}`, nil},
		{`{"id":{"a":1}}`, nil},
		{`[{"id":1}]`, nil},
		{`not json`, nil},
	} {
		id := recoverID([]byte(c.frame))
		if id.Raw() != c.want {
			t.Errorf("%s: %v, want %v", c.frame, id.Raw(), c.want)
		}
	}
}

func TestDepth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{`1`, 0}, {`{}`, 1}, {`[[],[[]]]`, 3}, {`{"a":"[[[[\"{{"}`, 1}, {`"\\"`, 0},
	} {
		if d := depth([]byte(c.s)); d != c.want {
			t.Errorf("%s: depth %d, want %d", c.s, d, c.want)
		}
	}
}

// BenchmarkFrame decodes one frame as the server does for every message
// it reads.
func BenchmarkFrame(b *testing.B) {
	for _, n := range []int{0, 1 << 10, 1 << 20} {
		frame := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"front","arguments":{"files":["` +
			strings.Repeat("a", n) + `"],"objectives":["ttft.p99:min"]}}}`)
		c := &frameConn{w: io.Discard, maxFrame: DefaultMaxFrame, maxDepth: DefaultMaxDepth, inFlight: map[jsonrpc.ID]bool{}}
		b.Run("bytes="+strconv.Itoa(len(frame)), func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if m := c.frame(bytes.Clone(frame)); m == nil {
					b.Fatal("refused")
				}
				clear(c.inFlight)
			}
		})
	}
}

func TestNoContent(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`x:1: no column "a" (have: root:x:0:0:root:/root:/bin/bash)`, `x:1: no column "a" (its first line is no header of named columns: not a table)`},
		{`x:1: no column "a" (have: b, c)`, `x:1: no column "a" (have: b, c)`},
		{`no parenthesis`, `no parenthesis`},
	} {
		if got := noContent(c.in); got != c.want {
			t.Errorf("noContent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestArgWording(t *testing.T) {
	in, err := jsonschema.For[GateInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"--candidate is required", "candidate is required"},
		{"--max-runs must be at least --min-repeats", "max_runs must be at least min_repeats"},
		{"give at least one -o NAME:min or -o NAME:max", "give at least one in objectives (NAME:min or NAME:max)"},
		{"--slo x", "slos x"},
		{"refuse (--max-input-size)", "refuse (--max-input-size)"}, // no such argument: pareto mcp's own flag
		{"file a--b.json", "file a--b.json"},
	} {
		if got := argWording(c.in, in); got != c.want {
			t.Errorf("argWording(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRedactResponse: the SDK's errors and tool errors that quote what
// the client sent (a wrong argument, an unknown tool) go out with the
// secrets in them redacted, the code kept; a tool's result is left as it
// is, byte for byte.
func TestRedactResponse(t *testing.T) {
	const secret = "sk-live-abcdef1234567890"
	id := intID(7)
	wrapped := fmt.Errorf("calling tool: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `unknown tool "api_key=` + secret + `"`, Data: json.RawMessage(`{"arg":"api_key=` + secret + `"}`)})
	toolErr := json.RawMessage(`{"content":[{"type":"text","text":"validating /properties/where: type: api_key=` + secret + ` has type \"string\""}],"isError":true}`)
	result := json.RawMessage(`{"content":[{"type":"text","text":"ok <b>api_key=` + secret + `</b>"}],"structuredContent":{"n":1}}`)
	for _, tt := range []struct {
		name string
		in   *jsonrpc.Response
		want string
	}{
		{"error", &jsonrpc.Response{ID: id, Error: wrapped},
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"calling tool: unknown tool \"api_key=<redacted>\""}}`},
		{"tool error", &jsonrpc.Response{ID: id, Result: toolErr},
			`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"validating /properties/where: type: api_key=<redacted> has type \"string\""}],"isError":true}}`},
		{"result", &jsonrpc.Response{ID: id, Result: result}, `{"jsonrpc":"2.0","id":7,"result":` + string(result) + `}`},
		{"no code", &jsonrpc.Response{ID: id, Error: errors.New(`method "tools/call" is invalid during session initialization`)},
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"method \"tools/call\" is invalid during session initialization"}}`},
	} {
		b, err := jsonrpc.EncodeMessage(redactResponse(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, b, tt.want)
		}
	}
}
