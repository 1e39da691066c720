package cloudai

import (
	"fmt"
	"testing"
)

// benchRunFiles returns the files of one generated run directory.
func benchRunFiles(kind string, i int) map[string]string {
	switch kind {
	case "vllm":
		return map[string]string{
			"test-run.toml": fmt.Sprintf("nnodes = 1\n[test_definition]\nname = \"vllm\"\ntest_template_name = \"vllm\"\n"+
				"[test_definition.cmd_args.decode]\ntensor_parallel_size = %d\n[test_definition.extra_env_vars]\nCUDA_VISIBLE_DEVICES = \"0,1,2,3\"\n", 1<<(i%3)),
			"vllm-bench.log":  vllmResultHeader + "\nSuccessful requests: 100\n",
			"vllm-bench.json": `{"completed": 100}`,
		}
	case "sglang":
		return map[string]string{
			"test-run.toml":      "nnodes = 2\n[test_definition]\nname = \"sglang\"\ntest_template_name = \"sglang\"\n[test_definition.cmd_args.prefill]\ntp = 4\n[test_definition.cmd_args.decode]\ntp = 4\n",
			"sglang-bench.jsonl": `{"completed": 100, "request_rate": Infinity}` + "\n" + `{"completed": 50}` + "\n",
		}
	}
	return map[string]string{
		"test-run.toml":        dynamoTestRun,
		"success-marker.txt":   "",
		"aiperf_p1_report.csv": "x", "aiperf_p2_report.csv": "x", "genai_perf_report.csv": "x",
		"aiperf_artifacts/p1/profile_export_aiperf.json": "{}",
		"aiperf_artifacts/p2/profile_export_aiperf.json": "{}",
	}
}

// BenchmarkWalk walks a generated results tree of 1,000 run directories
// (10 cases × 100 iterations, vLLM, SGLang and 2-phase Dynamo cases mixed).
func BenchmarkWalk(b *testing.B) {
	const cases, iters = 10, 100
	files := map[string]string{}
	for c := range cases {
		kind := []string{"vllm", "sglang", "dynamo"}[c%3]
		for it := range iters {
			for name, content := range benchRunFiles(kind, it) {
				files[fmt.Sprintf("case%02d.%s/%d/%s", c, kind, it, name)] = content
			}
		}
	}
	root := writeTree(b, files)
	b.Run(fmt.Sprintf("runs=%d/mix=vllm,sglang,dynamo", cases*iters), func(b *testing.B) {
		b.ReportAllocs()
		points := 0
		for b.Loop() {
			runs, excl, err := Walk(root, WalkOptions{GPUsPerNode: 8})
			if err != nil || len(excl) != 0 {
				b.Fatalf("Walk() = %d runs, %v, %v", len(runs), excl, err)
			}
			points = len(runs)
		}
		b.ReportMetric(float64(cases*iters)*float64(b.N)/b.Elapsed().Seconds(), "rundirs/s")
		b.ReportMetric(float64(points), "points/op")
	})
}
