package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sweepRun is a vLLM `bench sweep serve` run=N.json record in the shape
// of the real ones in er0080/vllm-benchmarking @ 1949e7fb5d0bd3d71f8c06701f33e1134400ce16
// (packages/api/tests/fixtures/vllm_sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/,
// vLLM 0.25.1; no licence, so not copied): the bench serve result with
// the serve parameter and run_number; summary.json beside the runs is the
// JSON array of the same records.
func sweepRun(run int, seqs int, ttft float64) map[string]any {
	return map[string]any{
		"date": "20260818-02133" + string(rune('3'+run)), "endpoint_type": "openai", "backend": "openai", "label": nil,
		"model_id": "facebook/opt-125m", "tokenizer_id": "facebook/opt-125m", "num_prompts": 8, "request_rate": "inf",
		"burstiness": 1.0, "max_concurrency": 2, "duration": 1.3653671270003542, "completed": 8, "failed": 0,
		"total_input_tokens": 256, "total_output_tokens": 128, "request_throughput": 5.859229976904171,
		"request_goodput": nil, "output_throughput": 93.74767963046673 + float64(run), "total_token_throughput": 281.2430388914002,
		"max_output_tokens_per_s": 75.0, "max_concurrent_requests": 6, "rtfx": 0.0,
		"mean_ttft_ms": ttft, "median_ttft_ms": 44.92285849846667, "std_ttft_ms": 309.1373405846827, "p99_ttft_ms": 762.4942294094944,
		"mean_tpot_ms": 8.204553624697533, "median_tpot_ms": 8.323490332986694, "p99_tpot_ms": 9.394318119331729,
		"mean_itl_ms": 8.204563008257537, "median_itl_ms": 7.372754000243731, "p99_itl_ms": 22.26501848665066,
		"mean_e2el_ms": 340.3411977451469, "p99_e2el_ms": 876.8009717071254, "run_number": run, "max_num_seqs": seqs,
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSweepSummaryTwins: in a folder, vLLM bench sweep's summary.json is
// the duplicate of the run=N.json files it lists (each run read once, not
// twice as a repeat), whichever comes first; a summary with a record no
// run file holds is read, and so is a summary named alone.
func TestSweepSummaryTwins(t *testing.T) {
	dir := t.TempDir()
	for _, seqs := range []int{4, 8} {
		sub := filepath.Join(dir, "SERVE--max_num_seqs="+map[int]string{4: "4", 8: "8"}[seqs]+"-BENCH--max_concurrency=2")
		runs := []any{sweepRun(0, seqs, 217.27), sweepRun(1, seqs, 211.5)}
		writeJSON(t, filepath.Join(sub, "run=0.json"), runs[0])
		writeJSON(t, filepath.Join(sub, "run=1.json"), runs[1])
		writeJSON(t, filepath.Join(sub, "summary.json"), runs)
	}
	// The summary read before its runs ("a_summary.json" sorts first).
	writeJSON(t, filepath.Join(dir, "first", "a_summary.json"), []any{sweepRun(0, 16, 1), sweepRun(1, 16, 2)})
	writeJSON(t, filepath.Join(dir, "first", "run=0.json"), sweepRun(0, 16, 1))
	writeJSON(t, filepath.Join(dir, "first", "run=1.json"), sweepRun(1, 16, 2))
	// A summary with a run whose file is missing is read whole.
	writeJSON(t, filepath.Join(dir, "partial", "run=0.json"), sweepRun(0, 32, 5))
	writeJSON(t, filepath.Join(dir, "partial", "summary.json"), []any{sweepRun(0, 32, 5), sweepRun(1, 32, 6)})

	d, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, tr := range d.Trials {
		files = append(files, strings.TrimPrefix(tr.Source.Path, dir+"/"))
	}
	if len(d.Trials) != 9 {
		t.Errorf("%d trials from %v; want 9 (2 runs in each of 3 sweeps, the partial summary's 2 and its run file)", len(d.Trials), files)
	}
	dups := 0
	for _, s := range d.Skipped {
		if s.Code == SkipDuplicate {
			dups++
			if !strings.Contains(s.Reason, "run=0.json") || !strings.Contains(s.Reason, "run=1.json") || strings.Contains(s.Path, "partial") {
				t.Errorf("duplicate %s: %s", s.Path, s.Reason)
			}
		} else {
			t.Errorf("skip %+v", s)
		}
	}
	if dups != 3 {
		t.Errorf("%d summaries skipped as duplicates; want 3: %+v", dups, d.Skipped)
	}
	alone, err := ReadFile(filepath.Join(dir, "first", "a_summary.json"))
	if err != nil || len(alone) != 2 {
		t.Errorf("summary alone: %d trials, %v; want 2", len(alone), err)
	}
}
