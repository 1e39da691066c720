package cloudai

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exampleDir is the shipped example: scenario, tests and results tree.
const exampleDir = "../examples/cloudai"

// withoutTestRuns copies the example results tree into a temp dir and
// removes every test-run.toml, as when CloudAI's runs did not store them.
func withoutTestRuns(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "results")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(exampleDir, "results"))); err != nil {
		t.Fatal(err)
	}
	removed := 0
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == testRunFile {
			removed++
			return os.Remove(p)
		}
		return err
	})
	if err != nil || removed != 9 {
		t.Fatalf("removed %d test-run.toml files (%v); want 9", removed, err)
	}
	return dst
}

// exampleOptions reads the example's scenario and tests.
func exampleOptions(t *testing.T) WalkOptions {
	t.Helper()
	sc, err := ReadScenario(filepath.Join(exampleDir, "scenario.toml"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := LoadTests(filepath.Join(exampleDir, "tests"))
	if err != nil {
		t.Fatal(err)
	}
	return WalkOptions{GPUsPerNode: 8, System: "example-h100", Scenario: sc, Tests: tests}
}

// TestWalkScenarioWithoutTestRun walks the example tree twice with its
// scenario: as shipped (each run's executed test-run.toml) and with every
// test-run.toml removed (the scenario, its test TOMLs and the DSE
// trajectory). Both must give the same points, parameters, layouts and GPU
// counts, and the same failed iteration.
func TestWalkScenarioWithoutTestRun(t *testing.T) {
	opts := exampleOptions(t)
	shipped := filepath.Join(exampleDir, "results")
	wantRuns, wantExcl, err := Walk(shipped, opts)
	if err != nil {
		t.Fatal(err)
	}
	bare := withoutTestRuns(t)
	runs, excl, err := Walk(bare, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runIDs(runs), runIDs(wantRuns); !slices.Equal(got, want) || len(got) != 9 {
		t.Fatalf("runs without test-run.toml = %v; want %v (9)", got, want)
	}
	for i, r := range runs {
		w := wantRuns[i]
		if r.ConfigFrom != ConfigFromScenario || r.ConfigPath != "" || w.ConfigFrom != ConfigFromTestRun {
			t.Errorf("%s: config from %q (%q), shipped from %q; want scenario, test-run.toml", r.ID(), r.ConfigFrom, r.ConfigPath, w.ConfigFrom)
		}
		if got, want := paramList(r.Params), paramList(w.Params); got != want {
			t.Errorf("%s: params\n got %s\nwant %s", r.ID(), got, want)
		}
		if r.Nodes != w.Nodes || r.AllocatedGPUs != w.AllocatedGPUs || r.ServingGPUs != w.ServingGPUs || r.CloudAIGPUs != w.CloudAIGPUs {
			t.Errorf("%s: nodes/allocated/serving/cloudai = %d/%d/%d/%d; want %d/%d/%d/%d", r.ID(),
				r.Nodes, r.AllocatedGPUs, r.ServingGPUs, r.CloudAIGPUs, w.Nodes, w.AllocatedGPUs, w.ServingGPUs, w.CloudAIGPUs)
		}
		if DescribeLayout(r.Layout) != DescribeLayout(w.Layout) {
			t.Errorf("%s: layout\n%s\nwant\n%s", r.ID(), DescribeLayout(r.Layout), DescribeLayout(w.Layout))
		}
		if got, want := relFiles(bare, r.Files), relFiles(shipped, w.Files); got != want {
			t.Errorf("%s: files %s; want %s", r.ID(), got, want)
		}
		if r.Labels["gpu"] != w.Labels["gpu"] || r.Labels["cuda"] != w.Labels["cuda"] || r.Labels["engine"] != w.Labels["engine"] || r.Labels["model"] != w.Labels["model"] {
			t.Errorf("%s: labels %v; want those of %v", r.ID(), r.Labels, w.Labels)
		}
		if !slices.Contains(r.Warnings, "no test-run.toml: parameters are the scenario's, not a record of the executed run") {
			t.Errorf("%s: warnings %q lack the no-test-run.toml warning", r.ID(), r.Warnings)
		}
	}
	if len(excl) != len(wantExcl) {
		t.Fatalf("exclusions = %+v; want %+v", excl, wantExcl)
	}
	for i, x := range excl {
		w := wantExcl[i]
		if x.Case != w.Case || x.Iteration != w.Iteration || x.Code != w.Code || x.Reason != w.Reason {
			t.Errorf("exclusion[%d] = %+v; want %+v", i, x, w)
		}
	}
	if len(excl) != 1 || excl[0].Code != ExcludeRunFailed || excl[0].Reason != "vllm-bench.log has no benchmark result block" {
		t.Errorf("exclusions = %+v; want the failed vllm.agg.1node iteration 2", excl)
	}
}

// paramList renders params for comparison.
func paramList(ps []Param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.String())
	}
	return strings.Join(parts, " ")
}

// relFiles renders files relative to root.
func relFiles(root string, fs []File) string {
	var parts []string
	for _, f := range fs {
		rel, _ := filepath.Rel(root, f.Path)
		parts = append(parts, filepath.ToSlash(rel)+":"+string(f.Kind))
	}
	return strings.Join(parts, " ")
}

// TestWalkScenarioEdgeCases covers the scenario-driven walk one case at a
// time: runs come from the scenario's cases, test-run.toml is optional.
func TestWalkScenarioEdgeCases(t *testing.T) {
	const vllmLog = vllmResultHeader + "\nSuccessful requests: 10\n"
	const sglangOK = `{"completed": 3}` + "\n"
	vllmTest := &TestDefinition{Name: "vllm", TestTemplateName: "vllm", CmdArgs: map[string]any{
		"model": "m", "decode": map[string]any{"tensor_parallel_size": int64(2)}}}
	sglangTest := &TestDefinition{Name: "sglang", TestTemplateName: "sglang", CmdArgs: map[string]any{
		"decode": map[string]any{"tp": []any{int64(1), int64(2)}}}}
	tests := map[string]*TestDefinition{"vllm": vllmTest, "sglang": sglangTest}
	for _, tt := range []struct {
		name     string
		scenario string
		files    map[string]string
		tests    map[string]*TestDefinition
		runs     string // "id nodes serving params" per run, joined by "|"
		excl     string // "case/iter/step/phase code: reason" joined by "|"
		warning  string // a warning every run carries, if any
	}{
		{"iterations without test-run.toml are points", "[[Tests]]\nid = \"a\"\ntest_name = \"vllm\"\nnum_nodes = 1\niterations = 3\n",
			map[string]string{"a/0/vllm-bench.json": "{}", "a/0/vllm-bench.log": vllmLog,
				"a/1/vllm-bench.json": "{}", "a/1/vllm-bench.log": vllmLog, "a/2/vllm-bench.log": "crashed\n"}, tests,
			"a/0/0/ 1 2 decode.tensor_parallel_size=2 model=m num_nodes=1|a/1/0/ 1 2 decode.tensor_parallel_size=2 model=m num_nodes=1",
			"a/2/0/ run_failed: vllm-bench.log has no benchmark result block", ""},
		{"the scenario's overrides are merged over the test", "[[Tests]]\nid = \"a\"\ntest_name = \"vllm\"\n[Tests.cmd_args.decode]\ntensor_parallel_size = 4\n",
			map[string]string{"a/0/vllm-bench.json": "{}", "a/0/vllm-bench.log": vllmLog}, tests,
			"a/0/0/ 1 4 decode.tensor_parallel_size=4 model=m num_nodes=1", "", ""},
		{"test-run.toml wins when present", "[[Tests]]\nid = \"a\"\ntest_name = \"vllm\"\n",
			map[string]string{"a/0/vllm-bench.json": "{}", "a/0/vllm-bench.log": vllmLog,
				"a/0/test-run.toml": "nnodes = 2\n[test_definition]\nname = \"vllm\"\ntest_template_name = \"vllm\"\n[test_definition.cmd_args.decode]\ntensor_parallel_size = 8\n"},
			nil, "a/0/0/ 2 8 decode.tensor_parallel_size=8 num_nodes=2", "", ""},
		{"DSE steps take their action from trajectory.csv", "[[Tests]]\nid = \"d\"\ntest_name = \"sglang\"\nnum_nodes = [1, 2]\n",
			map[string]string{"d/0/1/sglang-bench.jsonl": sglangOK, "d/0/2/sglang-bench.jsonl": sglangOK,
				"d/0/trajectory.csv": "step,action,reward,observation\n1,\"{'decode.tp': 1, 'NUM_NODES': 1}\",0.5,[1.0]\n" +
					"2,\"{'decode.tp': 2, 'NUM_NODES': 2, 'extra_env_vars.X': 'y'}\",0.7,[2.0]\n"}, tests,
			"d/0/1/ 1 1 decode.tp=1 num_nodes=1|d/0/2/ 2 2 decode.tp=2 extra_env_vars.X=y num_nodes=2", "", ""},
		{"DSE steps from trajectory.jsonl", "[[Tests]]\nid = \"d\"\ntest_name = \"sglang\"\n",
			map[string]string{"d/0/1/sglang-bench.jsonl": sglangOK,
				"d/0/trajectory.jsonl": `{"step": 1, "action": {"decode.tp": 2}, "reward": 1.0, "observation": [1.0]}` + "\n"}, tests,
			"d/0/1/ 1 2 decode.tp=2 num_nodes=1", "", ""},
		{"a DSE step missing from the trajectory keeps the sweep", "[[Tests]]\nid = \"d\"\ntest_name = \"sglang\"\n",
			map[string]string{"d/0/3/sglang-bench.jsonl": sglangOK, "d/0/trajectory.csv": "step,action,reward,observation\n1,{},0,[]\n"}, tests,
			"d/0/3/ 1 0 decode.tp=[1, 2] num_nodes=1", "", "DSE step 3: swept values unknown (trajectory.csv has no step 3)"},
		{"a DSE step without trajectory", "[[Tests]]\nid = \"d\"\ntest_name = \"sglang\"\n",
			map[string]string{"d/0/1/sglang-bench.jsonl": sglangOK}, tests,
			"d/0/1/ 1 0 decode.tp=[1, 2] num_nodes=1", "", "DSE step 1: swept values unknown (the iteration has no trajectory.csv)"},
		{"a malformed trajectory says where", "[[Tests]]\nid = \"d\"\ntest_name = \"sglang\"\n",
			map[string]string{"d/0/1/sglang-bench.jsonl": sglangOK, "d/0/trajectory.csv": "step,action\n1,{'decode.tp': }\n"}, tests,
			"d/0/1/ 1 0 decode.tp=[1, 2] num_nodes=1", "", "DSE step 1: swept values unknown (ROOT/d/0/trajectory.csv:2: action: offset 14: unexpected \"}\")"},
		{"an inline test needs no test TOML", "[[Tests]]\nid = \"i\"\nname = \"inline\"\ntest_template_name = \"sglang\"\nnum_nodes = 1\n[Tests.cmd_args.decode]\ntp = 4\n",
			map[string]string{"i/0/sglang-bench.jsonl": sglangOK}, nil, "i/0/0/ 1 4 decode.tp=4 num_nodes=1", "", ""},
		{"an unknown test TOML excludes the run", "[[Tests]]\nid = \"a\"\ntest_name = \"vllm\"\n",
			map[string]string{"a/0/vllm-bench.json": "{}", "a/0/vllm-bench.log": vllmLog}, nil, "",
			`a/0/0/ test_unknown: test-run.toml not found, and test case "a" names test_name "vllm", which is not among the given test TOMLs (CloudAI's --tests-dir)`, ""},
		{"cases come from the scenario", "name = \"s\"\n[[Tests]]\nid = \"a\"\ntest_name = \"vllm\"\n[[Tests]]\nid = \"b\"\ntest_name = \"vllm\"\n[[Tests]]\nid = \"c\"\ntest_name = \"vllm\"\n",
			map[string]string{"a/0/vllm-bench.json": "{}", "a/0/vllm-bench.log": vllmLog, "c/notes.txt": "",
				"other/0/vllm-bench.log": vllmLog, "metadata/node-1.toml": "", "assets/x.js": ""}, tests,
			"a/0/0/ 1 2 decode.tensor_parallel_size=2 model=m num_nodes=1",
			`b/-1/0/ result_missing: test case "b" has no results directory|c/-1/0/ result_missing: test case "c" has no iteration directories|` +
				`other/-1/0/ not_in_scenario: directory "other" holds iterations but is no test case of scenario "s"; skipped`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			sc, err := DecodeScenario("scenario.toml", []byte(tt.scenario))
			if err != nil {
				t.Fatal(err)
			}
			runs, excl, err := Walk(root, WalkOptions{GPUsPerNode: 8, Scenario: sc, Tests: tt.tests})
			if err != nil {
				t.Fatal(err)
			}
			var gotRuns, gotExcl []string
			for _, r := range runs {
				gotRuns = append(gotRuns, r.ID()+" "+itoa(r.Nodes)+" "+itoa(r.ServingGPUs)+" "+paramList(r.Params))
				if tt.warning != "" && !slices.Contains(r.Warnings, strings.ReplaceAll(tt.warning, "ROOT", root)) {
					t.Errorf("%s: warnings %q lack %q", r.ID(), r.Warnings, tt.warning)
				}
			}
			for _, e := range excl {
				gotExcl = append(gotExcl, e.Case+"/"+itoa(e.Iteration)+"/"+itoa(e.Step)+"/"+e.Phase+" "+e.Code+": "+e.Reason)
			}
			if got := strings.Join(gotRuns, "|"); got != tt.runs {
				t.Errorf("runs =\n%s\nwant\n%s", got, tt.runs)
			}
			if got := strings.Join(gotExcl, "|"); got != tt.excl {
				t.Errorf("exclusions =\n%s\nwant\n%s", got, tt.excl)
			}
		})
	}
}
