package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestDetectContentOnly: every golden input, real and synthetic, read
// under other names (.json, .jsonl, .csv, a result file's name, no
// extension) gives the same format, labels, parameters and measurements:
// the name never decides the format (byte-identical vLLM --append-result
// output is vLLM as .json and as .jsonl).
func TestDetectContentOnly(t *testing.T) {
	dir := t.TempDir()
	for _, path := range goldenInputs(t) {
		want, werr := ReadFile(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"run.json", "run.jsonl", "run.csv", "profile_export_aiperf.json",
			"profile_export_genai_perf.json", "output.jsonl", "results"} {
			renamed := filepath.Join(dir, name)
			if err := os.WriteFile(renamed, data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, gerr := ReadFile(renamed)
			if (werr == nil) != (gerr == nil) {
				t.Errorf("%s as %s: error %v, want %v", path, name, gerr, werr)
				continue
			}
			if len(got) != len(want) {
				t.Errorf("%s as %s: %d trials, want %d", path, name, len(got), len(want))
				continue
			}
			for i := range got {
				if g, w := summary(&got[i]), summary(&want[i]); g != w {
					t.Errorf("%s as %s, trial %d:\n%s\nwant\n%s", path, name, i, g, w)
				}
			}
		}
	}
}

// summary is what the name must not change in a trial: everything but
// its source path and ID (inference-perf's stage too, read from content).
func summary(t *trial.Trial) string {
	var b strings.Builder
	labels, version := t.Labels, t.Source.FormatVersion
	fmt.Fprintf(&b, "format=%s/%s labels=%v params=%d workload=%+v\n", t.Source.Format, version,
		labels, len(t.Params), t.Workload)
	for _, m := range t.Measurements {
		fmt.Fprintf(&b, "%s%s=%v\n", m.Metric, m.Dims, m.Value)
	}
	return b.String()
}

// TestLoadNotResults: files that are no benchmark result are skipped with
// code not_a_result and what they are, named on their own (not read as a
// generic table) or found in a directory: AIPerf per-request records, a
// benchmark's inputs (renamed as a result file too), a Grafana dashboard,
// a harness's own list of its runs (read as a table, its only numbers are
// load settings), CloudAI configurations (scenario, system, test, node
// metadata) and pareto's own (pareto.toml, a search space).
func TestLoadNotResults(t *testing.T) {
	files := []string{
		"testdata/notresults/dashboard.json",
		"testdata/notresults/inputs.json",
		"testdata/notresults/profile_export.jsonl",
		"testdata/notresults/profile_export_genai_perf.json",
		"../examples/cloudai/scenario.toml",
		"../examples/cloudai/system.toml",
		"../examples/cloudai/tests/vllm.toml",
		"../examples/cloudai/results/metadata/node-001.toml",
		"../examples/noise/pareto.toml",
		"../examples/search/vllm.toml",
		"testdata/notresults/harness_runs.json",
		"testdata/notresults/" + llmperfRequests,
		"testdata/notresults/inference-perf_kubecon-na-2025_vllm-batch_size_summary_lifecycle_metrics.json",
		"testdata/notresults/inference-perf_kubecon-na-2025_vllm-batch_size_stage_3_prometheus_metrics.json",
		"testdata/notresults/inference-perf_kubecon-na-2025_config.yaml",
	}
	wants := []string{"dashboard", "requests a benchmark sends", "per-request records", "requests a benchmark sends",
		"TOML", "TOML", "TOML", "TOML", "TOML", "TOML", "a JSON array", "LLMPerf per-request records",
		"summary across all the stages", "server-side metrics", "YAML document"}
	for i, f := range files {
		d, err := Load([]string{f}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Trials) != 0 || len(d.Skipped) != 1 || d.Skipped[0].Code != trial.SkipNotResult ||
			!strings.Contains(d.Skipped[0].Reason, wants[i]) {
			t.Errorf("%s: %d trials, skipped %+v; want skipped %s saying %q", f, len(d.Trials), d.Skipped, trial.SkipNotResult, wants[i])
		}
	}
	d, err := Load([]string{"testdata/notresults"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range d.Skipped {
		got = append(got, filepath.Base(s.Path)+" "+s.Code)
	}
	want := "README.md not_a_result\ndashboard.json not_a_result\nharness_runs.json not_a_result\n" +
		"inference-perf_kubecon-na-2025_config.yaml not_a_result\n" +
		"inference-perf_kubecon-na-2025_vllm-batch_size_stage_3_prometheus_metrics.json not_a_result\n" +
		"inference-perf_kubecon-na-2025_vllm-batch_size_summary_lifecycle_metrics.json not_a_result\ninputs.json not_a_result\n" +
		llmperfRequests + " not_a_result\nprofile_export.jsonl not_a_result\nprofile_export_genai_perf.json not_a_result\n" +
		"vllm_nightly-benchmarks_serving-tests.json not_a_result"
	if len(d.Trials) != 0 || strings.Join(got, "\n") != want {
		t.Errorf("directory: %d trials, skipped\n%s\nwant\n%s", len(d.Trials), strings.Join(got, "\n"), want)
	}
}
