package ingest

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// unseen holds real files from public repositories that no reader here was
// written against (testdata/unseen/README.md).
const unseen = "testdata/unseen"

// TestUnseenResults reads each real result file with the values it holds
// (taken from the file by hand, seconds converted to ms), named alone.
func TestUnseenResults(t *testing.T) {
	perMinute := 47.693122662953904 // LLMPerf's results_num_completed_requests_per_min
	type want struct {
		sel   string
		value float64
		unit  string
	}
	for _, tt := range []struct {
		file              string
		format            string
		trials            int
		succeeded, failed int64
		workload          trial.Workload
		values            []want
		labels            map[string]string
		params            map[string]string
		layout            string // trial.Source.FormatVersion, when checked
	}{
		{file: "aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export_aiperf.json", format: "aiperf-json", trials: 1,
			succeeded: 89, failed: 11,
			workload: trial.Workload{OutputTokens: 250, MeanInputTokens: 550, MeanOutputTokens: 242.96629213483146, Concurrency: 100, Requests: 100},
			values: []want{{"ttft.p50", 2369.317693, "ms"}, {"ttft.p99", 3833.3894000399996, "ms"},
				{"tpot.p99", 33.73224787406911, "ms"}, {"itl.p50", 22.673047999999998, "ms"},
				{"output_token_throughput", 2320.7222350404572, "tokens/s"}, {"request_throughput", 9.551622221540914, "requests/s"},
				{"duration", 9.317788951 * 1000, "ms"}, {"error_rate", 0.11, "ratio"}},
			labels: map[string]string{"model": "openai/gpt-oss-20b"}},
		// The CSV twin, named alone: the same run, rounded to 2 decimals.
		{file: "aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export_aiperf.csv", format: "aiperf-csv", trials: 1,
			succeeded: 89, failed: 11,
			values: []want{{"ttft.p50", 2369.32, "ms"}, {"ttft.p99", 3833.39, "ms"}, {"tpot.p99", 33.73, "ms"}, {"itl.p50", 22.67, "ms"},
				{"output_token_throughput", 2320.72, "tokens/s"}, {"request_throughput", 9.55, "requests/s"}}},
		{file: "inference-perf_kubecon-na-2025_vllm-eagle_stage_3_lifecycle_metrics.json", format: "inference-perf", trials: 1,
			succeeded: 3149, failed: 0, workload: trial.Workload{RequestRate: 52.49},
			values: []want{{"ttft.p99", 0.07221136546693742 * 1000, "ms"}, {"tpot.p50", 0.01075134051282804 * 1000, "ms"},
				{"itl.p50", 4.890596028417349e-05 * 1000, "ms"}, {"output_token_throughput", 3252.1766733415284, "tokens/s"},
				{"request_throughput", 51.63746915121225, "requests/s"}}},
		// LLMPerf on TGI (the summary a test here was written against is vLLM's).
		{file: "llmperf_yi-34b_tgi_4xa10g_c16_550_150_summary.json", format: "llmperf", trials: 1, succeeded: 112, failed: 0,
			values: []want{{"ttft.p99", 8.589655189989926 * 1000, "ms"}, {"e2el.p50", 17.63698271300018 * 1000, "ms"},
				{"output_token_throughput", 126.21644247588873, "tokens/s"}, {"request_throughput", perMinute / 60, "requests/s"}},
			labels: map[string]string{"model": "01-ai/Yi-1.5-34B-Chat"}, params: map[string]string{"num_concurrent_requests": "16"},
			// LLMPerf's RESULTS_VERSION (src/llmperf/utils.py): its results
			// format's version, the layout; LLMPerf writes no version of its own.
			layout: "2023-08-31"},
		// Second round (checked after the readers landed): LLMPerf on vLLM at
		// 64 concurrent requests, an inference-perf stage of another demo,
		// and vLLM-Ascend's benchmark_serving result of Mar 2025 with
		// latencies only (no completed, no throughputs).
		{file: "llmperf_yi-34b_vllm_4xa10g_c64_550_150_summary.json", format: "llmperf", trials: 1, succeeded: 128, failed: 0,
			workload: trial.Workload{InputTokens: 550, OutputTokens: 150, MeanInputTokens: 550, MeanOutputTokens: 159.40625, Concurrency: 64},
			values: []want{{"ttft.p99", 30.57152236029999 * 1000, "ms"}, {"e2el.p50", 48.924262237999756 * 1000, "ms"},
				{"output_token_throughput", 135.38240586364088, "tokens/s"}, {"request_throughput", 50.95750230507558 / 60, "requests/s"}},
			params: map[string]string{"num_concurrent_requests": "64"}, layout: "2023-08-31"},
		{file: "inference-perf_kubecon-na-2025_vllm-quantization_stage_0_lifecycle_metrics.json", format: "inference-perf", trials: 1,
			succeeded: 60, failed: 0, workload: trial.Workload{RequestRate: 1},
			values: []want{{"ttft.p99", 0.040942011214792726 * 1000, "ms"}, {"tpot.p50", 0.003441656821465134 * 1000, "ms"},
				{"output_token_throughput", 62.57779895596327, "tokens/s"}, {"request_throughput", 1.000977855867181, "requests/s"}}},
		{file: "vllm-ascend_nv-action_tem_res_serving_llama8B_tp1_1.json", format: "vllm", trials: 1, failed: -1,
			workload: trial.Workload{RequestRate: 1, Requests: 200},
			values: []want{{"ttft.p99", 165.47399744391114, "ms"}, {"tpot.p50", 40.27887061310954, "ms"},
				{"itl.p99", 83.89740884304047, "ms"}, {"ttft.mean", 111.23647520318627, "ms"}},
			labels: map[string]string{"date": "20250304-014141"}, layout: "benchmark_serving"},
		// genai-perf analyze's sweep table (Dec 2024): 5 run configs.
		{file: "genai-perf_perf-analyzer_analyze_export_genai_perf.csv", format: "genai-perf-analyze", trials: 5, failed: -1,
			workload: trial.Workload{InputTokens: 200, Concurrency: 32},
			values: []want{{"ttft.p99", 184.43, "ms"}, {"tpot.p99", 30.90, "ms"}, {"e2el.p99", 3406.24, "ms"},
				{"output_sequence_length.p99", 125.98, "tokens"}, {"output_token_throughput", 1134.92, "tokens/s"},
				{"request_throughput", 10.12, "requests/s"}},
			labels: map[string]string{"run_config": "gpt2_run_config_3"},
			params: map[string]string{"concurrency": "32", "isl": "200", "num_prompts": "175"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			ts, err := ReadFile(filepath.Join(unseen, tt.file))
			if err != nil || len(ts) != tt.trials {
				t.Fatalf("ReadFile = %d trials, %v; want %d", len(ts), err, tt.trials)
			}
			tr := &ts[0]
			if tr.Source.Format != tt.format || tr.Succeeded != tt.succeeded || tr.Failed != tt.failed {
				t.Errorf("format %s, succeeded %d, failed %d; want %s, %d, %d", tr.Source.Format, tr.Succeeded, tr.Failed, tt.format, tt.succeeded, tt.failed)
			}
			if tt.layout != "" && (tr.Source.FormatVersion != tt.layout || tr.Labels[trial.LabelToolVersion] != "") {
				t.Errorf("layout %q, tool version %q; want %q and none", tr.Source.FormatVersion, tr.Labels[trial.LabelToolVersion], tt.layout)
			}
			if tt.workload != (trial.Workload{}) && tr.Workload != tt.workload {
				t.Errorf("workload %+v; want %+v", tr.Workload, tt.workload)
			}
			for _, w := range tt.values {
				if m := value(t, tr, w.sel); m.Value != w.value || m.Unit != w.unit {
					t.Errorf("%s = %v %s; want %v %s", w.sel, m.Value, m.Unit, w.value, w.unit)
				}
			}
			for k, v := range tt.labels {
				if tr.Labels[k] != v {
					t.Errorf("label %s = %q; want %q", k, tr.Labels[k], v)
				}
			}
			for k, v := range tt.params {
				if tr.Params[k] != v {
					t.Errorf("param %s = %q; want %q", k, tr.Params[k], v)
				}
			}
		})
	}
	// The analyze table's other rows, in file order.
	ts, _ := ReadFile(filepath.Join(unseen, "genai-perf_perf-analyzer_analyze_export_genai_perf.csv"))
	var ttft []float64
	for i := range ts {
		ttft = append(ttft, value(t, &ts[i], "ttft.p99").Value)
	}
	if want := []float64{184.43, 230.99, 182.46, 185.61, 195.49}; !slices.Equal(ttft, want) {
		t.Errorf("analyze ttft.p99 per row %v; want %v", ttft, want)
	}
}

