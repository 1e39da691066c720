package ingest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/trial"
)

// readWith reads the file at path as Load's readers do, through the
// jsontext readers only when slow, collecting the batches a streamed file
// hands on (reader.part) before the rest.
func readWith(path string, slow bool) ([]trial.Trial, error) {
	r := &reader{dec: jsontext.NewDecoder(emptyReader), names: map[string]string{}, blocks: map[blockKey]blockUnits{}, slow: slow}
	var all []trial.Trial
	r.part = func(ts []trial.Trial) error {
		all = append(all, ts...)
		return nil
	}
	ts, err := r.readFile(path)
	return append(all, ts...), err
}

// sameRead fails unless the scanner (fast) and the jsontext readers
// (slow) give the same trials and the same error.
func sameRead(t *testing.T, name string, fast, slow []trial.Trial, ferr, serr error) {
	t.Helper()
	if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
		t.Fatalf("%s: error %v, jsontext reader %v", name, ferr, serr)
	}
	if len(fast) != len(slow) {
		t.Fatalf("%s: %d trials, jsontext reader %d", name, len(fast), len(slow))
	}
	for i := range fast {
		if !reflect.DeepEqual(fast[i], slow[i]) {
			t.Fatalf("%s: trial %d differs\nfast %+v\nslow %+v", name, i, fast[i], slow[i])
		}
	}
}

// TestServingFastSameFiles: every JSON and JSONL file of testdata is read
// the same by the scanner (in memory) and by the jsontext readers, and the
// scanner reads the vLLM and SGLang files among them.
func TestServingFastSameFiles(t *testing.T) {
	read := 0
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fast, ferr := readBytesWith(bytes.Clone(data), p, false)
		slow, serr := readBytesWith(bytes.Clone(data), p, true)
		sameRead(t, p, fast, slow, ferr, serr)
		if f := Detect(data[:min(len(data), HeadSize)], p); servingFormat(f) && !needsRewrite(data) {
			r := newReader()
			if _, ok := readServingFast(data, &source{path: p, data: data}, f, r); ok {
				read++
			} else {
				t.Logf("%s: the scanner gave up", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 7 {
		t.Errorf("the scanner read %d vLLM and SGLang files of testdata, want at least 7", read)
	}
}

// TestServingFastSameStreamed: streamed files (over StreamThreshold) of
// vLLM and SGLang records, good and damaged past the first batches, are
// read the same by the scanner, which hands batches on and gives up where
// the file is unusual, and by the jsontext readers.
func TestServingFastSameStreamed(t *testing.T) {
	sg, err := os.ReadFile("testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	vl, err := os.ReadFile("testdata/synthetic/synthetic_vllm_bench_serve_append.json")
	if err != nil {
		t.Fatal(err)
	}
	sgLines := bytes.Split(bytes.TrimSpace(sg), []byte("\n"))
	vlLines := bytes.Split(bytes.TrimSpace(vl), []byte("\n"))
	sgl := func(i int) []byte { return sgLines[i%len(sgLines)] }
	vll := func(i int) []byte { return vlLines[i%len(vlLines)] }
	// at damages record 700 (past two batches) with edit
	at := func(rec func(int) []byte, edit func([]byte) []byte) func(int) []byte {
		return func(i int) []byte {
			if i == 700 {
				return edit(bytes.Clone(rec(i)))
			}
			return rec(i)
		}
	}
	replace := func(old, new string) func([]byte) []byte {
		return func(b []byte) []byte { return bytes.Replace(b, []byte(old), []byte(new), 1) }
	}
	huge := `[` + strings.Repeat(`0.125,`, fastMax/6) + `1]`
	for _, c := range []struct {
		name string
		rec  func(i int) []byte
		sep  string
	}{
		{"sglang", sgl, "\n"},
		{"sglang CRLF and blank lines", func(i int) []byte { return append(bytes.Repeat([]byte("\r\n"), i%3), sgl(i)...) }, "\r\n"},
		{"vllm append, bare Infinity", vll, "\n"},
		{"vllm pretty-printed", func(i int) []byte { return bytes.ReplaceAll(vll(i), []byte(", "), []byte(",\n  ")) }, "\n"},
		{"vllm concatenated on one line", vll, " "},
		{"sglang NaN statistic", at(sgl, replace(`"median_ttft_ms": `, `"median_ttft_ms": NaN, "x": `)), "\n"},
		{"sglang negative statistic", at(sgl, replace(`"median_ttft_ms": `, `"median_ttft_ms": -`)), "\n"},
		{"sglang escaped name", at(sgl, replace(`"median_ttft_ms"`, `"median_ttft\u005fms"`)), "\n"},
		{"sglang escaped value", at(sgl, replace(`"backend": "`, `"backend": "\u0073`)), "\n"},
		{"sglang NUL in a value", at(sgl, replace(`"backend": "`, `"backend": "a\u0000`)), "\n"},
		{"sglang syntax error", at(sgl, replace(`, "`, ` "`)), "\n"},
		{"sglang number as text", at(sgl, replace(`"median_ttft_ms": `, `"median_ttft_ms": "N", "y": `)), "\n"},
		{"sglang latency without unit", at(sgl, replace(`"median_ttft_ms"`, `"median_ttft"`)), "\n"},
		{"sglang array of numbers", at(sgl, replace(`{`, `[1, 2]`+"\n{")), "\n"},
		{"vllm summary array", at(vll, func(b []byte) []byte { return append(append([]byte{'['}, b...), ']') }), "\n"},
		{"vllm request_rate Infinity", at(vll, replace(`"request_rate": `, `"request_rate": Infinity, "z": `)), "\n"},
		{"vllm huge per-request array", at(vll, replace(`{`, `{"itls": `+huge+`, `)), "\n"},
		{"vllm truncated", func(i int) []byte { return vll(i) }, "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			for i := 0; buf.Len() <= StreamThreshold+(1<<20); i++ {
				buf.Write(c.rec(i))
				buf.WriteString(c.sep)
			}
			data := buf.Bytes()
			if c.name == "vllm truncated" {
				data = data[:len(data)-40]
			}
			p := filepath.Join(t.TempDir(), "records.jsonl")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			fast, ferr := readWith(p, false)
			slow, serr := readWith(p, true)
			sameRead(t, c.name, fast, slow, ferr, serr)
			if len(slow) < 500 && serr == nil {
				t.Fatalf("%d trials", len(slow))
			}
		})
	}
}

// FuzzFastServing checks that the scanner reads vLLM and SGLang input as
// the jsontext readers do: in memory, and as a stream through a buffer of
// 64 bytes that is refilled and grown as records cross its end, with bare
// Infinity and NaN left for it to read (the same trials, or the same
// error).
func FuzzFastServing(f *testing.F) {
	for _, g := range []string{"sglang/*", "synthetic/*sglang*", "synthetic/*vllm*", "bad/*vllm*", "bad/*sglang*", "vllm/*qps*"} {
		m, _ := filepath.Glob(filepath.Join("testdata", g))
		for _, p := range m {
			if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
				f.Add(data, strings.HasSuffix(p, ".jsonl"))
			}
		}
	}
	defer func(n int) { fastBuf = n }(fastBuf)
	fastBuf = 64
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, jsonl bool) {
		name := "result.json"
		if jsonl {
			name = "result.jsonl"
		}
		fast, ferr := readBytesWith(bytes.Clone(data), name, false)
		slow, serr := readBytesWith(bytes.Clone(data), name, true)
		sameRead(t, "in memory", fast, slow, ferr, serr)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		stream := func(slow bool) ([]trial.Trial, error) {
			r := newReader()
			r.slow = slow
			var all []trial.Trial
			r.part = func(ts []trial.Trial) error {
				all = append(all, ts...)
				return nil
			}
			file, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			ts, err := r.readStream(file, p, int64(len(data)))
			return append(all, ts...), err
		}
		fast, ferr = stream(false)
		slow, serr = stream(true)
		sameRead(t, "streamed", fast, slow, ferr, serr)
	})
}

