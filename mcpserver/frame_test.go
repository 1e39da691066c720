package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/mcpserver"
)

// replyWait bounds the wait for one answer (a hung server fails the test
// instead of hanging it).
const replyWait = 30 * time.Second

// tap sits between an SDK client and a server on a pair of streams: the
// test writes raw frames into the server's input between the client's,
// and the server's answers to them (ids starting "raw-", null ids, and
// arrays) come to the test, the others to the client.
type tap struct {
	t   *testing.T
	wmu sync.Mutex
	w   io.Writer // the server's input
	raw chan []byte
	cs  *mcp.ClientSession
}

// lockedWriter writes one message at a time into the server's input.
type lockedWriter struct{ tp *tap }

func (l lockedWriter) Write(b []byte) (int, error) {
	l.tp.wmu.Lock()
	defer l.tp.wmu.Unlock()
	return l.tp.w.Write(b)
}

func (lockedWriter) Close() error { return nil }

// newTap connects an SDK client to the server reading w and writing r.
func newTap(t *testing.T, w io.Writer, r io.Reader) *tap {
	tp := &tap{t: t, w: w, raw: make(chan []byte, 16)}
	pr, pw := io.Pipe()
	go func() {
		defer pw.Close()
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				if forTest(line) {
					tp.raw <- bytes.TrimSpace(line)
				} else if _, err := pw.Write(line); err != nil {
					return
				}
			}
			if err != nil {
				close(tp.raw)
				return
			}
		}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: pr, Writer: lockedWriter{tp}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tp.cs = cs
	return tp
}

// forTest reports whether a line of the server's is an answer to a raw
// frame of the test's.
func forTest(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		return true
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return true // not JSON: the test must see it
	}
	return string(m.ID) == "null" || bytes.HasPrefix(m.ID, []byte(`"raw-`))
}

// send writes a raw frame (it must end its line).
func (tp *tap) send(frame []byte) {
	tp.t.Helper()
	tp.wmu.Lock()
	defer tp.wmu.Unlock()
	if _, err := tp.w.Write(frame); err != nil {
		tp.t.Fatalf("writing a frame: %v", err)
	}
}

// next is the server's next answer to a raw frame.
func (tp *tap) next() []byte {
	tp.t.Helper()
	select {
	case b, ok := <-tp.raw:
		if !ok {
			tp.t.Fatal("the server closed its output")
		}
		return b
	case <-time.After(replyWait):
		tp.t.Fatal("no answer")
	}
	return nil
}

// none checks that no answer to a raw frame is pending.
func (tp *tap) none() {
	tp.t.Helper()
	select {
	case b := <-tp.raw:
		tp.t.Errorf("unexpected answer %.300s", b)
	default:
	}
}

// reply is one JSON-RPC answer.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// frameCase is a malformed (or odd) frame and how it must be answered:
// with error code (0: a result), for id ("null" for none), once per
// element of want; none when the frame gets no answer.
type frameCase struct {
	name  string
	frame []byte
	want  []want
}

type want struct {
	id   string
	code int
}

func answered(id string, code int) []want { return []want{{id, code}} }

const (
	parseError     = -32700
	invalidRequest = -32600
	notFound       = -32601
	invalidParams  = -32602
	toolError      = 1 // a result with isError
	result         = 0 // a result
)

