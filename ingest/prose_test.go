package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestNamedProse: a README named on its own is not_a_result with why, as
// it is inside a folder, not a table's parse error; a Markdown badge
// line starting with '[' is not "a JSON array". The shapes are the heads
// of ray-project/llmperf's README.md (f1d6bed, a '#' title, then a code
// block with a comma at line 22) and kubernetes-sigs/inference-perf's
// (7de5ef2, badge links first). A ragged CSV named alone keeps its
// positioned error, and a JSON array is still named one.
func TestNamedProse(t *testing.T) {
	llmperf := "# LLMPerf\n\nA Tool for evaulation the performance of LLM APIs.\n\n# Installation\n```bash\ngit clone x\n```\n\n" +
		"```\nRandomly stream lines from the following text. Don't generate eos tokens:\nLINE 1,\nLINE 2,\n```\n"
	badges := "[![License](https://img.shields.io/badge/License-Apache_2.0-blue.svg)](https://opensource.org/licenses/Apache-2.0)\n" +
		"[![Tests](https://img.shields.io/github/actions/workflow/status/x/unit_test.yml?branch=main&label=Tests)](https://github.com/x)\n\n# inference-perf\n"
	for _, c := range []struct {
		name, data, code, reason string
	}{
		{"README.md", llmperf, trial.SkipNotResult, NotResultText},
		{"badges.md", badges, trial.SkipNotResult, NotResultText},
		{"ragged.csv", "ttft,b\n1,2\n3\n", SkipError, "ragged.csv:3:1: row has 1 fields, header has 2"},
		{"list.json", "[\n  {\"a\": 1},\n  {\"a\": 2}\n]\n", trial.SkipNotResult, "a JSON array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, in := range []string{path, dir} {
				d, err := Load([]string{in}, LoadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if len(d.Trials) != 0 || len(d.Skipped) != 1 {
					t.Fatalf("%s: %d trials, skips %+v", in, len(d.Trials), d.Skipped)
				}
				s := d.Skipped[0]
				want := c.code
				if in == dir && c.code == SkipError {
					want = trial.SkipNotResult // inside a folder a table is never read
				}
				if s.Code != want || in == path && !strings.Contains(s.Reason, c.reason) {
					t.Errorf("%s: skip %s %q; want %s with %q", in, s.Code, s.Reason, want, c.reason)
				}
			}
		})
	}
}

// TestYAMLReport: a guidellm report written as YAML (guidellm
// --output-path benchmarks.yaml: the JSON report's keys, yaml.dump'd) is
// not_a_result saying what it is and how to get the JSON pareto reads,
// not "a configuration"; inference-perf's config.yaml stays a
// configuration.
func TestYAMLReport(t *testing.T) {
	report := "metadata:\n  version: 1\n  guidellm_version: 0.5.0.dev0\nargs:\n  target: http://0.0.0.0:8000\n" +
		"benchmarks:\n- type_: generative_benchmark\n  metrics:\n    requests_per_second:\n      successful:\n        mean: 1.5\n"
	for _, c := range []struct{ name, data, reason string }{
		{"benchmarks.yaml", report, "a benchmark report written as YAML"},
		{"config.yml", readUnseenConfig(t), "a YAML document (a configuration"},
	} {
		ts, err := ReadBytes([]byte(c.data), c.name)
		var nr *NotResultError
		if !errors.As(err, &nr) || len(ts) != 0 || !strings.HasPrefix(nr.What, c.reason) {
			t.Errorf("%s: %d trials, %v; want not_a_result %q", c.name, len(ts), err, c.reason)
		}
	}
}

// readUnseenConfig is the real inference-perf Kubernetes manifests of
// testdata/unseen, a YAML configuration.
func readUnseenConfig(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(unseen, "inference-perf_kubecon-na-2025_vllm-eagle_manifests.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
