package cloudai_test

import (
	"fmt"

	"github.com/pareto-llm/pareto/cloudai"
)

// Resolve a scenario against its tests directory, then derive the serving
// layout and both GPU counts of one test case on an 8-GPU-per-node system.
func ExampleDeriveLayout() {
	sc, err := cloudai.ReadScenario("testdata/conf/experimental/vllm/test_scenario/vllm.toml")
	if err != nil {
		panic(err)
	}
	tests, err := cloudai.LoadTests("testdata/conf/experimental/vllm/test")
	if err != nil {
		panic(err)
	}
	cases, err := cloudai.Resolve(sc, tests)
	if err != nil {
		panic(err)
	}
	rt := cases[0] // vllm.disagg.4nodes
	nodes, source, _ := rt.ConfigNodes()
	layout, _ := cloudai.DeriveLayout(&rt.Definition, nodes, 8)
	serving, _ := cloudai.ServingGPUs(layout)
	allocated, _ := cloudai.AllocatedGPUs(nodes, 8)
	fmt.Printf("%s: %d nodes (%s), serving %d GPUs, allocated %d GPUs\n%s\n", rt.ID, nodes, source, serving, allocated, cloudai.DescribeLayout(layout))
	// Output:
	// vllm.disagg.4nodes: 4 nodes (num_nodes), serving 16 GPUs, allocated 32 GPUs
	// vLLM disaggregated on 4 node(s)
	//   Prefill: 1 instance(s) × 2 node(s)/instance, TP=8 PP=1 DP=1 → 8 GPU(s)/instance, 8 serving GPU(s); GPU ids 0,1,2,3 per node
	//   Decode: 1 instance(s) × 2 node(s)/instance, TP=8 PP=1 DP=1 → 8 GPU(s)/instance, 8 serving GPU(s); GPU ids 0,1,2,3 per node
	//   prefill and decode share nodes: no
}

// Walk a results tree and list each point with its GPU counts.
func ExampleWalk() {
	runs, excl, err := cloudai.Walk("testdata/results/scenario_2026-08-06_10-00-00", cloudai.WalkOptions{GPUsPerNode: 8})
	if err != nil {
		panic(err)
	}
	for _, r := range runs[3:6] {
		fmt.Printf("%s %s files=%d allocated=%d serving=%d\n", r.ID(), r.Benchmark, len(r.Files), r.AllocatedGPUs, r.ServingGPUs)
	}
	fmt.Println(len(runs), "runs,", len(excl), "exclusions")
	// Output:
	// test.disagg.1p1d.multinode-wideep/0/0/aiperf aiperf files=1 allocated=32 serving=16
	// test.disagg.single-node/0/0/round_1 aiperf files=1 allocated=16 serving=8
	// test.disagg.single-node/0/0/round_2 aiperf files=1 allocated=16 serving=8
	// 9 runs, 2 exclusions
}