// TestServingFastStreamedOverBound: a streamed file whose record holds a
// name or value over its bound (MaxNameLen, MaxLabelLen) past its first
// batches is refused as the jsontext reader refuses it, though the
// scanner checks only the trials whose builders saw such a text
// (builder.long).
func TestServingFastStreamedOverBound(t *testing.T) {
	const sg, vl = "sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", "synthetic/synthetic_vllm_bench_serve_append.json"
	long := func(n int) string { return strings.Repeat("k", n) }
	for _, c := range []struct {
		name, file, old, new string
	}{
		{"sglang parameter name", sg, `"backend"`, `"` + long(MaxNameLen+1) + `": 1, "backend"`},
		{"sglang label value", sg, `"dataset_name": "`, `"dataset_name": "` + long(MaxLabelLen+1)},
		{"vllm statistic name", vl, `{`, `{"p99_` + long(MaxNameLen) + `_ms": 1, `},
		{"vllm nested parameter name", vl, `{`, `{"a": {"` + long(MaxNameLen) + `": 1}, `},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var buf strings.Builder
			for i := 0; buf.Len() <= StreamThreshold+(1<<20); i++ {
				line := lines[i%len(lines)]
				if i == 900 {
					line = strings.Replace(line, c.old, c.new, 1)
				}
				buf.WriteString(line + "\n")
			}
			p := filepath.Join(t.TempDir(), "records.jsonl")
			if err := os.WriteFile(p, []byte(buf.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			fast, ferr := readWith(p, false)
			slow, serr := readWith(p, true)
			if serr == nil {
				t.Fatalf("the jsontext reader read %d trials, want an error", len(slow))
			}
			sameRead(t, c.name, fast, slow, ferr, serr)
		})
	}
}
