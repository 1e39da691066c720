package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestRecordedGPUs: the parallel sizes a file records of its server
// (SGLang's server_info, vLLM's --metadata tensor_parallel_size=N) give its
// trials serving GPUs and per-serving-GPU throughput without --gpus, with
// SGLang's rule for DP attention; --gpus wins; a disaggregated role's or a
// malformed record gives no count, and says why.
func TestRecordedGPUs(t *testing.T) {
	const modern = "testdata/synthetic/synthetic_sglang_modern.jsonl"
	data, err := os.ReadFile(modern)
	if err != nil {
		t.Fatal(err)
	}
	line1, _, _ := strings.Cut(string(data), "\n")
	const info = `"server_info": {"model_path": "Qwen/Qwen3-8B", "served_model_name": "qwen3-8b", "tp_size": 2, "dp_size": 1, "version": "0.5.6"}`
	if !strings.Contains(line1, info) {
		t.Fatalf("%s's first line has no %s", modern, info)
	}
	sglang := func(serverInfo string) string { return strings.Replace(line1, info, `"server_info": `+serverInfo, 1) }
	data, err = os.ReadFile("testdata/synthetic/synthetic_vllm_bench_serve_append.json")
	if err != nil {
		t.Fatal(err)
	}
	vline, _, _ := strings.Cut(string(data), "\n")
	vllm := func(metadata string) string { return strings.Replace(vline, `"date"`, metadata+`, "date"`, 1) }

	for _, tt := range []struct {
		name, file string
		gpus       trial.GPUs
		want       int    // serving GPUs, 0 for none
		why        string // the reason the serving GPUs are unknown, when want is 0
		tp, dp     int    // the layout's, when want > 0 and gpus is zero
	}{
		{name: "fixture tp2", file: modern, want: 2, tp: 2, dp: 1},
		{name: "tp4 dp2", file: sglang(`{"tp_size": 4, "dp_size": 2, "pp_size": 1, "enable_dp_attention": false, "nnodes": 1}`), want: 8, tp: 4, dp: 2},
		{name: "dp attention", file: sglang(`{"tp_size": 8, "dp_size": 8, "enable_dp_attention": true}`), want: 8, tp: 8, dp: 8},
		{name: "pipeline over nodes", file: sglang(`{"tp_size": 8, "pp_size": 2, "nnodes": 2}`), want: 16, tp: 8, dp: 1},
		{name: "gpus win", file: sglang(`{"tp_size": 4, "dp_size": 2}`), gpus: trial.GPUs{Total: 16}, want: 16},
		{name: "disaggregated prefill", file: sglang(`{"tp_size": 4, "disaggregation_mode": "prefill"}`), why: "prefill server of a disaggregated deployment"},
		{name: "not an integer", file: sglang(`{"tp_size": "four"}`), why: `server_info.tp_size "four" is not an integer`},
		{name: "too many GPUs", file: sglang(`{"tp_size": 2048, "dp_size": 1024}`), why: "more than 1048576 GPUs"},
		{name: "no sizes", file: sglang(`{"version": "0.5.6"}`)},
		{name: "vllm metadata", file: vllm(`"tensor_parallel_size": "8"`), want: 8, tp: 8, dp: 1},
		{name: "vllm tp dp", file: vllm(`"tensor_parallel_size": "2", "data_parallel_size": "4"`), want: 8, tp: 2, dp: 4},
		{name: "vllm without", file: vllm(`"label2": "x"`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.file
			if !strings.HasPrefix(path, "testdata/") {
				path = filepath.Join(t.TempDir(), "result.jsonl")
				if err := os.WriteFile(path, []byte(tt.file+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Load([]string{path}, LoadOptions{GPUs: tt.gpus})
			if err != nil || len(d.Trials) == 0 {
				t.Fatalf("Load: %v, %d trials, skipped %+v", err, len(d.Trials), d.Skipped)
			}
			tr := d.Trials[0]
			dep := tr.Deployment
			perServe := findMeasurement(tr, trial.OutputTokenThroughputPerServe, "")
			switch {
			case tt.want == 0 && tt.why == "":
				if dep != nil || perServe != nil {
					t.Errorf("deployment %+v, %s %+v; want none", dep, trial.OutputTokenThroughputPerServe, perServe)
				}
				return
			case tt.want == 0:
				if dep == nil || dep.ServingGPUs != 0 || !strings.Contains(dep.ServingGPUsUnknown, tt.why) || perServe != nil {
					t.Fatalf("deployment %+v, %s %+v; want no count because %q", dep, trial.OutputTokenThroughputPerServe, perServe, tt.why)
				}
				return
			}
			if dep == nil || dep.ServingGPUs != tt.want {
				t.Fatalf("deployment %+v, want %d serving GPUs", dep, tt.want)
			}
			out := findMeasurement(tr, trial.OutputTokenThroughput, "")
			if out == nil || perServe == nil || perServe.Value != out.Value/float64(tt.want) {
				t.Errorf("%s = %+v, want %v / %d", trial.OutputTokenThroughputPerServe, perServe, out, tt.want)
			}
			if tt.gpus.Total > 0 {
				if dep.AllocatedGPUs != tt.gpus.Total {
					t.Errorf("--gpus %v: allocated %d", tt.gpus, dep.AllocatedGPUs)
				}
				return
			}
			if dep.AllocatedGPUs != 0 || findMeasurement(tr, trial.OutputTokenThroughputPerAlloc, "") != nil ||
				!strings.Contains(trial.PerGPUUnknown(&tr, trial.OutputTokenThroughputPerAlloc), "not the GPUs allocated") {
				t.Errorf("allocated GPUs %d (%q); want unknown, with why", dep.AllocatedGPUs, dep.AllocatedGPUsUnknown)
			}
			if l := dep.Layout; l == nil || len(l.Roles) != 1 || l.Roles[0].TP != tt.tp || l.Roles[0].DP != tt.dp || l.Roles[0].GPUs() != tt.want {
				t.Errorf("layout %+v, want one role TP %d DP %d of %d GPUs", l, tt.tp, tt.dp, tt.want)
			}
		})
	}
}

// BenchmarkRecordedDeployment: the look-up Load makes for every trial read
// from a file, on an SGLang trial without server sizes and with them.
func BenchmarkRecordedDeployment(b *testing.B) {
	for _, bc := range []struct {
		name   string
		params map[string]string
	}{
		{"server_info=none", map[string]string{"backend": "sglang", "dataset_name": "random", "server_info.version": "0.5.9"}},
		{"server_info=tp4dp2", map[string]string{"backend": "sglang", "server_info.tp_size": "4", "server_info.dp_size": "2",
			"server_info.pp_size": "1", "server_info.enable_dp_attention": "false", "server_info.nnodes": "1"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tr := trial.Trial{Source: trial.Source{Format: string(FormatSGLang)}, Params: bc.params}
			for b.Loop() {
				_ = recordedDeployment(&tr)
			}
		})
	}
}
