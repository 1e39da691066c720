package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// repeatTree writes dir/runs with two identical vLLM results in two
// directories and a JSONL file holding one SGLang record twice: four runs
// whose numbers agree pairwise.
func repeatTree(t *testing.T, dir string) {
	t.Helper()
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json")
	if err != nil {
		t.Fatal(err)
	}
	sg, err := os.ReadFile("testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(sg, []byte("\n"))
	files := map[string][]byte{
		"runs/seed1/a.json": vllm,
		"runs/seed2/a.json": vllm,
		"runs/rep.jsonl":    slices.Concat(line, []byte("\n"), line, []byte("\n")),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// placed returns "file#index id" for every trial Load reads from paths.
func placed(t *testing.T, paths ...string) []string {
	t.Helper()
	d, err := Load(paths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tr := range d.Trials {
		if tr.ID != trial.ComputeID(&tr) {
			t.Errorf("%s: ID %s is not ComputeID %s", tr.Source.Path, tr.ID, trial.ComputeID(&tr))
		}
		out = append(out, tr.Source.File()+"#"+string(rune('0'+tr.Source.Index))+" "+tr.ID)
	}
	slices.Sort(out)
	return out
}

// TestLoadRepeatIdentity checks that runs with identical numbers in two
// files, or in two records of one file, are distinct trials, and that the
// same files get the same keys and IDs however they are named: relative,
// absolute, from another working directory, as a glob of their contents.
func TestLoadRepeatIdentity(t *testing.T) {
	dir := t.TempDir()
	repeatTree(t, dir)
	t.Chdir(dir)
	want := placed(t, "runs")
	var keys []string
	ids := map[string]bool{}
	for _, s := range want {
		k, id, _ := strings.Cut(s, " ")
		keys = append(keys, k)
		ids[id] = true
	}
	if w := []string{"runs/rep.jsonl#0", "runs/rep.jsonl#1", "runs/seed1/a.json#0", "runs/seed2/a.json#0"}; !slices.Equal(keys, w) {
		t.Fatalf("keys %q; want %q", keys, w)
	}
	if len(ids) != 4 {
		t.Errorf("4 runs got %d IDs: %q", len(ids), want)
	}
	for _, c := range []struct {
		name  string
		cwd   string
		paths []string
	}{
		{"dot-slash", dir, []string{"./runs/"}},
		{"absolute", dir, []string{filepath.Join(dir, "runs")}},
		{"from inside", filepath.Join(dir, "runs"), []string{"."}},
		{"from below", filepath.Join(dir, "runs", "seed1"), []string{".."}},
		{"glob of contents", dir, []string{"runs/rep.jsonl", "runs/seed1", "runs/seed2"}},
		{"glob of files", dir, []string{"runs/seed2/a.json", "runs/seed1/a.json", "runs/rep.jsonl"}},
		{"from elsewhere", t.TempDir(), []string{filepath.Join(dir, "runs", "seed1", "a.json"), filepath.Join(dir, "runs/seed2/a.json"), filepath.Join(dir, "runs/rep.jsonl")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(c.cwd)
			if got := placed(t, c.paths...); !slices.Equal(got, want) {
				t.Errorf("Load(%q) from %s:\n%q\nwant\n%q", c.paths, c.cwd, got, want)
			}
		})
	}
	// A subdirectory alone is its own root: its files are named from it.
	t.Chdir(dir)
	if got := placed(t, "runs/seed1"); len(got) != 1 || !strings.HasPrefix(got[0], "seed1/a.json#0 ") {
		t.Errorf("Load(runs/seed1) = %q; want seed1/a.json", got)
	}
}

// TestLoadCloudAIKeys checks that a CloudAI tree's files are named from
// the tree's parent, whether the tree or its parent is given, and that
// Source.Key is left empty where it equals the path.
func TestLoadCloudAIKeys(t *testing.T) {
	tree, err := filepath.Abs(cloudaiTree)
	if err != nil {
		t.Fatal(err)
	}
	want := placed(t, cloudaiTree)
	if len(want) == 0 {
		t.Fatal("no trials")
	}
	for _, s := range want {
		if !strings.HasPrefix(s, "scenario_2026-08-06_10-00-00/") {
			t.Errorf("%s: want keys from the tree's parent", s)
		}
	}
	if got := placed(t, filepath.Dir(tree)); !slices.Equal(got, want) {
		t.Errorf("tree's parent given:\n%q\nwant\n%q", got, want)
	}
	t.Chdir(filepath.Dir(tree))
	d, err := Load([]string{filepath.Base(tree)}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range d.Trials {
		if tr.Source.Key != "" {
			t.Errorf("%s: Key %q; want empty (the path says it)", tr.Source.Path, tr.Source.Key)
		}
	}
}
