package cloudai

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunEnvironmentLabels: the environment a run's node metadata records
// becomes its labels gpu, cuda and driver (a full SlurmSystemMetadata file
// in each iteration of vllm.agg.1node, the bare gpu_arch_type of older
// files at the scenario level, "null" left out, the CUDA
// driver API version when no NVIDIA driver version is recorded), and
// gpu_count is the allocated GPUs when the system gives gpus_per_node.
func TestRunEnvironmentLabels(t *testing.T) {
	runs, _, err := Walk(resultsDir, WalkOptions{GPUsPerNode: 8, System: "example-cluster"})
	if err != nil {
		t.Fatal(err)
	}
	env := func(l map[string]string) string {
		return fmt.Sprintf("gpu=%s cuda=%s driver=%s gpu_count=%s", l["gpu"], l["cuda"], l["driver"], l["gpu_count"])
	}
	want := map[string]string{
		"vllm.agg.1node/0/0/":     "gpu=H100 cuda=12.8.1 driver=570.124.06 gpu_count=8",
		"vllm.agg.1node/1/0/":     "gpu=H100 cuda=12.8.1 driver=570.124.06 gpu_count=8",
		"vllm.disagg.4nodes/0/0/": "gpu=H100 cuda= driver= gpu_count=32", // the scenario's metadata
	}
	seen := 0
	for _, r := range runs {
		if w, ok := want[r.ID()]; ok {
			seen++
			if g := env(r.Labels); g != w {
				t.Errorf("%s: %s; want %s", r.ID(), g, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d runs found", seen, len(want))
	}
	runs, _, err = Walk(resultsDir, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if c, ok := r.Labels["gpu_count"]; ok {
			t.Errorf("%s: gpu_count=%s without gpus_per_node", r.ID(), c)
		}
	}

	dir := t.TempDir()
	older := "[system]\ngpu_arch_type = \"GB200\"\n[cuda]\ncuda_build_version = \"12.4\"\ncuda_runtime_version = \"null\"\ncuda_driver_version = \"12.6\"\n"
	if err := os.MkdirAll(filepath.Join(dir, "metadata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata", "node-a.toml"), []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata", "node-b.toml"), []byte("[system]\ngpu_arch_type = \"H200\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, w := env(nodeLabels(filepath.Join(dir, "absent"), dir)), "gpu=GB200 cuda=12.4 driver=12.6 gpu_count="; g != w {
		t.Errorf("older metadata: %s; want %s", g, w)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata", "node-a.toml"), []byte("not = [toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g := env(nodeLabels(dir)); !strings.HasPrefix(g, "gpu=H200 ") {
		t.Errorf("unreadable first file: %s; want the next file's gpu=H200", g)
	}
}
