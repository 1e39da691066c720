package ingest

import (
	"testing"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// TestScopeOfRealFiles pins the environment scope (engine, engine
// version, GPU: what compare --by engine and the gate's scope read) and
// the tool version of every real result file, from what each file
// records and nothing else: AIPerf's and guidellm's own versions, vLLM's
// backend, the nightly table's GPU column, SGLang's backend; none of
// these files records an engine version or a GPU model (LLMPerf's and
// inference-perf's not even the engine).
func TestScopeOfRealFiles(t *testing.T) {
	for _, tt := range []struct {
		file, tool, toolVersion, scope string
	}{
		{"testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json", "aiperf", "0.8.0", "(no environment labels)"},
		{"testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json", "guidellm", "0.8.0.dev18", "(no environment labels)"},
		{"testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json", "vllm", "", "engine=vllm"},
		{"testdata/vllm/surajssd_llama33-70b_tp8_nightly_benchmark_results.json", "vllm", "", "gpu=1xStandard_ND96asr_v4 x 1"},
		{"testdata/sglang/datacrunch_2024-12_llama_405b_online_output.jsonl", "sglang", "", "engine=sglang"},
		{"testdata/llmperf/llmperf_yi-34b_vllm_4xa10g_c8_550_150_summary.json", "llmperf", "", "(no environment labels)"},
		{"testdata/other/inference-perf_kubecon-na-2025_vllm-batch_size_stage_0_lifecycle_metrics.json", "inference-perf", "", "(no environment labels)"},
	} {
		ts, err := ReadFile(tt.file)
		if err != nil || len(ts) == 0 {
			t.Fatalf("%s: %d trials, %v", tt.file, len(ts), err)
		}
		for i := range ts {
			l := ts[i].Labels
			if s := repeat.ScopeOf(&ts[i]).String(); s != tt.scope || l[trial.LabelTool] != tt.tool || l[trial.LabelToolVersion] != tt.toolVersion {
				t.Errorf("%s trial %d: scope %q tool %q %q; want %q tool %q %q", tt.file, i, s, l[trial.LabelTool], l[trial.LabelToolVersion], tt.scope, tt.tool, tt.toolVersion)
			}
		}
	}
}

// TestScopeOfCloudAIRuns: a CloudAI run's scope joins its result file's
// to what CloudAI records (the engine of the test, the GPU of the node
// metadata, the CUDA and driver versions when the metadata has them), and
// its image's Dynamo release is the scope's dynamo_version, not the engine
// version.
func TestScopeOfCloudAIRuns(t *testing.T) {
	d, err := Load([]string{"../cloudai/testdata/results/scenario_2026-08-06_10-00-00"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"vllm.agg.1node/0/0/":                          {"engine=vllm cuda=12.8.1 driver=570.124.06 gpu=H100 dynamo_version=1.1.1", "1.1.1"},
		"vllm.disagg.4nodes/0/0/":                      {"engine=vllm gpu=H100", ""},
		"sglang.dse/0/1/":                              {"engine=sglang gpu=H100", ""},
		"test.disagg.single-node/0/0/round_1":          {"engine=vllm gpu=GB200 dynamo_version=1.1.1", "1.1.1"},
		"test.disagg.1p1d.multinode-wideep/0/0/aiperf": {"engine=sglang gpu=H100 dynamo_version=1.3.1", "1.3.1"},
	}
	seen := 0
	for i := range d.Trials {
		tr := &d.Trials[i]
		w, ok := want[tr.Labels["run"]]
		if !ok {
			continue
		}
		seen++
		if s := repeat.ScopeOf(tr).String(); s != w[0] || tr.Labels[trial.LabelDynamoVersion] != w[1] {
			t.Errorf("%s: scope %q dynamo_version %q; want %q %q", tr.Labels["run"], s, tr.Labels[trial.LabelDynamoVersion], w[0], w[1])
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d runs", seen, len(want))
	}
}