// frameCases are the malformed frames of the tests: each but the last
// few is answered.
func frameCases() []frameCase {
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":"` + id + `","method":"ping"` }
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	big := func() []byte {
		b := []byte(ping("raw-big") + `,"params":{"x":"`)
		b = append(b, bytes.Repeat([]byte("a"), 64<<20)...)
		return append(b, `"}}`+"\n"...)
	}
	cs := []frameCase{
		{"not json", []byte("not json\n"), answered("null", parseError)},
		{"empty array", []byte("[]\n"), answered("null", invalidRequest)},
		{"no method", []byte(`{"jsonrpc":"2.0","id":"raw-nomethod"}` + "\n"), answered(`"raw-nomethod"`, invalidRequest)},
		{"jsonrpc 1.0", []byte(`{"jsonrpc":"1.0","id":"raw-v1","method":"ping"}` + "\n"), answered(`"raw-v1"`, invalidRequest)},
		{"no jsonrpc", []byte(`{"id":"raw-nov","method":"ping"}` + "\n"), answered(`"raw-nov"`, invalidRequest)},
		{"jsonrpc number", []byte(`{"jsonrpc":2.0,"id":"raw-vnum","method":"ping"}` + "\n"), answered(`"raw-vnum"`, invalidRequest)},
		{"NUL bytes", []byte("\x00\x00\x00\n"), answered("null", parseError)},
		{"NUL in a string", []byte(ping("raw-nul") + `,"params":{"x":"a` + "\x00" + `b"}}` + "\n"), answered("null", parseError)},
		{"invalid UTF-8", []byte(ping("raw-utf8") + `,"params":{"x":"` + "\xff\xfe" + `"}}` + "\n"), answered(`"raw-utf8"`, parseError)},
		{"byte order mark", []byte("\xef\xbb\xbf" + ping("raw-bom") + "}\n"), answered("null", parseError)},
		{"nesting past the limit", []byte(ping("raw-deep") + `,"params":{"x":` + deep(100) + "}}\n"), answered(`"raw-deep"`, invalidRequest)},
		{"nesting of 5000", []byte(deep(5000) + "\n"), answered("null", invalidRequest)},
		{"nesting of 100000", []byte(ping("raw-deeper") + `,"params":{"x":` + deep(100000) + "}}\n"), answered(`"raw-deeper"`, invalidRequest)}, // past encoding/json's own limit
		{"64 MiB line", big(), answered(`"raw-big"`, invalidRequest)},
		{"unknown method", []byte(`{"jsonrpc":"2.0","id":"raw-unknown","method":"no/such"}` + "\n"), answered(`"raw-unknown"`, notFound)},
		{"empty method", []byte(`{"jsonrpc":"2.0","id":"raw-emptym","method":""}` + "\n"), answered(`"raw-emptym"`, notFound)},
		{"method a number", []byte(`{"jsonrpc":"2.0","id":"raw-mnum","method":5}` + "\n"), answered(`"raw-mnum"`, invalidRequest)},
		{"params a number", []byte(`{"jsonrpc":"2.0","id":"raw-pnum","method":"tools/call","params":5}` + "\n"), answered(`"raw-pnum"`, invalidRequest)},
		{"params an array", []byte(`{"jsonrpc":"2.0","id":"raw-parr","method":"tools/call","params":[1]}` + "\n"), answered(`"raw-parr"`, invalidParams)},
		{"tool name a number", []byte(`{"jsonrpc":"2.0","id":"raw-tnum","method":"tools/call","params":{"name":5}}` + "\n"), answered(`"raw-tnum"`, invalidParams)},
		{"unknown tool", []byte(`{"jsonrpc":"2.0","id":"raw-tool","method":"tools/call","params":{"name":"nosuch"}}` + "\n"), answered(`"raw-tool"`, invalidParams)},
		{"arguments a number", []byte(`{"jsonrpc":"2.0","id":"raw-anum","method":"tools/call","params":{"name":"trials","arguments":5}}` + "\n"), answered(`"raw-anum"`, toolError)},
		{"argument of the wrong type", []byte(`{"jsonrpc":"2.0","id":"raw-atype","method":"tools/call","params":{"name":"trials","arguments":{"study":5}}}` + "\n"), answered(`"raw-atype"`, toolError)},
		{"ping params wrong", []byte(ping("raw-meta") + `,"params":{"_meta":5}}` + "\n"), answered(`"raw-meta"`, invalidParams)},
		{"list cursor wrong", []byte(`{"jsonrpc":"2.0","id":"raw-cursor","method":"tools/list","params":{"cursor":5}}` + "\n"), answered(`"raw-cursor"`, invalidParams)},
		{"batch of requests", []byte("[" + ping("raw-b1") + "}," + ping("raw-b2") + "}]\n"), []want{{`"raw-b1"`, invalidRequest}, {`"raw-b2"`, invalidRequest}}},
		{"batch of scalars", []byte("[1,2]\n"), []want{{"null", invalidRequest}, {"null", invalidRequest}}},
		{"a number", []byte("42\n"), answered("null", invalidRequest)},
		{"a string", []byte(`"ping"` + "\n"), answered("null", invalidRequest)},
		{"null", []byte("null\n"), answered("null", invalidRequest)},
		{"true", []byte("true\n"), answered("null", invalidRequest)},
		{"id null", []byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n"), answered("null", invalidRequest)},
		{"id an object", []byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n"), answered("null", invalidRequest)},
		{"id fractional", []byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n"), answered("null", invalidRequest)},
		{"id past 2^53", []byte(`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n"), answered("null", invalidRequest)},
		{"member twice", []byte(ping("raw-twice") + `,"method":"tools/list"}` + "\n"), answered(`"raw-twice"`, invalidRequest)},
		// A proxy or an approval screen may read the first of two names; the
		// SDK runs the last: refused at any depth.
		{"tool name twice", []byte(`{"jsonrpc":"2.0","id":"raw-name2","method":"tools/call","params":{"name":"trials","name":"front","arguments":{}}}` + "\n"), answered(`"raw-name2"`, invalidRequest)},
		{"argument twice", []byte(`{"jsonrpc":"2.0","id":"raw-arg2","method":"tools/call","params":{"name":"archive","arguments":{"study":"s","revoke":"key:00","revoke":""}}}` + "\n"), answered(`"raw-arg2"`, invalidRequest)},
		{"deep member twice", []byte(`{"jsonrpc":"2.0","id":"raw-deep2","method":"tools/call","params":{"name":"front","arguments":{"x":[{"a":1,"a":2}]}}}` + "\n"), answered(`"raw-deep2"`, invalidRequest)},
		{"member names in capitals", []byte(`{"JSONRPC":"2.0","ID":"raw-caps","METHOD":"ping"}` + "\n"), answered("null", invalidRequest)},
		{"trailing data", []byte(ping("raw-trail") + "} x\n"), answered("null", parseError)},
		{"two objects on a line", []byte(ping("raw-two") + "}" + ping("raw-two2") + "}\n"), answered("null", parseError)},
		{"truncated", []byte(`{"jsonrpc":"2.0","id":"raw-trunc","method":"pi` + "\n"), answered("null", parseError)},
		{"response with result and error", []byte(`{"jsonrpc":"2.0","id":"raw-both","result":{},"error":{"code":1,"message":"x"}}` + "\n"), answered("null", invalidRequest)}, // a response's id is the server's, not the client's
		{"error not an object", []byte(`{"jsonrpc":"2.0","id":"raw-errnum","error":5}` + "\n"), answered("null", invalidRequest)},
		{"notification params a string", []byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}` + "\n"), answered("null", invalidRequest)},
		{"initialize again", []byte(`{"jsonrpc":"2.0","id":"raw-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n"), nil},
		// Frames without an answer: notifications, blank lines.
		{"notification with bad params", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}` + "\n"), nil},
		{"batch of notifications", []byte(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n"), nil},
		{"blank line", []byte(" \r\n"), nil},
	}
	for i := range cs {
		if cs[i].name == "initialize again" {
			cs[i].want = []want{{`"raw-init"`, -1}} // any error
		}
	}
	return cs
}

// checkAnswer checks the answer b to frame case c.
func checkAnswer(t *testing.T, c frameCase, b []byte) {
	t.Helper()
	var rs []reply
	if len(b) > 0 && b[0] == '[' {
		if err := json.Unmarshal(b, &rs); err != nil {
			t.Fatalf("%s: answer %.300s: %v", c.name, b, err)
		}
	} else {
		var r reply
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: answer %.300s: %v", c.name, b, err)
		}
		rs = []reply{r}
	}
	if len(rs) != len(c.want) {
		t.Fatalf("%s: %d answers, want %d: %.300s", c.name, len(rs), len(c.want), b)
	}
	for i, w := range c.want {
		r := rs[i]
		if string(r.ID) != w.id {
			t.Errorf("%s: answer for id %s, want %s: %.300s", c.name, r.ID, w.id, b)
		}
		switch {
		case w.code == result || w.code == toolError:
			var res struct {
				IsError bool `json:"isError"`
			}
			json.Unmarshal(r.Result, &res)
			if r.Error != nil || r.Result == nil || res.IsError != (w.code == toolError) {
				t.Errorf("%s: %.300s, want a result (tool error %v)", c.name, b, w.code == toolError)
			}
		case r.Error == nil:
			t.Errorf("%s: %.300s, want error %d", c.name, b, w.code)
		case w.code != -1 && r.Error.Code != w.code:
			t.Errorf("%s: error %d %q, want %d", c.name, r.Error.Code, r.Error.Message, w.code)
		case r.Error.Message == "":
			t.Errorf("%s: an error without a message", c.name)
		}
	}
}

// runFrameCases sends every frame case through tp, checking each answer
// and that the client's session still works after it; at the end a tool
// call works.
func runFrameCases(t *testing.T, tp *tap, db string) {
	answeredCases := 0
	for _, c := range frameCases() {
		tp.send(c.frame)
		if len(c.want) > 0 {
			checkAnswer(t, c, tp.next())
			answeredCases++
		}
		if err := tp.cs.Ping(t.Context(), nil); err != nil {
			t.Fatalf("after %s: ping: %v", c.name, err)
		}
		tp.none()
	}
	if answeredCases < 30 {
		t.Errorf("%d malformed frame forms answered, want at least 30", answeredCases)
	}
	res, err := tp.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "trials", Arguments: map[string]any{"study": "tune"}})
	if err != nil || res.IsError {
		t.Fatalf("trials after the malformed frames: %v %v", err, res)
	}
	var out struct {
		Trials []json.RawMessage `json:"trials"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(b, &out); len(out.Trials) == 0 {
		t.Errorf("trials after the malformed frames: %s", b)
	}
}

// TestMalformedFramesStdio runs pareto mcp as a subprocess with an SDK
// client on its standard input and output, and writes every malformed
// frame form between the client's: each is answered, the session goes on,
// and a tool call works at the end.
func TestMalformedFramesStdio(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	ingestDecide(t, db)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "mcp", "--store", db)
	cmd.Env = append(os.Environ(), "PARETO_MCP_TEST_MAIN=1")
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tp := newTap(t, stdin, stdout)
	runFrameCases(t, tp, db)
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("pareto mcp: %v\n%s", err, stderr.String())
		}
	case <-time.After(replyWait):
		t.Error("pareto mcp did not end when its input closed")
	}
}

// TestMalformedFramesInProcess is TestMalformedFramesStdio on an
// in-process server (FrameTransport over pipes).
func TestMalformedFramesInProcess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	ingestDecide(t, db)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := newServer(t, db)
	done := make(chan error, 1)
	go func() { done <- srv.Run(t.Context(), frameTransport(inR, outW)) }()
	tp := newTap(t, inW, outR)
	runFrameCases(t, tp, db)
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server: %v", err)
		}
	case <-time.After(replyWait):
		t.Error("the server did not end when its input closed")
	}
}

// newServer is a server on store db whose roots are the repository and
// the test's temporary directories.
func newServer(t *testing.T, db string) *mcp.Server {
	t.Helper()
	srv, err := mcpserver.New(mcpserver.Options{Store: db, Roots: []string{"..", filepath.Dir(t.TempDir())}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func frameTransport(r io.Reader, w io.Writer) *mcpserver.FrameTransport {
	return &mcpserver.FrameTransport{Reader: r, Writer: w}
}
