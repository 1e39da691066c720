package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/trial"
)

// Frame limits of a FrameTransport (zero fields of FrameTransport).
const (
	// DefaultMaxFrame is the longest frame (one line, without its newline)
	// the server reads: a longer one is answered with an error and
	// discarded as it is read, never held whole.
	DefaultMaxFrame = 4 << 20
	// DefaultMaxDepth is the deepest nesting of objects and arrays a frame
	// may have.
	DefaultMaxDepth = 64
)

// idPrefix is how much of an over-long frame is kept to find its id.
const idPrefix = 4096

// A FrameTransport is an mcp.Transport over newline-delimited JSON-RPC
// frames (the MCP stdio transport) that answers every malformed frame
// itself and goes on reading, where the SDK's IOTransport ends the session
// on the first one. A frame that is not JSON (invalid UTF-8, NUL bytes,
// truncated) is answered with a parse error (-32700); one that is JSON but
// no JSON-RPC message (an array, a scalar, a missing or wrong "jsonrpc",
// an id that is neither a string nor an integer, a method that is not a
// string, a request without a method, nesting deeper than MaxDepth, a line
// longer than MaxFrame) with an invalid request error (-32600). The reply
// carries the frame's id when one can be read, else null. JSON-RPC batches
// are answered with an array of invalid request errors, one per element
// that is a request or invalid (MCP 2025-06-18 removed batching). A
// request reusing the id of one still in progress is refused the same way.
// Well-formed messages go to the server, which answers unknown methods
// (-32601) and bad parameters (-32602) itself. When the input ends, the
// session ends once every request read has been answered.
type FrameTransport struct {
	// Reader and Writer are the client's frames and the server's.
	Reader io.Reader
	Writer io.Writer
	// MaxFrame bounds a frame's length in bytes (0: DefaultMaxFrame).
	MaxFrame int
	// MaxDepth bounds a frame's nesting (0: DefaultMaxDepth).
	MaxDepth int
}

// Connect implements mcp.Transport.
func (t *FrameTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &frameConn{
		w:        t.Writer,
		maxFrame: t.MaxFrame,
		maxDepth: t.MaxDepth,
		in:       make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		inFlight: map[jsonrpc.ID]bool{},
	}
	if c.maxFrame <= 0 {
		c.maxFrame = DefaultMaxFrame
	}
	if c.maxDepth <= 0 {
		c.maxDepth = DefaultMaxDepth
	}
	go c.readLoop(bufio.NewReaderSize(t.Reader, 64<<10))
	return c, nil
}

// frameConn is a FrameTransport's connection.
type frameConn struct {
	w        io.Writer
	wmu      sync.Mutex
	maxFrame int
	maxDepth int

	in      chan jsonrpc.Message // well-formed messages, for Read
	readErr error                // why reading stopped, set before in is closed

	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	inFlight map[jsonrpc.ID]bool // ids of calls handed to the server, not yet answered
	pending  int                 // calls handed to the server whose answer is not written yet
	idle     chan struct{}       // closed when pending drops to 0 (made by drained)
}

// SessionID implements mcp.Connection (stdio has none).
func (c *frameConn) SessionID() string { return "" }

// Read implements mcp.Connection: the next well-formed message.
func (c *frameConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case m, ok := <-c.in:
		if !ok {
			return nil, c.drained(ctx)
		}
		return m, nil
	}
}