// TestUnseenNotResults checks that the real look-alikes are skipped as
// not_a_result, named alone and inside a folder with the results (the
// README too), where each run gives one trial (the AIPerf CSV is the
// JSON's duplicate). TestLookAlikes checks the reasons, TestRenamedSameID
// renamed copies.
func TestUnseenNotResults(t *testing.T) {
	for _, f := range unseenLooks {
		d, err := Load([]string{filepath.Join(unseen, f)}, LoadOptions{})
		if err != nil || len(d.Trials) != 0 || len(d.Skipped) != 1 || d.Skipped[0].Code != trial.SkipNotResult {
			t.Errorf("%s alone: %d trials, skips %+v, %v; want one not_a_result", f, len(d.Trials), d.Skipped, err)
		}
	}
	d, err := Load([]string{unseen}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]int{}
	for _, tr := range d.Trials {
		formats[tr.Source.Format]++
	}
	if want := map[string]int{"aiperf-json": 1, "inference-perf": 2, "genai-perf-analyze": 5, "llmperf": 2, "vllm": 1}; !maps.Equal(formats, want) {
		t.Errorf("folder: trials per format %v; want %v", formats, want)
	}
	codes := map[string]string{}
	for _, s := range d.Skipped {
		codes[filepath.Base(s.Path)] = s.Code
	}
	want := map[string]string{"aiperf-repo_examples-artifacts-run1_gpt-oss-20b_c100_profile_export_aiperf.csv": SkipDuplicate,
		"README.md": trial.SkipNotResult}
	for _, f := range unseenLooks {
		want[f] = trial.SkipNotResult
	}
	if !maps.Equal(codes, want) {
		t.Errorf("folder: skips %v; want %v", codes, want)
	}
}

// sameTrial compares two trials field by field (measurements in order).
func sameTrial(a, b *trial.Trial) bool {
	return maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Params, b.Params) && a.Workload == b.Workload &&
		a.Succeeded == b.Succeeded && a.Failed == b.Failed && a.Problem == b.Problem &&
		slices.EqualFunc(a.Measurements, b.Measurements, func(x, y trial.Measurement) bool {
			return x.Metric == y.Metric && x.Value == y.Value && x.Unit == y.Unit && x.Native == y.Native && x.Dims.String() == y.Dims.String()
		})
}
