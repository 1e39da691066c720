package cloudai

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree creates files (relative path → content) under a temp dir.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// dynamoTestRun is a Dynamo test-run.toml with the given workloads and two
// phases p1 and p2.
const dynamoTestRun = `name = "c"
nnodes = 2
[test_definition]
name = "vLLM"
test_template_name = "AIDynamo"
[test_definition.cmd_args]
workloads = "aiperf.sh,genai_perf.sh"
[test_definition.cmd_args.aiperf]
continue-on-phase-failure = true
[[test_definition.cmd_args.aiperf_phases]]
name = "p1"
[[test_definition.cmd_args.aiperf_phases]]
name = "p2"
`

// TestWalkEdgeCases covers markers and config problems one at a time.
func TestWalkEdgeCases(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		runs  string // "id benchmark files" per run, joined by "|"
		excl  string // "case/iter/step/phase code: reason" joined by "|"
	}{
		{"dynamo failure marker excludes every point", map[string]string{
			"c/0/test-run.toml": dynamoTestRun, "c/0/failure-marker.txt": "worker crashed\nmore\n",
		}, "", "c/0/0/p1 run_failed: failure marker found: worker crashed|c/0/0/p2 run_failed: failure marker found: worker crashed|" +
			"c/0/0/ run_failed: failure marker found: worker crashed"},
		{"dynamo without success marker", map[string]string{"c/0/test-run.toml": dynamoTestRun}, "",
			"c/0/0/p1 run_failed: success marker success-marker.txt not found|c/0/0/p2 run_failed: success marker success-marker.txt not found|" +
				"c/0/0/ run_failed: success marker success-marker.txt not found"},
		{"failed phase under continue-on-phase-failure, genai-perf ok", map[string]string{
			"c/0/test-run.toml": dynamoTestRun, "c/0/success-marker.txt": "",
			"c/0/aiperf_artifacts/p1/profile_export_aiperf.json": "{}", "c/0/aiperf_p1_report.csv": "x",
			"c/0/aiperf_artifacts/p2/profile_export_aiperf.json": "{}",
			"c/0/genai_perf_artifacts/m/profile_genai_perf.json": "{}", "c/0/genai_perf_report.csv": "x",
		}, "c/0/0/p1 aiperf aiperf_artifacts/p1/profile_export_aiperf.json|c/0/0/ genai-perf genai_perf_artifacts/m/profile_genai_perf.json",
			`c/0/0/p2 run_failed: AIPerf phase "p2" did not complete: aiperf_p2_report.csv not written (CloudAI copies it only when the phase exits 0)`},
		{"missing test-run.toml", map[string]string{"c/0/vllm-bench.json": "{}"}, "",
			"c/0/0/ test_unknown: test-run.toml not found, and no test scenario given: the executed configuration is unknown (CloudAI's reporter takes it from --test-scenario and --tests-dir)"},
		{"unknown workload", map[string]string{"c/0/test-run.toml": "[test_definition]\nname = \"n\"\ntest_template_name = \"NcclTest\"\n"}, "",
			`c/0/0/ config_error: CFG: unsupported test template "NcclTest"`},
		{"sglang with no completed record", map[string]string{
			"c/0/test-run.toml":      "nnodes = 1\n[test_definition]\nname = \"s\"\ntest_template_name = \"sglang\"\n",
			"c/0/sglang-bench.jsonl": `{"completed": 0}` + "\n",
		}, "", "c/0/0/ run_failed: sglang-bench.jsonl has no record with completed > 0 (1 record(s))"},
		{"sglang with a record cut short", map[string]string{
			"c/0/test-run.toml":      "nnodes = 1\n[test_definition]\nname = \"s\"\ntest_template_name = \"sglang\"\n",
			"c/0/sglang-bench.jsonl": `{"completed": 3, "median_ttft_ms": 1`,
		}, "c/0/0/ sglang-bench sglang-bench.jsonl", ""},
		{"emptied test-run.toml", map[string]string{"c/0/test-run.toml": "\n# nothing\n", "c/0/vllm-bench.json": "{}"}, "",
			"c/0/0/ error: CFG:1:1: the file has no TOML keys (empty): want a CloudAI configuration"},
		{"malformed test-run.toml", map[string]string{"c/0/test-run.toml": "nnodes = [\n", "c/0/vllm-bench.json": "{}"}, "",
			"c/0/0/ error: CFG:1:11: array is incomplete"},
		{"vllm log ok but JSON missing", map[string]string{
			"c/0/test-run.toml":  "nnodes = 1\n[test_definition]\nname = \"v\"\ntest_template_name = \"vllm\"\n",
			"c/0/vllm-bench.log": vllmResultHeader + "\nSuccessful requests: 0\n",
		}, "", `c/0/0/ run_failed: vllm-bench.log reports "0" successful requests`},
		{"non-numeric step dir", map[string]string{
			"c/0/1/test-run.toml":      "nnodes = 1\n[test_definition]\nname = \"s\"\ntest_template_name = \"sglang\"\n",
			"c/0/1/sglang-bench.jsonl": `{"completed": 3}`,
			"c/0/best/x":               "",
			"c/0/metadata/node-1.toml": "",
			"report-assets/readme.txt": "",
		}, "c/0/1/ sglang-bench sglang-bench.jsonl", `c/0/0/ not_a_run: directory "best" is not a DSE step number; skipped`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			runs, excl, err := Walk(root, WalkOptions{GPUsPerNode: 8})
			if err != nil {
				t.Fatal(err)
			}
			var gotRuns, gotExcl []string
			for _, r := range runs {
				rel, _ := filepath.Rel(r.Dir, r.Files[0].Path)
				gotRuns = append(gotRuns, r.ID()+" "+r.Benchmark+" "+filepath.ToSlash(rel))
			}
			for _, e := range excl {
				reason := strings.ReplaceAll(e.Reason, filepath.Join(root, "c", "0", "test-run.toml"), "CFG")
				gotExcl = append(gotExcl, e.Case+"/"+itoa(e.Iteration)+"/"+itoa(e.Step)+"/"+e.Phase+" "+e.Code+": "+reason)
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

// TestWalkUnknownGPUsPerNode checks that runs say why allocated GPUs are
// unknown while serving GPUs are still counted.
func TestWalkUnknownGPUsPerNode(t *testing.T) {
	runs, _, err := Walk(resultsDir, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := runs[len(runs)-1] // vllm.disagg.4nodes
	if r.AllocatedGPUs != 0 || r.AllocatedGPUsUnknown != "cannot count allocated GPUs: system config does not set gpus_per_node" ||
		r.ServingGPUs != 16 || r.ServingGPUsUnknown != "" {
		t.Errorf("run %s: allocated %d (%q), serving %d (%q)", r.ID(), r.AllocatedGPUs, r.AllocatedGPUsUnknown, r.ServingGPUs, r.ServingGPUsUnknown)
	}
	if _, _, err := Walk(filepath.Join(resultsDir, "nope"), WalkOptions{}); err == nil {
		t.Error("Walk(missing dir) returned no error")
	}
}
