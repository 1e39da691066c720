package ingest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

const cloudaiTree = "../cloudai/testdata/results/scenario_2026-08-06_10-00-00"

// TestLoadCloudAITree loads the synthetic CloudAI tree: one trial per
// successful iteration, step and phase, with run labels, executed
// parameters and per-GPU throughput; failed runs become skips.
func TestLoadCloudAITree(t *testing.T) {
	d, err := Load([]string{cloudaiTree}, LoadOptions{GPUsPerNode: 8, System: "test-cluster"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range d.Trials {
		perServe := "-"
		if m, err := mustSelector(t, "output_token_throughput_per_serving_gpu").Resolve(&tr); err == nil {
			perServe = fmt.Sprintf("%.6g", m.Value)
		}
		perAlloc := "-"
		if m, err := mustSelector(t, "output_token_throughput_per_allocated_gpu").Resolve(&tr); err == nil {
			perAlloc = fmt.Sprintf("%.6g", m.Value)
		}
		got = append(got, fmt.Sprintf("%s %s serve=%s alloc=%s", tr.Labels["run"], tr.Source.Format, perServe, perAlloc))
	}
	var skips []string
	for _, s := range d.Skipped {
		skips = append(skips, s.Run+" "+s.Code)
	}
	// The per-GPU values are output tokens/s divided by the run's GPU counts
	// (see the cloudai package's layout tests for the counts themselves).
	want := `sglang.dse/0/1/ sglang serve=12412.4 alloc=1551.55
sglang.dse/0/2/#0 sglang serve=268.707 alloc=67.1768
sglang.dse/0/2/#1 sglang serve=493.656 alloc=123.414
sglang.dse/0/2/#2 sglang serve=1023.96 alloc=255.989
sglang.dse/0/2/#3 sglang serve=1757.51 alloc=439.377
sglang.dse/0/2/#4 sglang serve=2144.02 alloc=536.006
sglang.dse/0/2/#5 sglang serve=373.038 alloc=93.2594
sglang.dse/0/2/#6 sglang serve=735.543 alloc=183.886
sglang.dse/0/3/#0 sglang serve=126.239 alloc=63.1194
sglang.dse/0/3/#1 sglang serve=227.786 alloc=113.893
sglang.dse/0/3/#2 sglang serve=399.661 alloc=199.83
sglang.dse/0/3/#3 sglang serve=455.163 alloc=227.582
sglang.dse/0/3/#4 sglang serve=176.253 alloc=88.1267
sglang.dse/0/3/#5 sglang serve=306.099 alloc=153.049
test.disagg.1p1d.multinode-wideep/0/0/aiperf aiperf-json serve=63902.7 alloc=31951.3
test.disagg.single-node/0/0/round_1 aiperf-json serve=127805 alloc=63902.7
test.disagg.single-node/0/0/round_2 aiperf-json serve=127805 alloc=63902.7
vllm.agg.1node/0/0/ vllm serve=168.48 alloc=84.2398
vllm.agg.1node/1/0/ vllm serve=168.48 alloc=84.2398
vllm.disagg.4nodes/0/0/ vllm serve=42.1199 alloc=21.06`
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("trials:\n%s\nwant:\n%s", g, want)
	}
	if g, w := strings.Join(skips, "\n"), "vllm.agg.1node/-1/0/ not_a_run\nvllm.agg.1node/2/0/ run_failed"; g != w {
		t.Errorf("skips:\n%s\nwant:\n%s", g, w)
	}
	// Skips are named as the trials' files are: from the tree's parent.
	for _, s := range d.Skipped {
		if want := "scenario_2026-08-06_10-00-00/vllm.agg.1node/"; !strings.HasPrefix(s.Key, want) {
			t.Errorf("skip %s has key %q; want it under %s", s.Path, s.Key, want)
		}
	}
	for _, tr := range d.Trials {
		if tr.Labels[trial.LabelTestCase] == "" || tr.Labels["system"] != "test-cluster" || len(tr.Params) == 0 || tr.ID == "" {
			t.Errorf("trial %s lacks run context: labels %v, %d params", tr.Labels["run"], tr.Labels, len(tr.Params))
		}
	}
}

func mustSelector(t *testing.T, s string) trial.Selector {
	t.Helper()
	sel, err := trial.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// TestLoadMixedDirectory loads a directory of real fixtures of every
// format plus files of unknown format and a broken file.
func TestLoadMixedDirectory(t *testing.T) {
	d, err := Load([]string{"testdata"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]int{}
	for _, tr := range d.Trials {
		formats[tr.Source.Format]++
	}
	for _, f := range []string{"vllm", "sglang", "aiperf-json", "genai-perf-json", "inference-perf", "guidellm"} {
		if formats[f] == 0 {
			t.Errorf("no %s trials read from testdata (got %v)", f, formats)
		}
	}
	var errorsSeen []string
	for _, s := range d.Skipped {
		if s.Code == SkipError {
			errorsSeen = append(errorsSeen, filepath.Base(s.Path))
		}
	}
	slices.Sort(errorsSeen)
	if !slices.Contains(errorsSeen, "truncated_vllm.json") {
		t.Errorf("broken files reported: %v; want truncated_vllm.json among them", errorsSeen)
	}
	if d.Failed() != len(errorsSeen) {
		t.Errorf("Failed() = %d, want %d", d.Failed(), len(errorsSeen))
	}
}

// TestLoadSymlinkedDir reads a directory named through a symlink (a
// "latest" link to a run) as the directory itself, its files named under
// the link, while a symlink inside a directory is still not followed.
func TestLoadSymlinkedDir(t *testing.T) {
	real, err := filepath.Abs("testdata/sglang")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load([]string{real}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Trials) == 0 {
		t.Fatal("no trial in testdata/sglang")
	}
	tmp := t.TempDir()
	link := filepath.Join(tmp, "latest")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("SKIP: no symlinks here: %v", err)
	}
	got, err := Load([]string{link}, LoadOptions{})
	if err != nil {
		t.Fatalf("Load(%s): %v", link, err)
	}
	if len(got.Trials) != len(want.Trials) {
		t.Fatalf("through the link: %d trials, want %d", len(got.Trials), len(want.Trials))
	}
	for i, tr := range got.Trials {
		if rel, err := filepath.Rel(link, tr.Source.Path); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("trial %d read from %s, want a path under %s", i, tr.Source.Path, link)
		}
		if !reflect.DeepEqual(tr.Measurements, want.Trials[i].Measurements) || !reflect.DeepEqual(tr.Params, want.Trials[i].Params) {
			t.Errorf("trial %d differs through the link", i)
		}
	}
	outer := filepath.Join(tmp, "outer")
	if err := os.Mkdir(outer, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(outer, "inner")); err != nil {
		t.Fatal(err)
	}
	if d, err := Load([]string{outer}, LoadOptions{}); err == nil && len(d.Trials) != 0 {
		t.Errorf("a symlink inside a directory was followed: %d trials", len(d.Trials))
	}
}

func TestLoadMissingPath(t *testing.T) {
	if _, err := Load([]string{"testdata/nope"}, LoadOptions{}); err == nil {
		t.Fatal("Load of a missing path succeeded")
	}
}

// TestLoadEach checks that LoadOptions.Each receives exactly the trials
// and runs Load keeps without it, in the same order, with the same skips,
// and that its error ends the loading.
func TestLoadEach(t *testing.T) {
	paths := []string{cloudaiTree, "testdata"}
	want, err := Load(paths, LoadOptions{GPUsPerNode: 8})
	if err != nil {
		t.Fatal(err)
	}
	var got []trial.Trial
	var runs []*cloudai.Run
	d, err := Load(paths, LoadOptions{GPUsPerNode: 8, Workers: 2, Each: func(ts []trial.Trial, r *cloudai.Run) error {
		got = append(got, ts...)
		for range ts {
			runs = append(runs, r)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Trials) != 0 || len(d.Runs) != 0 {
		t.Errorf("Dataset kept %d trials with Each set", len(d.Trials))
	}
	if !reflect.DeepEqual(got, want.Trials) || !reflect.DeepEqual(runs, want.Runs) || !reflect.DeepEqual(d.Skipped, want.Skipped) {
		t.Errorf("Each got %d trials, Load keeps %d (or runs or skips differ)", len(got), len(want.Trials))
	}
	stop := errors.New("stop")
	calls := 0
	_, err = Load(paths, LoadOptions{GPUsPerNode: 8, Each: func([]trial.Trial, *cloudai.Run) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) || calls != 3 {
		t.Errorf("Load = %v after %d calls; want the error of the third", err, calls)
	}
}

// TestLoadDeployment checks that CloudAI trials carry their run's
// layout, GPU counts and executed TOML, and other trials none.
func TestLoadDeployment(t *testing.T) {
	d, err := Load([]string{cloudaiTree, "testdata/vllm"}, LoadOptions{GPUsPerNode: 8})
	if err != nil {
		t.Fatal(err)
	}
	layouts := 0
	for i, tr := range d.Trials {
		r, dep := d.Runs[i], tr.Deployment
		if r == nil {
			if dep != nil {
				t.Errorf("%s: deployment %+v outside CloudAI", tr.Source.Path, dep)
			}
			continue
		}
		if dep == nil {
			t.Fatalf("%s: no deployment", tr.Labels["run"])
		}
		text, err := os.ReadFile(r.ConfigPath)
		if err != nil {
			t.Fatal(err)
		}
		if dep.ConfigPath != r.ConfigPath || dep.Config != string(text) || !strings.HasSuffix(dep.ConfigPath, "test-run.toml") {
			t.Errorf("%s: config %s (%d bytes); want %s as read", tr.Labels["run"], dep.ConfigPath, len(dep.Config), r.ConfigPath)
		}
		if dep.AllocatedGPUs != r.AllocatedGPUs || dep.AllocatedGPUsUnknown != r.AllocatedGPUsUnknown ||
			dep.ServingGPUs != r.ServingGPUs || dep.ServingGPUsUnknown != r.ServingGPUsUnknown {
			t.Errorf("%s: GPUs %+v; run has %d (%q), %d (%q)", tr.Labels["run"], dep, r.AllocatedGPUs,
				r.AllocatedGPUsUnknown, r.ServingGPUs, r.ServingGPUsUnknown)
		}
		if dep.Layout != nil {
			layouts++
			sum := 0
			for _, ro := range dep.Layout.Roles {
				sum += ro.GPUs()
			}
			if sum != dep.ServingGPUs {
				t.Errorf("%s: roles hold %d GPUs; serving %d", tr.Labels["run"], sum, dep.ServingGPUs)
			}
		}
	}
	if layouts == 0 {
		t.Error("no CloudAI trial has a layout")
	}
}

// TestLoadProgress: LoadOptions.Progress counts every input handed on or
// skipped, never backwards, and ends with all of them read.
func TestLoadProgress(t *testing.T) {
	paths := []string{cloudaiTree, "testdata/vllm"}
	var calls [][2]int
	d, err := Load(paths, LoadOptions{GPUsPerNode: 8, Workers: 2, Progress: func(done, total int) {
		calls = append(calls, [2]int{done, total})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 {
		t.Fatal("Progress was never called")
	}
	for i, c := range calls {
		if c[0] > c[1] || i > 0 && (c[0] < calls[i-1][0] || c[1] < calls[i-1][1]) {
			t.Fatalf("call %d: %d of %d after %v", i, c[0], c[1], calls[:i])
		}
	}
	last := calls[len(calls)-1]
	if last[0] != last[1] {
		t.Errorf("the last call says %d of %d read", last[0], last[1])
	}
	files, err := filepath.Glob("testdata/vllm/*")
	if err != nil {
		t.Fatal(err)
	}
	// Every file of testdata/vllm and every CloudAI run (a trial or a skip each).
	if last[1] < len(files) || last[1] > len(files)+len(d.Trials)+len(d.Skipped) {
		t.Errorf("Progress counted %d inputs; testdata/vllm has %d files, and Load found %d trials and %d skips",
			last[1], len(files), len(d.Trials), len(d.Skipped))
	}
}

// TestLoadUnlistableDir: a directory below the one named that cannot be
// listed is a skip with code error naming it, and every other file of
// the tree is still read. Made deterministic by removing the directory
// between the listing of its parent and its own (WalkDir visits in
// lexical order: a.json, through Ignore, removes z/); with permissions
// too when the test does not run as root (root lists a mode-000
// directory).
func TestLoadUnlistableDir(t *testing.T) {
	data, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "z")
	if err := os.MkdirAll(filepath.Join(gone, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	remove := func(path string) bool {
		if filepath.Base(path) == "a.json" {
			os.RemoveAll(gone)
		}
		return false
	}
	check := func(d *Dataset, what string) {
		t.Helper()
		if len(d.Trials) != 1 || d.Trials[0].Source.Path != filepath.Join(dir, "a.json") {
			t.Errorf("%s: %d trials; want the one of a.json", what, len(d.Trials))
		}
		if len(d.Skipped) != 1 || d.Skipped[0].Path != gone || d.Skipped[0].Code != SkipError || !strings.Contains(d.Skipped[0].Reason, gone) {
			t.Errorf("%s: skipped %+v; want one error naming %s", what, d.Skipped, gone)
		}
		if d.Failed() != 1 {
			t.Errorf("%s: Failed() = %d; want 1", what, d.Failed())
		}
	}
	d, err := Load([]string{dir}, LoadOptions{Ignore: remove})
	if err != nil {
		t.Fatalf("Load: %v; want the readable files read", err)
	}
	check(d, "removed while walked")

	if os.Geteuid() == 0 {
		t.Log("running as root: a mode-000 directory is listable, that case is not checked")
		return
	}
	if err := os.MkdirAll(filepath.Join(gone, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(gone, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(gone, 0o755) })
	d, err = Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v; want the readable files read", err)
	}
	check(d, "mode 000")
}

// TestUTF8BOM: a UTF-8 byte order mark before a real result (as an
// editor on Windows saves it) is dropped: the trials are those of the
// file without it, read in memory or streamed (the vLLM file is larger
// than StreamThreshold).
func TestUTF8BOM(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{
		"testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json",
		"testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json",
		"testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl",
	} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plain := filepath.Join(dir, "plain-"+filepath.Base(f))
		marked := filepath.Join(dir, "bom-"+filepath.Base(f))
		if err := os.WriteFile(plain, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(marked, append([]byte("\xef\xbb\xbf"), data...), 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := Load([]string{plain}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load([]string{marked}, LoadOptions{})
		if err != nil {
			t.Errorf("%s with a BOM: %v", f, err)
			continue
		}
		if len(got.Trials) == 0 || len(got.Trials) != len(want.Trials) {
			t.Errorf("%s with a BOM: %d trials; want %d", f, len(got.Trials), len(want.Trials))
			continue
		}
		for i := range want.Trials {
			if !reflect.DeepEqual(got.Trials[i].Measurements, want.Trials[i].Measurements) || !reflect.DeepEqual(got.Trials[i].Params, want.Trials[i].Params) {
				t.Errorf("%s with a BOM: trial %d differs from the file without it", f, i)
			}
		}
	}
}

// TestLoadNamedTwice: a file named twice, however written, or named and
// found in a directory also named, is one measurement, not two repeats
// (which would halve the noise a gate sees); a directory named twice is
// walked once.
func TestLoadNamedTwice(t *testing.T) {
	const dir = "testdata/vllm"
	file := dir + "/surajssd_llama33-70b_tp8_qps_04.json"
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	once, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{
		{file, file},
		{file, "./" + file, abs},
		{dir, dir + "/"},
		{dir, file},
		{file, dir},
	} {
		d, err := Load(paths, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := len(once.Trials)
		if !slices.Contains(paths, dir) {
			want = 1
		}
		if len(d.Trials) != want {
			t.Errorf("Load(%q) = %d trials; want %d", paths, len(d.Trials), want)
		}
		ids := map[string]bool{}
		for _, tr := range d.Trials {
			if ids[tr.ID] {
				t.Errorf("Load(%q): trial %s twice", paths, tr.ID)
			}
			ids[tr.ID] = true
		}
	}
}
