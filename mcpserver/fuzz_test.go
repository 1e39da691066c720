package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/mcpserver"
)

// requestID is the id of line when it is a well-formed JSON-RPC request
// with an id (decided here independently of the server's decoder), and
// false otherwise.
func requestID(line []byte) (string, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || len(line) > mcpserver.DefaultMaxFrame || !utf8.Valid(line) || !json.Valid(line) || line[0] != '{' {
		return "", false
	}
	d := 0
	for _, c := range line { // an over-estimate of the depth is fine: such frames are skipped
		if c == '{' || c == '[' {
			d++
		}
	}
	if d > mcpserver.DefaultMaxDepth {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.Token()
	m := map[string]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if _, dup := m[k.(string)]; dup {
			return "", false
		}
		m[k.(string)] = v
	}
	var method string
	if string(m["jsonrpc"]) != `"2.0"` || json.Unmarshal(m["method"], &method) != nil {
		return "", false
	}
	if p := m["params"]; len(p) > 0 && p[0] != '{' && p[0] != '[' && string(p) != "null" {
		return "", false
	}
	id := m["id"]
	switch {
	case len(id) > 0 && id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return "", false
		}
		return "s:" + s, true
	case len(id) > 0:
		n, err := strconv.ParseInt(string(id), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return "", false
		}
		return "n:" + strconv.FormatInt(n, 10), true
	}
	return "", false
}

// canonID is an answer's id in requestID's form ("" for null).
func canonID(raw json.RawMessage) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return "s:" + v
	case json.Number:
		return "n:" + v.String()
	}
	return ""
}

// fuzzWait bounds the wait for an answer in FuzzFrames.
const fuzzWait = 10 * time.Second

// FuzzFrames writes frames (the input's lines) to a server after
// initialize: the server never exits or panics, answers a ping after
// them, and answers every request with an id once (none when the input
// may have cancelled it), and not more often than the frames holding the
// id.
func FuzzFrames(f *testing.F) {
	for _, c := range frameCases() {
		if len(c.frame) < 1<<20 {
			f.Add(c.frame)
		}
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":7,"method":"ping"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"front","arguments":{"files":["/etc/passwd"],"objectives":["x"]}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		dir := t.TempDir()
		srv, err := mcpserver.New(mcpserver.Options{Store: filepath.Join(dir, "s.db"), Roots: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- srv.Run(t.Context(), &mcpserver.FrameTransport{Reader: inR, Writer: outW})
			outW.Close()
		}()
		defer inW.Close()
		// Answers are counted as they come, so that the server never
		// waits for the test to read.
		var mu sync.Mutex
		counts := map[string]int{}
		tick := make(chan struct{}, 1)
		closed := make(chan struct{})
		go func() {
			defer close(closed)
			br := bufio.NewReader(outR)
			for {
				l, err := br.ReadBytes('\n')
				mu.Lock()
				countIDs(l, counts)
				mu.Unlock()
				select {
				case tick <- struct{}{}:
				default:
				}
				if err != nil {
					return
				}
			}
		}()
		count := func(id string) int {
			mu.Lock()
			defer mu.Unlock()
			return counts[id]
		}
		wq := make(chan []byte, 8)
		go func() {
			for b := range wq {
				if _, err := inW.Write(b); err != nil {
					return
				}
			}
		}()
		defer close(wq)
		write := func(b []byte) { wq <- b }
		// wait waits for n answers with id (requests run concurrently: a
		// repeated id's second answer may come after a later ping's).
		wait := func(id string, n int) {
			t.Helper()
			deadline := time.After(fuzzWait)
			for count(id) < n {
				select {
				case <-tick:
				case <-closed:
					t.Fatalf("the server closed its output: %v", <-done)
				case err := <-done:
					t.Fatalf("the server ended: %v", err)
				case <-deadline:
					t.Fatalf("%d answers for %s, want %d", count(id), id, n)
				}
			}
		}
		write([]byte(`{"jsonrpc":"2.0","id":"fz-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}` + "\n"))
		wait("s:fz-init", 1)
		write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
		want := map[string]int{}
		for _, l := range bytes.Split(in, []byte("\n")) {
			if id, ok := requestID(l); ok {
				if strings.HasPrefix(id, "s:fz-") {
					t.Skip("the input uses the test's ids")
				}
				want[id]++
			}
		}
		write(append(bytes.TrimRight(in, "\n"), '\n'))
		write([]byte(`{"jsonrpc":"2.0","id":"fz-end","method":"ping"}` + "\n"))
		wait("s:fz-end", 1)
		cancels := bytes.Contains(in, []byte("notifications/cancelled"))
		for id, n := range want {
			if cancels {
				n = 1 // a cancelled request may go unanswered
			}
			wait(id, n)
		}
		write([]byte(`{"jsonrpc":"2.0","id":"fz-end2","method":"ping"}` + "\n"))
		wait("s:fz-end2", 1)
		// Other frames (a request without a method, a batch) may be
		// answered with their id too: at most once per "id" they hold.
		others := bytes.Count(in, []byte(`id`))
		for _, n := range want {
			others -= n
		}
		for id, n := range want {
			c := count(id)
			if c > n+others || c < n && !cancels {
				t.Errorf("id %s: %d answers, want %d (and up to %d for other frames)", id, c, n, others)
			}
		}
	})
}

// countIDs counts the answers of line (one, or a batch's) by id.
func countIDs(line []byte, counts map[string]int) {
	var rs []reply
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
		json.Unmarshal(line, &rs)
	} else {
		var r reply
		if json.Unmarshal(line, &r) == nil {
			rs = []reply{r}
		}
	}
	for _, r := range rs {
		if r.Result != nil || r.Error != nil {
			counts[canonID(r.ID)]++
		}
	}
}
