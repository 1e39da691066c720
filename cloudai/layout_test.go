package cloudai

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// resolveCase loads scenario file scen (under testdata/conf), resolves it
// against the test TOMLs in the sibling test/ directory and returns case id.
func resolveCase(t *testing.T, scen, id string) ResolvedTest {
	t.Helper()
	path := filepath.Join("testdata", "conf", scen)
	sc, err := ReadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := LoadTests(filepath.Join(filepath.Dir(filepath.Dir(path)), "test"))
	if err != nil {
		t.Fatal(err)
	}
	rts, err := Resolve(sc, tests)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range rts {
		if rt.ID == id {
			return rt
		}
	}
	t.Fatalf("%s: no test case %q", scen, id)
	return ResolvedTest{}
}

// TestWorkedExamples checks every row of FORMATS.md §9.5 (and the related
// multi-node worker configs) with the numbers written out: CloudAI's current
// count, serving GPUs and allocated GPUs on the stated system.
func TestWorkedExamples(t *testing.T) {
	for _, tt := range []struct {
		name, scen, id string
		gpn            int // GPUs per node of the system
		wantNodes      int
		wantCloudAI    int
		wantServing    int
		wantAllocated  int
		wantShared     bool
		wantRoles      string // name:instances×gpusPerInstance
	}{
		{"vllm.agg.2nodes", "experimental/vllm/test_scenario/vllm.toml", "vllm.agg.2nodes",
			8, 2, 4, 8, 16, false, "serving:1x8"},
		{"vllm.disagg.4nodes", "experimental/vllm/test_scenario/vllm.toml", "vllm.disagg.4nodes",
			8, 4, 16, 16, 32, false, "prefill:1x8 decode:1x8"},
		{"vllm.disagg.async", "experimental/vllm/test_scenario/vllm.toml", "vllm.disagg.async",
			8, 1, 4, 4, 8, true, "prefill:1x2 decode:1x2"},
		{"vllm-heavy 4P4D", "experimental/vllm/test_scenario/vllm-heavy.toml", "vllm.heavy.disagg.8nodes.4p4d",
			8, 8, 8, 32, 64, false, "prefill:1x16 decode:1x16"},
		{"sglang-heavy 4P4D", "experimental/sglang/test_scenario/sglang-heavy.toml", "sglang.heavy.disagg.8nodes.4p4d",
			8, 8, 8, 32, 64, false, "prefill:1x16 decode:1x16"},
		{"dynamo vllm_slurm single-node", "experimental/ai_dynamo/test_scenario/vllm_slurm.toml", "test.disagg.single-node",
			8, 2, 16, 8, 16, false, "prefill:1x4 decode:1x4"},
		{"dynamo vllm wideep (4-GPU nodes)", "experimental/ai_dynamo/test_scenario/vllm_wideep_slurm.toml", "test.disagg.1p1d.multinode-wideep",
			4, 4, 16, 16, 16, false, "prefill:1x8 decode:1x8"},
		{"dynamo vllm wideep (8-GPU nodes)", "experimental/ai_dynamo/test_scenario/vllm_wideep_slurm.toml", "test.disagg.1p1d.multinode-wideep",
			8, 4, 32, 16, 32, false, "prefill:1x8 decode:1x8"},
		{"dynamo sglang wideep DP-attention", "experimental/ai_dynamo/test_scenario/sglang_wideep_slurm.toml", "test.disagg.1p1d.multinode-wideep",
			8, 4, 32, 16, 32, false, "prefill:1x8 decode:1x8"},
		{"dynamo vllm nodes-per-worker=2", "experimental/ai_dynamo/test_scenario/vllm_multinode_worker_slurm.toml", "test.disagg.multinode-worker",
			8, 4, 32, 16, 32, false, "prefill:1x8 decode:1x8"},
		{"dynamo sglang TP8 over 2 nodes", "experimental/ai_dynamo/test_scenario/sglang_multinode_worker_slurm.toml", "test.disagg.multinode-worker",
			4, 4, 16, 16, 16, false, "prefill:1x8 decode:1x8"},
		{"dynamo shared-node", "experimental/ai_dynamo/test_scenario/vllm_slurm.toml", "test.disagg.shared-node",
			8, 2, 16, 16, 16, true, "prefill:2x4 decode:2x4"},
		{"dynamo aggregate (cmx-daria)", "cmx-daria/test_scenario/agentic_gpt_oss20_pareto_cmx_g1_g2_g35_single_large_2phase.toml",
			"agentic-gpt-oss20-pareto-cmx-g1-g2-g35-single-large-2phase", 8, 1, 8, 4, 8, false, "serving:1x4"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rt := resolveCase(t, tt.scen, tt.id)
			nodes, _, err := rt.ConfigNodes()
			if err != nil || nodes != tt.wantNodes {
				t.Fatalf("ConfigNodes() = %d, %v; want %d", nodes, err, tt.wantNodes)
			}
			if got, err := CloudAIUsedGPUs(&rt.Definition, nodes, tt.gpn); err != nil || got != tt.wantCloudAI {
				t.Errorf("CloudAIUsedGPUs() = %d, %v; want %d", got, err, tt.wantCloudAI)
			}
			l, err := DeriveLayout(&rt.Definition, nodes, tt.gpn)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := ServingGPUs(l); err != nil || got != tt.wantServing {
				t.Errorf("ServingGPUs() = %d, %v; want %d\n%s", got, err, tt.wantServing, DescribeLayout(l))
			}
			if got, err := AllocatedGPUs(nodes, tt.gpn); err != nil || got != tt.wantAllocated {
				t.Errorf("AllocatedGPUs() = %d, %v; want %d", got, err, tt.wantAllocated)
			}
			if l.SharedNodes != tt.wantShared {
				t.Errorf("SharedNodes = %v; want %v", l.SharedNodes, tt.wantShared)
			}
			if got := roleSummary(l); got != tt.wantRoles {
				t.Errorf("roles = %q; want %q\n%s", got, tt.wantRoles, DescribeLayout(l))
			}
		})
	}
}

// roleSummary renders roles as name:instances×gpusPerInstance.
func roleSummary(l *trial.Layout) string {
	var parts []string
	for _, r := range l.Roles {
		parts = append(parts, r.Name+":"+itoa(r.Instances)+"x"+itoa(r.GPUsPerInstance))
	}
	return strings.Join(parts, " ")
}
