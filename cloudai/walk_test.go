package cloudai

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const resultsDir = "testdata/results/scenario_2026-08-06_10-00-00"

// TestWalkSyntheticTree walks the synthetic results tree and checks the exact
// runs, exclusions and GPU counts (see testdata/results/README.md).
func TestWalkSyntheticTree(t *testing.T) {
	runs, excl, err := Walk(resultsDir, WalkOptions{GPUsPerNode: 8, System: "example-cluster"})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		id, benchmark, files  string
		nodes, alloc, serving int
		cloudai               int
		roles                 string
		shared                bool
	}
	wants := []want{
		{"sglang.dse/0/1/", "sglang-bench", "1/sglang-bench.jsonl:sglang-jsonl", 1, 8, 1, 4, "serving:1x1", false},
		{"sglang.dse/0/2/", "sglang-bench", "2/sglang-bench.jsonl:sglang-jsonl", 1, 8, 2, 4, "serving:1x2", false},
		{"sglang.dse/0/3/", "sglang-bench", "3/sglang-bench.jsonl:sglang-jsonl", 1, 8, 4, 4, "serving:1x4", false},
		{"test.disagg.1p1d.multinode-wideep/0/0/aiperf", "aiperf", "aiperf_artifacts/profile_export_aiperf.json:aiperf-json",
			4, 32, 16, 32, "prefill:1x8 decode:1x8", false},
		{"test.disagg.single-node/0/0/round_1", "aiperf", "round_1/profile_export_aiperf.json:aiperf-json",
			2, 16, 8, 16, "prefill:1x4 decode:1x4", false},
		{"test.disagg.single-node/0/0/round_2", "aiperf", "round_2/profile_export_aiperf.json:aiperf-json",
			2, 16, 8, 16, "prefill:1x4 decode:1x4", false},
		{"vllm.agg.1node/0/0/", "vllm-bench", "0/vllm-bench.json:vllm-json", 1, 8, 4, 4, "serving:1x4", false},
		{"vllm.agg.1node/1/0/", "vllm-bench", "1/vllm-bench.json:vllm-json", 1, 8, 4, 4, "serving:1x4", false},
		{"vllm.disagg.4nodes/0/0/", "vllm-bench", "0/vllm-bench.json:vllm-json", 4, 32, 16, 16, "prefill:1x8 decode:1x8", false},
	}
	if len(runs) != len(wants) {
		t.Fatalf("Walk() = %d runs; want %d: %v", len(runs), len(wants), runIDs(runs))
	}
	for i, w := range wants {
		r := runs[i]
		if r.ID() != w.id {
			t.Fatalf("runs[%d].ID() = %q; want %q", i, r.ID(), w.id)
		}
		got := want{r.ID(), r.Benchmark, fileList(r.Files), r.Nodes, r.AllocatedGPUs, r.ServingGPUs, r.CloudAIGPUs,
			roleSummary(r.Layout), r.Layout.SharedNodes}
		if !strings.HasSuffix(got.files, w.files) || got.files == "" {
			t.Errorf("%s: files = %q; want suffix %q", w.id, got.files, w.files)
		}
		got.files = w.files
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", w.id, got, w)
		}
	}
	wantExcl := []Exclusion{
		{Path: filepath.Join(resultsDir, "vllm.agg.1node", "notes"), Case: "vllm.agg.1node", Iteration: -1, Code: ExcludeNotARun,
			Reason: `directory "notes" is not an iteration number; skipped`},
		{Path: filepath.Join(resultsDir, "vllm.agg.1node", "2"), Case: "vllm.agg.1node", Iteration: 2, Code: ExcludeRunFailed,
			Reason: "vllm-bench.log has no benchmark result block"},
	}
	if len(excl) != len(wantExcl) {
		t.Fatalf("Walk() exclusions = %+v; want %+v", excl, wantExcl)
	}
	for i := range wantExcl {
		if excl[i] != wantExcl[i] {
			t.Errorf("exclusion[%d] = %+v; want %+v", i, excl[i], wantExcl[i])
		}
	}
}

// runIDs lists run ids for failure messages.
func runIDs(runs []Run) []string {
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID())
	}
	return ids
}

// fileList renders files as path:kind joined by spaces.
func fileList(fs []File) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, filepath.ToSlash(f.Path)+":"+string(f.Kind))
	}
	return strings.Join(parts, " ")
}

// TestWalkGolden records every field of the walked runs (labels, params,
// evidence, fallbacks, layouts) in a golden JSON file.
func TestWalkGolden(t *testing.T) {
	runs, excl, err := Walk(resultsDir, WalkOptions{GPUsPerNode: 8, System: "example-cluster"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(struct {
		Runs       []Run       `json:"runs"`
		Exclusions []Exclusion `json:"exclusions"`
	}{runs, excl}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "walk", append(out, '\n'))
}
