package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNULRejected lists inputs whose names or values hold a NUL byte, in
// every shape a reader meets one (a JSON escape in a real vLLM result and
// a generic JSONL table, a raw byte past the binary sniff in a CSV table),
// and the positioned error each gives: the same whatever store the trials
// were for (SQLite would keep the NUL, PostgreSQL refuses it).
func TestNULRejected(t *testing.T) {
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json")
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("p", 600) // past the binary sniff of the first 512 bytes
	for _, tt := range []struct {
		name, data string
		table      bool
		want       string
	}{
		{"vllm.json", strings.Replace(string(vllm), `"model_id": "meta-llama/`, `"model_id": "meta-llama/\u0000`, 1), false,
			`vllm.json:1:61: label "model" value "meta-llama/\x00Llama-3.3-70B-Instruct" holds a NUL byte, which no store keeps`},
		{"t.jsonl", "{\"id\": \"a\", \"engine\": \"vllm\", \"ttft\": 1}\n{\"id\": \"b\", \"engine\": \"sg\\u0000lang\", \"ttft\": 2}\n", true,
			`t.jsonl:2:24: parameter "engine" value "sg\x00lang" holds a NUL byte, which no store keeps`},
		{"t.csv", "id,ttft,note\na,1," + pad + "\nb,2,x\x00y\n", true,
			`t.csv:3:5: parameter "note" value "x\x00y" holds a NUL byte, which no store keeps`},
		{"lead.jsonl", "{\"id\": \"a\", \"engine\": \"\\u0000\", \"ttft\": 1}\n", true,
			`lead.jsonl: trial 1: parameter "engine" value "\x00" holds a NUL byte, which no store keeps`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.table {
				_, err = ReadTable([]byte(tt.data), tt.name, TableOptions{})
			} else {
				_, err = ReadBytes([]byte(tt.data), tt.name)
			}
			if !errors.Is(err, ErrNUL) || err.Error() != tt.want {
				t.Errorf("reading %s: %v\nwant %s", tt.name, err, tt.want)
			}
		})
	}
}

// TestNULRejectedStreamed: a file read as a stream (over StreamThreshold)
// is checked for NUL bytes when any of its bytes may give one (a NUL, or
// a backslash that may escape one), however far in it is; a stream with
// neither gives its trials unchecked.
func TestNULRejectedStreamed(t *testing.T) {
	data, err := os.ReadFile("testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var b strings.Builder
	for b.Len() <= StreamThreshold {
		b.WriteString(lines[b.Len()%len(lines)] + "\n")
	}
	clean := b.String()
	n := strings.Count(clean, "\n")
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		want       string // error text; "" for n trials
	}{
		{"clean.jsonl", clean, ""},
		{"escape.jsonl", clean + strings.Replace(lines[0], `"backend": "sglang"`, `"backend": "sg\u0000lang"`, 1) + "\n",
			`parameter "backend" value "sg\x00lang" holds a NUL byte`},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		ts, err := ReadFile(p)
		switch {
		case c.want == "" && (err != nil || len(ts) != n):
			t.Errorf("%s: %d trials, %v; want %d", c.name, len(ts), err, n)
		case c.want != "" && (!errors.Is(err, ErrNUL) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want %s", c.name, err, c.want)
		}
	}
}