// drained waits, once the input has ended, until every call handed to
// the server is answered (the session ends when Read fails, and would
// cancel them), and returns why reading stopped.
func (c *frameConn) drained(ctx context.Context) error {
	for {
		c.mu.Lock()
		if c.pending == 0 {
			c.mu.Unlock()
			return c.readErr
		}
		if c.idle == nil {
			c.idle = make(chan struct{})
		}
		idle := c.idle
		c.mu.Unlock()
		select {
		case <-idle:
		case <-c.closed:
			return io.EOF
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write implements mcp.Connection.
func (c *frameConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := m.(*jsonrpc.Response); ok {
		m = redactResponse(r)
	}
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	if r, ok := m.(*jsonrpc.Response); ok && r.ID.IsValid() {
		// The id is free before the answer is out (the client may reuse it
		// as soon as it reads the answer); the call is pending until then.
		c.mu.Lock()
		answering := c.inFlight[r.ID]
		delete(c.inFlight, r.ID)
		c.mu.Unlock()
		err := c.writeLine(b)
		if answering {
			c.mu.Lock()
			if c.pending--; c.pending == 0 && c.idle != nil {
				close(c.idle)
				c.idle = nil
			}
			c.mu.Unlock()
		}
		return err
	}
	return c.writeLine(b)
}

// redactResponse returns r with the secrets its error, or the text of its
// tool error, quotes replaced (trial.RedactText), and an error without a
// code given -32600 (invalid request). The tools' own errors are
// redacted where they are made; the SDK's are not (an argument of the
// wrong type or an unknown one, an unknown tool, params that do not
// decode: checked before a tool runs), and they repeat what the client
// sent.
func redactResponse(r *jsonrpc.Response) *jsonrpc.Response {
	out := *r
	if r.Error != nil {
		we := &jsonrpc.Error{Message: r.Error.Error()}
		if w := (*jsonrpc.Error)(nil); errors.As(r.Error, &w) {
			we.Code = w.Code
			if len(trial.Secrets(string(w.Data))) == 0 {
				we.Data = w.Data
			}
		}
		if we.Code == 0 { // the SDK's session-state errors (a call before initialize, initialize twice) have none
			we.Code = jsonrpc.CodeInvalidRequest
		}
		we.Message = trial.RedactText(we.Message)
		out.Error = we
	}
	if bytes.Contains(r.Result, []byte(`"isError":true`)) {
		var res map[string]json.RawMessage
		var content []map[string]json.RawMessage
		if json.Unmarshal(r.Result, &res) != nil || string(res["isError"]) != "true" || json.Unmarshal(res["content"], &content) != nil {
			return &out
		}
		for _, c := range content { // each text replaced where it stands: the rest keeps its bytes
			var text string
			if raw := c["text"]; json.Unmarshal(raw, &text) == nil {
				if red := trial.RedactText(text); red != text {
					out.Result = bytes.ReplaceAll(out.Result, raw, marshalText(red))
				}
			}
		}
	}
	return &out
}

// marshalText encodes the string v as the SDK does (no HTML escapes:
// "<redacted>" stays as it reads).
func marshalText(v string) json.RawMessage {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Close implements mcp.Connection. It stops Read; a read of the
// underlying reader in progress ends with the process (standard input
// cannot be interrupted).
func (c *frameConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *frameConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// readLoop reads frames until the reader ends, answering the malformed
// ones and handing the others to Read.
func (c *frameConn) readLoop(r *bufio.Reader) {
	var buf []byte
	for {
		line, over, err := readFrame(r, buf[:0], c.maxFrame)
		if over {
			c.reply(recoverID(line), jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("invalid request: frame longer than %d bytes (discarded)", c.maxFrame))
		} else if len(line) > 0 {
			if m := c.frame(line); m != nil && !c.deliver(m) {
				return
			}
		}
		if cap(line) <= 1<<20 {
			buf = line // reuse a small buffer; let a large one go
		} else {
			buf = nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.readErr = err
			close(c.in)
			return
		}
	}
}

// deliver hands m to Read; false when the connection is closed.
func (c *frameConn) deliver(m jsonrpc.Message) bool {
	select {
	case c.in <- m:
		return true
	case <-c.closed:
		return false
	}
}

// readFrame reads one line into buf (without its line ending). A line
// longer than max is read to its end and dropped: over is true and line
// holds its first idPrefix bytes. err is the reader's (io.EOF at the end),
// with the last line, if any, in line.
func readFrame(r *bufio.Reader, buf []byte, max int) (line []byte, over bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !over {
			buf = append(buf, chunk...)
			if len(bytes.TrimRight(buf, "\r\n")) > max {
				over = true
				buf = buf[:min(len(buf), idPrefix)]
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), over, err
	}
}

// frame decodes one line: a message for the server, or nil when the line
// was answered here (or is blank).
func (c *frameConn) frame(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !utf8.Valid(line) {
		c.reply(recoverID(line), jsonrpc.CodeParseError, "parse error: the frame is not valid UTF-8")
		return nil
	}
	if depth(line) > c.maxDepth { // before the syntax: encoding/json gives up past 10,000 levels
		c.reply(recoverID(line), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("invalid request: nesting deeper than %d levels", c.maxDepth))
		return nil
	}
	if err := syntaxError(line); err != nil {
		c.reply(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: "+err.Error())
		return nil
	}
	switch line[0] {
	case '[':
		c.batch(line)
		return nil
	case '{':
	default:
		c.reply(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object")
		return nil
	}
	m, id, err := decodeMessage(line)
	if err != nil {
		c.reply(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		busy := c.inFlight[req.ID]
		if !busy {
			c.inFlight[req.ID] = true
			c.pending++
		}
		c.mu.Unlock()
		if busy {
			c.reply(req.ID, jsonrpc.CodeInvalidRequest, "invalid request: the id is that of a request still in progress")
			return nil
		}
	}
	return m
}

// batch answers a JSON-RPC batch: one invalid request error per element
// that is a request or invalid, none for notifications and responses.
func (c *frameConn) batch(line []byte) {
	const msg = "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them): send one message per line"
	var elems []json.RawMessage
	if err := json.Unmarshal(line, &elems); err != nil || len(elems) == 0 {
		c.reply(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")
		return
	}
	var replies []json.RawMessage
	for _, e := range elems {
		m, id, err := decodeMessage(e)
		switch {
		case err != nil:
			replies = append(replies, errorReply(id, jsonrpc.CodeInvalidRequest, msg))
		case isCall(m):
			replies = append(replies, errorReply(m.(*jsonrpc.Request).ID, jsonrpc.CodeInvalidRequest, msg))
		}
	}
	if len(replies) == 0 {
		return
	}
	b, _ := json.Marshal(replies)
	c.writeLine(b)
}

func isCall(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsCall()
}

// reply writes an error response with id (null when not valid).
func (c *frameConn) reply(id jsonrpc.ID, code int64, msg string) {
	c.writeLine(errorReply(id, code, msg))
}

// errorReply is a JSON-RPC error response; its id is null when id is not
// valid (the SDK's encoder leaves such an id out, JSON-RPC wants null).
func errorReply(id jsonrpc.ID, code int64, msg string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", encodeID(id), jsonrpc.Error{Code: code, Message: msg}})
	return b
}

func encodeID(id jsonrpc.ID) json.RawMessage {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(nil, v, 10)
	case string:
		b, _ := json.Marshal(v)
		return b
	}
	return json.RawMessage("null")
}

// syntaxError is why line is not one JSON value, with the byte offset.
func syntaxError(line []byte) error {
	if json.Valid(line) {
		return nil
	}
	var v json.RawMessage
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s (byte %d)", se.Error(), se.Offset)
	}
	if err == nil {
		return errors.New("not one JSON value")
	}
	return err
}

// depth is the deepest nesting of objects and arrays in the JSON value b.
func depth(b []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// decodeMessage decodes a JSON-RPC message object, checking what the
// SDK's decoder lets through: member names match exactly and once,
// "jsonrpc" is "2.0", an id is a string or an integer, a method a string,
// params an object or an array, and a response has an id and a result or
// an error. On an error, id is the message's id when it could be read.
func decodeMessage(b []byte) (m jsonrpc.Message, id jsonrpc.ID, err error) {
	members, err := objectMembers(b)
	if err != nil {
		return nil, recoverID(b), err
	}
	if raw, ok := members["id"]; ok {
		if id, err = parseID(raw); err != nil {
			return nil, jsonrpc.ID{}, err
		}
	}
	if v, ok := members["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, id, errors.New(`"jsonrpc" must be "2.0"`)
	}
	params := members["params"]
	if len(params) > 0 && params[0] != '{' && params[0] != '[' && string(params) != "null" {
		return nil, id, errors.New(`"params" must be an object`)
	}
	if string(params) == "null" {
		params = nil
	}
	if err := uniqueNames(params); err != nil {
		return nil, id, fmt.Errorf(`"params": %w`, err)
	}
	if raw, ok := members["method"]; ok {
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return nil, id, errors.New(`"method" must be a string`)
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: params}, id, nil
	}
	result, hasResult := members["result"]
	rawErr, hasErr := members["error"]
	switch {
	case !id.IsValid():
		return nil, id, errors.New(`no "method" (a request) nor "id" (a response)`)
	case hasResult && hasErr:
		// A response, to a request of the server's: its id is none of the
		// client's, so the answer carries none (the client would take it
		// for the answer to its own request of that id).
		return nil, jsonrpc.ID{}, errors.New(`a response has "result" or "error", not both`)
	case !hasResult && !hasErr:
		return nil, id, errors.New(`no "method": a request needs one (a response has "result" or "error")`)
	case hasErr:
		var we jsonrpc.Error
		if err := json.Unmarshal(rawErr, &we); err != nil || rawErr[0] != '{' {
			return nil, jsonrpc.ID{}, errors.New(`"error" must be an object with "code" and "message"`)
		}
		return &jsonrpc.Response{ID: id, Error: &we}, id, nil
	}
	return &jsonrpc.Response{ID: id, Result: result}, id, nil
}

// objectMembers splits a JSON object into its members, refusing a name
// given twice (decoders disagree on which one wins).
func objectMembers(b []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("a JSON-RPC message is a JSON object")
	}
	members := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := members[name]; dup {
			return nil, fmt.Errorf("member %q given twice", name)
		}
		members[name] = v
	}
	return members, nil
}

// uniqueNames fails when an object of v, at any depth, names a member
// twice: the tool the SDK runs and the arguments it reads would be the
// last ones, while a proxy or an approval screen may have shown the first.
func uniqueNames(v []byte) error {
	if len(v) == 0 {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(v)) // duplicate names are an error by default
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			return nil
		} else if err != nil {
			var se *jsontext.SyntacticError
			if errors.As(err, &se) && errors.Is(se.Err, jsontext.ErrDuplicateName) {
				return fmt.Errorf("member %s given twice", strings.TrimPrefix(string(se.JSONPointer), "/"))
			}
			return err
		}
	}
}

// parseID reads a request id: a string or an integer (MCP allows no null
// id, and a fractional one would be answered with another).
func parseID(raw json.RawMessage) (jsonrpc.ID, error) {
	const want = `"id" must be a string or an integer`
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, errors.New(want)
		}
		return stringID(s), nil
	case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxID || n < -maxID {
			return jsonrpc.ID{}, errors.New(want + " (of at most 2^53)")
		}
		return intID(n), nil
	}
	return jsonrpc.ID{}, errors.New(want)
}

// maxID is the largest integer id: the largest a float64 (the SDK's and
// most clients' number) holds exactly.
const maxID = 1 << 53

func stringID(s string) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(s)
	return id
}

