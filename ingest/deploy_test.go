package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// gpuCountAfter is what Dataset.gpuCount does to a trial read without its
// deployment: the per-GPU metrics added after the reader's ID, then the
// trial sorted and its ID computed again.
func gpuCountAfter(gpus trial.GPUs, t *trial.Trial) {
	if t.Deployment != nil {
		return
	}
	if dep := fileDeployment(gpus, t); dep != nil {
		t.Deployment = dep
		trial.AddPerGPU(t, dep)
		t.Finalize()
	}
}

// TestReadDeployment checks that the trials the fast AIPerf reader gives
// their deployment before its one ID (readSettings.deploy) are those
// Dataset.gpuCount makes of the trials read without: every fixture, and
// generated exports (one of them with a per-GPU metric of its own, one
// with a statistic repeated, where the reader falls back), with and
// without GPUs given.
func TestReadDeployment(t *testing.T) {
	var paths []string
	err := filepath.WalkDir("testdata", func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := string(aiperfFile(t, 1))
	for i, data := range []string{base,
		base[:1] + `"output_token_throughput_per_serving_gpu": {"unit": "tokens/sec/gpu", "avg": 5},` + base[1:],
		base[:1] + `"output_token_throughput": {"unit": "tokens/sec", "avg": 7, "p50": 7, "p50": 7},` + base[1:],
	} {
		p := filepath.Join(dir, fmt.Sprintf("run_%d_profile_export_aiperf.json", i))
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	read := func(set readSettings) [][]trial.Trial {
		out := make([][]trial.Trial, len(paths))
		readFiles(paths, paths, 1, set, nil, func(i int, ts []trial.Trial, err error) {
			if err == nil {
				out[i] = ts
			}
		}, nil)
		return out
	}
	for _, gpus := range []trial.GPUs{{}, {Total: 4}, {Total: 8, Replicas: 2}} {
		want, got := read(readSettings{}), read(readSettings{deploy: &gpus})
		deployed := 0
		for i := range paths {
			for j := range want[i] {
				gpuCountAfter(gpus, &want[i][j])
			}
			for j := range got[i] {
				if got[i][j].Deployment != nil {
					deployed++
				}
				gpuCountAfter(gpus, &got[i][j])
			}
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("gpus=%s: %s: the trials read with their deployment differ", gpus, paths[i])
			}
		}
		if deployed < 4 {
			t.Errorf("gpus=%s: only %d trials read with their deployment", gpus, deployed)
		}
	}
}
