package cloudai

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIsResultsTree checks which directories are CloudAI results trees,
// with or without test-run.toml.
func TestIsResultsTree(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files []string
		want  bool
	}{
		{"test-run.toml", []string{"c/0/test-run.toml"}, true},
		{"DSE step test-run.toml", []string{"c/0/3/test-run.toml"}, true},
		{"vLLM bench log, no test-run.toml", []string{"c/0/vllm-bench.log", "c/0/vllm-bench.json"}, true},
		{"SGLang DSE step, no test-run.toml", []string{"c/0/2/sglang-bench.jsonl"}, true},
		{"Dynamo success marker", []string{"c/1/success-marker.txt", "c/1/aiperf_artifacts/profile_export_aiperf.json"}, true},
		{"Dynamo failure marker", []string{"c/0/failure-marker.txt"}, true},
		{"DSE trajectory", []string{"c/0/trajectory.csv"}, true},
		{"bench log in a non-numeric iteration", []string{"c/latest/vllm-bench.log"}, false},
		{"bench log in a zero-padded iteration", []string{"c/01/vllm-bench.log"}, false},
		{"loose result files", []string{"runs/0/vllm-bench.json", "a.json"}, false},
		{"bench log one level too deep", []string{"c/0/1/2/vllm-bench.log"}, false},
		{"marker at the case level", []string{"c/success-marker.txt"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "scenario_[1]") // pattern characters in the path are quoted
			for _, f := range tt.files {
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := IsResultsTree(dir); got != tt.want {
				t.Errorf("IsResultsTree(%v) = %v; want %v", tt.files, got, tt.want)
			}
		})
	}
	if !IsResultsTree("../examples/cloudai/results") {
		t.Error("the shipped example tree is not recognised")
	}
}
