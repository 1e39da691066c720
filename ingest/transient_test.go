package ingest

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// TestLoadTransient checks that Each gets the same trials with
// LoadOptions.Transient as without, measurements, parameters and labels
// included, though their memory is filled again once Each returns:
// generated AIPerf exports (the fast reader, its spare slices and maps),
// streamed SGLang and vLLM files of several batches each, their records
// of different layouts (the record builder's spare slices and maps, and
// its batch filled again while a later file's batches wait for an
// earlier file on the other worker), and every fixture (twins, sweeps, CloudAI
// trees), with and without LoadOptions.GPUs.
func TestLoadTransient(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		data := aiperfFile(t, i)
		if i%3 == 0 {
			data = aiperfFileWithout(t, i, "request_latency")
		}
		if err := os.WriteFile(filepath.Join(runs, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	records := servingRecordFiles(t)
	for _, gpus := range []trial.GPUs{{}, {Total: 8}, {Total: 8, Replicas: 2}} {
		for _, dir := range []string{runs, records, "testdata"} {
			t.Run(fmt.Sprintf("%s/gpus=%s", filepath.Base(dir), gpus), func(t *testing.T) {
				collect := func(transient bool) ([]trial.Trial, []Skip) {
					var got []trial.Trial
					d, err := Load([]string{dir}, LoadOptions{GPUs: gpus, Batches: true, Transient: transient, Workers: 2,
						Each: func(ts []trial.Trial, _ *cloudai.Run) error {
							for _, x := range ts {
								x.Measurements = slices.Clone(x.Measurements)
								x.Params, x.Labels = maps.Clone(x.Params), maps.Clone(x.Labels)
								got = append(got, x)
							}
							return nil
						}})
					if err != nil {
						t.Fatal(err)
					}
					return got, d.Skipped
				}
				want, wantSkips := collect(false)
				got, gotSkips := collect(true)
				if len(want) == 0 {
					t.Fatal("no trials")
				}
				if len(got) != len(want) {
					t.Fatalf("%d trials, want %d", len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("trial %d of %s differs with Transient", i, want[i].Source.Path)
					}
				}
				if !reflect.DeepEqual(gotSkips, wantSkips) {
					t.Fatalf("skips differ with Transient:\n%v\n%v", gotSkips, wantSkips)
				}
			})
		}
	}
}

// servingRecordFiles writes files of many SGLang and vLLM records (the
// lines of the fixtures of each, repeated, so that records change layout
// and measurement count) into a new directory: streamed a
// batch (streamBatch) at a time, more than two batches each.
func servingRecordFiles(t *testing.T) string {
	t.Helper()
	lines := func(globs ...string) [][]byte {
		var out [][]byte
		for _, g := range globs {
			paths, err := filepath.Glob(g)
			if err != nil || len(paths) == 0 {
				t.Fatalf("%s: %v (no files)", g, err)
			}
			for _, p := range paths {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				for l := range bytes.SplitSeq(data, []byte("\n")) {
					if l = bytes.TrimSpace(l); len(l) > 0 {
						out = append(out, l)
					}
				}
			}
		}
		return out
	}
	sglang := lines("testdata/sglang/*.jsonl", "testdata/synthetic/synthetic_sglang_modern.jsonl")
	// The real vLLM results are 1 MB each (per-request arrays): one in
	// about fifty records (101 lines).
	vllm := lines("testdata/synthetic/synthetic_vllm_bench_serve_append.json")
	for len(vllm) < 99 {
		vllm = append(vllm, vllm[len(vllm)%2])
	}
	vllm = append(vllm, lines("testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json", "testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json")...)
	dir := filepath.Join(t.TempDir(), "records")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, f := range []struct {
		name  string
		lines [][]byte
		n     int
	}{{"a_bench_serving.jsonl", sglang, 3*streamBatch + 17}, {"b_vllm_results.json", vllm, 2*streamBatch + 5},
		{"c_bench_serving.jsonl", sglang, streamBatch + 200}, {"d_vllm_results.json", vllm, 4 * streamBatch}} {
		var b bytes.Buffer
		for k := range f.n {
			b.Write(f.lines[(k*7+i)%len(f.lines)]) // 23 and 101 lines: every one comes
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