func intID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

// recoverID finds the top-level id of a frame that could not be decoded
// (too long, too deep, not UTF-8) in as much of it as reads: the id when
// it comes before the damage, else none.
func recoverID(b []byte) jsonrpc.ID {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return jsonrpc.ID{}
	}
	var id jsonrpc.ID
	seen := false
	for {
		t, err := dec.Token()
		name, ok := t.(string)
		if err != nil || !ok {
			return id
		}
		if name == "id" {
			if seen {
				return jsonrpc.ID{} // twice: neither is the id
			}
			seen = true
			t, err := dec.Token()
			if err != nil {
				return id
			}
			switch v := t.(type) {
			case string:
				id = stringID(v)
			case json.Number:
				if n, err := strconv.ParseInt(v.String(), 10, 64); err == nil && n <= maxID && n >= -maxID {
					id = intID(n)
				}
			}
			if _, ok := t.(json.Delim); !ok {
				continue
			}
			return id // an object or array id: no id
		}
		if err := skipValue(dec); err != nil {
			return id
		}
	}
}

// skipValue reads past the next value of dec.
func skipValue(dec *json.Decoder) error {
	d := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			d++
		case json.Delim('}'), json.Delim(']'):
			d--
		}
		if d == 0 {
			return nil
		}
	}
}
