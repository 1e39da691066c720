package ingest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// lookAlikes returns every file of testdata that looks like a result and
// is none: testdata/notresults (but its README) and the look-alikes of
// testdata/unseen, real files each.
func lookAlikes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/notresults/*")
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "README.md" })
	for _, f := range unseenLooks {
		files = append(files, filepath.Join(unseen, f))
	}
	return files
}

// unseenLooks are the look-alikes of testdata/unseen (its README.md).
var unseenLooks = []string{
	"aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export.jsonl",
	"inference-perf_kubecon-na-2025_vllm-eagle_summary_lifecycle_metrics.json",
	"inference-perf_kubecon-na-2025_vllm-eagle_stage_3_prometheus_metrics.json",
	"inference-perf_kubecon-na-2025_vllm-eagle_manifests.yaml",
	"inference-perf_kubecon-na-2025_analyzed_reports_legend.json",
	"inference-perf_kubecon-na-2025_vllm-batch-size_summary_prometheus_metrics.json",
	"llmperf_yi-34b_vllm_4xa10g_cur_32.json",
	"llmperf_README.md",
}

// TestLookAlikes: each look-alike is skipped as not_a_result with the
// same reason named on its own and found in a run folder beside a real
// result (which is read, and nothing fails): the rule of what a file no
// reader claims is (unknownFormat, Dataset.unclaimedInDir) does not
// depend on how the file was reached. Besides the files of testdata, two
// written here: a one-line JSON note (issue 26 found it read as a trial)
// and a CSV of load settings only.
func TestLookAlikes(t *testing.T) {
	const result = "testdata/llmperf/llmperf_yi-34b_vllm_4xa10g_c8_550_150_summary.json"
	written := t.TempDir()
	for name, text := range map[string]string{
		"notes.jsonl": `{"title": "my notes", "items": [1, 2, 3]}` + "\n",
		"runs.csv":    "name,concurrency,result_file\na,8,a.json\nb,16,b.json\n",
	} {
		if err := os.WriteFile(filepath.Join(written, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := append(lookAlikes(t), filepath.Join(written, "notes.jsonl"), filepath.Join(written, "runs.csv"))
	if len(files) < 16 {
		t.Fatalf("%d look-alikes, want 16 at least", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d, err := Load([]string{f}, LoadOptions{})
			if err != nil || len(d.Trials) != 0 || len(d.Skipped) != 1 {
				t.Fatalf("alone: %d trials, skips %+v, %v; want one skip", len(d.Trials), d.Skipped, err)
			}
			alone := d.Skipped[0]
			run := filepath.Join(t.TempDir(), "run")
			copyFile(t, f, filepath.Join(run, filepath.Base(f)))
			copyFile(t, result, filepath.Join(run, filepath.Base(result)))
			d, err = Load([]string{run}, LoadOptions{})
			if err != nil || len(d.Trials) != 1 || len(d.Skipped) != 1 || d.Failed() != 0 {
				t.Fatalf("in a folder: %d trials, skips %+v, %v; want the result's trial and one skip", len(d.Trials), d.Skipped, err)
			}
			in := d.Skipped[0]
			if alone.Code != trial.SkipNotResult || in.Code != trial.SkipNotResult || in.Reason != alone.Reason || alone.Reason == "" {
				t.Errorf("alone %s %q; in a folder %s %q; want %s with one reason", alone.Code, alone.Reason, in.Code, in.Reason, trial.SkipNotResult)
			}
		})
	}
}

// TestRunFolderText: a README and a benchmark's log beside a result in a
// run folder are not_a_result (not unknown_format, not an error): the
// result is read and nothing fails; binary data there is the only
// unknown_format, and text that is not UTF-8 too.
func TestRunFolderText(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	copyFile(t, "testdata/llmperf/llmperf_yi-34b_vllm_4xa10g_c8_550_150_summary.json", filepath.Join(run, "summary.json"))
	copyFile(t, filepath.Join(unseen, "README.md"), filepath.Join(run, "README.md"))
	copyFile(t, "../examples/cloudai/results/vllm.agg.1node/0/vllm-bench.log", filepath.Join(run, "vllm-bench.log"))
	copyFile(t, "testdata/bad/junk.bin", filepath.Join(run, "junk.bin"))
	if err := os.WriteFile(filepath.Join(run, "latin1.txt"), []byte("caf\xe9,th\xe9\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load([]string{run}, LoadOptions{})
	if err != nil || len(d.Trials) != 1 || d.Failed() != 0 {
		t.Fatalf("%d trials, %d failed, %v; want 1 and 0", len(d.Trials), d.Failed(), err)
	}
	var got []string
	for _, s := range d.Skipped {
		got = append(got, filepath.Base(s.Path)+" "+s.Code)
	}
	want := []string{"README.md not_a_result", "junk.bin unknown_format", "latin1.txt unknown_format", "vllm-bench.log not_a_result"}
	if !slices.Equal(got, want) {
		t.Errorf("skips %v; want %v", got, want)
	}
	for _, s := range d.Skipped {
		if s.Code == trial.SkipNotResult && !strings.Contains(s.Reason, "not a result file") && !strings.Contains(s.Reason, "no measurement") {
			t.Errorf("%s: reason %q; want what the file is", s.Path, s.Reason)
		}
	}
}

// TestRenamedSameID: every real result of testdata/unseen, copied under
// another name (no extension), gives the same trials with the same IDs
// once given the original's file key: the name decides nothing but the
// key the ID hashes (trial.ComputeID: a run is its content at its file).
func TestRenamedSameID(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export_aiperf.json",
		"aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export_aiperf.csv",
		"inference-perf_kubecon-na-2025_vllm-eagle_stage_3_lifecycle_metrics.json",
		"genai-perf_perf-analyzer_analyze_export_genai_perf.csv",
		"llmperf_yi-34b_tgi_4xa10g_c16_550_150_summary.json",
		"llmperf_yi-34b_vllm_4xa10g_c64_550_150_summary.json",
		"inference-perf_kubecon-na-2025_vllm-quantization_stage_0_lifecycle_metrics.json",
		"vllm-ascend_nv-action_tem_res_serving_llama8B_tp1_1.json"} {
		t.Run(f, func(t *testing.T) {
			renamed := filepath.Join(dir, "results")
			copyFile(t, filepath.Join(unseen, f), renamed)
			a, errA := ReadFile(filepath.Join(unseen, f))
			b, errB := ReadFile(renamed)
			if errA != nil || errB != nil || len(a) == 0 || len(a) != len(b) {
				t.Fatalf("%d and %d trials, %v, %v", len(a), len(b), errA, errB)
			}
			for i := range a {
				if a[i].ID == "" || a[i].ID != trial.ComputeID(&a[i]) {
					t.Fatalf("trial %d: ID %q, not its content's %q", i, a[i].ID, trial.ComputeID(&a[i]))
				}
				if b[i].ID == a[i].ID {
					t.Errorf("trial %d: the renamed file's ID is the original's: the key is not hashed", i)
				}
				b[i].Source.Path, b[i].Source.Key = a[i].Source.Path, a[i].Source.Key
				if id := trial.ComputeID(&b[i]); id != a[i].ID || b[i].Source != a[i].Source || !sameTrial(&a[i], &b[i]) {
					t.Errorf("trial %d renamed: ID %s, want %s\n%+v\n%+v", i, id, a[i].ID, a[i], b[i])
				}
			}
		})
	}
}
