package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// manyRecords writes the records of the real file src, repeated to n
// lines, with line bad (1-based; 0: none) replaced by a record whose
// completed count is a string.
func manyRecords(t *testing.T, src string, n, bad int) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var buf bytes.Buffer
	for i := range n {
		if i+1 == bad {
			buf.WriteString(`{"backend": "sglang", "duration": 10.0, "completed": "many", "output_throughput": 5.0}` + "\n")
			continue
		}
		buf.Write(bytes.TrimSpace(lines[i%len(lines)]))
		buf.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadStreamsRecords: with Each and Batches, a file of many records is handed on
// in batches of at most streamBatch trials, which together are exactly
// the trials Load without Each returns at once.
func TestLoadStreamsRecords(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"sglang", "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl"},
		{"vllm-append", "testdata/synthetic/synthetic_vllm_bench_serve_append.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			const n = 4*streamBatch + 37
			p := manyRecords(t, c.src, n, 0)
			if fi, _ := os.Stat(p); fi.Size() <= StreamThreshold {
				t.Fatalf("%d bytes: not streamed (threshold %d)", fi.Size(), StreamThreshold)
			}
			all, err := Load([]string{p}, LoadOptions{})
			if err != nil || len(all.Trials) != n {
				t.Fatalf("Load without Each = %v; want %d trials", err, n)
			}
			want := all.Trials
			var got []trial.Trial
			var sizes []int
			d, err := Load([]string{p}, LoadOptions{Batches: true, Each: func(ts []trial.Trial, _ *cloudai.Run) error {
				sizes = append(sizes, len(ts))
				got = append(got, ts...)
				return nil
			}})
			if err != nil || len(d.Skipped) > 0 {
				t.Fatalf("Load: %v, skipped %v", err, d.Skipped)
			}
			if !reflect.DeepEqual(sizes, []int{streamBatch, streamBatch, streamBatch, streamBatch, 37}) {
				t.Errorf("batches of %v; want four of %d, then 37", sizes, streamBatch)
			}
			if len(got) != len(want) {
				t.Fatalf("%d trials; want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("trial %d differs:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestLoadStreamsBadRecord: the batches before a bad record went on; the
// file is listed as unreadable at its line and field.
func TestLoadStreamsBadRecord(t *testing.T) {
	const bad = 2*streamBatch + 5
	p := manyRecords(t, "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", 5*streamBatch, bad)
	got := 0
	d, err := Load([]string{p}, LoadOptions{Batches: true, Each: func(ts []trial.Trial, _ *cloudai.Run) error {
		got += len(ts)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got != 2*streamBatch {
		t.Errorf("%d trials went on; want the %d of the batches before line %d", got, 2*streamBatch, bad)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Code != SkipError {
		t.Fatalf("skipped %+v; want the file as unreadable", d.Skipped)
	}
	if r := d.Skipped[0].Reason; !strings.Contains(r, fmt.Sprintf(":%d:", bad)) || !strings.Contains(r, "completed") {
		t.Errorf("reason %q; want line %d and the field completed", r, bad)
	}
	// Without Batches the file is one batch: nothing of it is kept.
	got = 0
	d, err = Load([]string{p}, LoadOptions{Each: func(ts []trial.Trial, _ *cloudai.Run) error {
		got += len(ts)
		return nil
	}})
	if err != nil || got != 0 || len(d.Skipped) != 1 {
		t.Errorf("Load without Batches = %d trials, %d skipped, %v; want 0, 1", got, len(d.Skipped), err)
	}
}

// TestLoadStreamsStop: an error of Each ends the read of a streamed file
// and is Load's error; the file is not listed as skipped.
func TestLoadStreamsStop(t *testing.T) {
	p := manyRecords(t, "testdata/synthetic/synthetic_vllm_bench_serve_append.json", 4*streamBatch, 0)
	stop := os.ErrClosed
	calls := 0
	d, err := Load([]string{p}, LoadOptions{Batches: true, Each: func([]trial.Trial, *cloudai.Run) error {
		calls++
		return stop
	}})
	if err != stop || calls != 1 {
		t.Fatalf("Load = %v after %d calls; want %v after 1", err, calls, stop)
	}
	if d != nil && len(d.Skipped) > 0 {
		t.Errorf("skipped %+v; want none", d.Skipped)
	}
}
