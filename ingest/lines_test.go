package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamedRecordLines: the line of every record of a streamed file
// (above StreamThreshold), counted from the newlines noted while reading,
// is the line the same bytes give when read whole; also when a record
// holds more newlines than are noted (a pretty-printed per-request array),
// where the line is counted by re-reading the file.
func TestStreamedRecordLines(t *testing.T) {
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
	many := "[" + strings.Repeat("1.5,\n", maxNoted+10) + "2]"
	for _, c := range []struct {
		name string
		make func(i int) []byte
	}{
		{"sglang lines", func(i int) []byte { return sgLines[i%len(sgLines)] }},
		{"sglang, blank lines between", func(i int) []byte {
			return append(bytes.Repeat([]byte("\n"), i%3), sgLines[i%len(sgLines)]...)
		}},
		{"vllm pretty-printed", func(i int) []byte {
			return bytes.ReplaceAll(vlLines[i%len(vlLines)], []byte(", "), []byte(",\n  "))
		}},
		{"vllm, a long array", func(i int) []byte {
			r := vlLines[i%len(vlLines)]
			if i%50 == 7 {
				r = append([]byte(`{"ttfts": `+many+`, `), r[1:]...)
			}
			return r
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			for i := 0; buf.Len() <= StreamThreshold+(2<<20); i++ {
				buf.Write(c.make(i))
				buf.WriteByte('\n')
			}
			p := filepath.Join(t.TempDir(), "records.jsonl")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			streamed, err := ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := ReadBytes(buf.Bytes(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(streamed) != len(whole) || len(whole) < 100 {
				t.Fatalf("%d trials streamed, %d read whole", len(streamed), len(whole))
			}
			var got, want []string
			for i := range whole {
				got = append(got, fmt.Sprint(streamed[i].Source.Line))
				want = append(want, fmt.Sprint(whole[i].Source.Line))
			}
			if g, w := strings.Join(got, " "), strings.Join(want, " "); g != w {
				t.Errorf("lines streamed:\n%.400s\nwant\n%.400s", g, w)
			}
		})
	}
}

// FuzzLineIndex: the line and column of increasing offsets of a stream,
// counted from the newlines a tolerantReader notes as it passes the
// stream on in chunks of any size, are those counted in the whole input.
func FuzzLineIndex(f *testing.F) {
	f.Add([]byte("{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": NaN}\n"), uint8(3), uint8(5))
	f.Add([]byte(strings.Repeat("x\n", 300)), uint8(1), uint8(7))
	f.Add([]byte("no newline at all"), uint8(200), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, chunk, step uint8) {
		x := &lineIndex{}
		r := newTolerantReader(&chunkReader{data: data, n: int(chunk)%64 + 1})
		r.lines = x
		src := &source{path: "f", lines: x, file: os.Stdin} // file: the streaming case; never read, as off <= x.end
		var got []byte
		buf := make([]byte, int(step)%97+1)
		whole := &source{path: "f", data: data}
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			for off := int64(len(got)) - int64(n); off < int64(len(got)); off += int64(step)%13 + 1 {
				l, c := src.lineCol(off)
				wl, wc := whole.lineCol(off)
				if l != wl || c != wc {
					t.Fatalf("offset %d: line %d col %d, want %d:%d", off, l, c, wl, wc)
				}
			}
			if err != nil {
				break
			}
		}
		if len(got) != len(data) {
			t.Fatalf("%d bytes passed on, want %d", len(got), len(data))
		}
	})
}

// chunkReader returns data n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}
