package cloudai

import (
	"errors"
	"strings"
	"testing"
)

// def builds a test definition from a template and cmd_args.
func def(template string, cmdArgs, env map[string]any) *TestDefinition {
	return &TestDefinition{Name: "t", TestTemplateName: template, CmdArgs: cmdArgs, ExtraEnvVars: env}
}

// TestLayoutEdgeCases covers layouts that count differently from
// TP×PP×DP and the "cannot determine" paths.
func TestLayoutEdgeCases(t *testing.T) {
	worker := func(extra map[string]any, args map[string]any) map[string]any {
		w := map[string]any{"args": args}
		for k, v := range extra {
			w[k] = v
		}
		return w
	}
	dyn := func(backend string, p, d map[string]any) map[string]any {
		return map[string]any{"dynamo": map[string]any{"backend": backend, "prefill_worker": p, "decode_worker": d}}
	}
	for _, tt := range []struct {
		name    string
		def     *TestDefinition
		nodes   int
		gpn     int
		serving int
		errPart string
	}{
		{"sglang DP without DP-attention multiplies", def("sglang", map[string]any{"decode": map[string]any{"tp": int64(2), "dp": int64(4)}}, nil),
			1, 8, 8, ""},
		{"sglang DP-attention as arg", def("sglang", map[string]any{"decode": map[string]any{"tp": int64(8), "dp": int64(8), "enable_dp_attention": ""}}, nil),
			1, 8, 8, ""},
		{"vllm DP multiplies", def("vllm", map[string]any{"decode": map[string]any{"tensor_parallel_size": int64(2), "data_parallel_size": int64(4)}}, nil),
			1, 8, 8, ""},
		{"context parallelism adds GPUs", def("vllm", map[string]any{"decode": map[string]any{"tensor_parallel_size": int64(2), "prefill_context_parallel_size": int64(2)}}, nil),
			1, 8, 4, ""},
		{"no parallel args means one GPU", def("vllm", nil, nil), 1, 8, 1, ""},
		{"DSE sweep value", def("vllm", map[string]any{"decode": map[string]any{"tensor_parallel_size": []any{int64(4), int64(8)}}}, nil),
			1, 8, 0, "decode.tensor_parallel_size is a sweep [4, 8]; it is resolved per DSE step"},
		{"unknown template", def("NcclTest", nil, nil), 1, 8, 0, `unsupported test template "NcclTest"`},
		{"unknown nodes", def("vllm", nil, nil), 0, 8, 0, "node count unknown"},
		{"disagg over 3 nodes without role counts", def("vllm", map[string]any{"prefill": map[string]any{}, "decode": map[string]any{}}, nil),
			3, 8, 0, "disaggregated vllm over more than 2 nodes requires both prefill.num_nodes and decode.num_nodes"},
		{"role counts do not add up", def("sglang", map[string]any{"prefill": map[string]any{"num_nodes": int64(1)}, "decode": map[string]any{"num_nodes": int64(1)}}, nil),
			1, 8, 0, "prefill.num_nodes + decode.num_nodes = 2 but the run has 1 nodes"},
		{"one role gpu_ids", def("vllm", map[string]any{"prefill": map[string]any{"gpu_ids": "0"}, "decode": map[string]any{}}, nil),
			1, 8, 0, "both prefill and decode gpu_ids must be set or both must be unset"},
		{"dynamo multiple workers per node", def("AIDynamo", dyn("vllm",
			worker(map[string]any{"num-nodes": int64(1), "multiple-workers-per-node": true}, map[string]any{"tensor-parallel-size": int64(2)}),
			worker(map[string]any{"num-nodes": int64(1)}, map[string]any{"tensor-parallel-size": int64(4)})), nil),
			2, 8, 12, ""},
		{"dynamo multiple workers per node, gpn unknown", def("AIDynamo", dyn("vllm",
			worker(map[string]any{"multiple_workers_per_node": true}, nil), worker(nil, nil)), nil),
			2, 0, 0, "multiple-workers-per-node needs the system's gpus_per_node"},
		{"dynamo nodes-per-worker does not divide", def("AIDynamo", dyn("vllm",
			worker(map[string]any{"num-nodes": int64(3), "nodes-per-worker": int64(2)}, nil), worker(nil, nil)), nil),
			4, 8, 0, "num-nodes = 3 is not a multiple of nodes-per-worker = 2"},
		{"dynamo unknown backend", def("AIDynamo", dyn("trtllm", nil, nil), nil), 2, 8, 0, `dynamo.backend "trtllm" is not vllm or sglang`},
		{"dynamo defaults TP=1 per worker", def("AIDynamo", map[string]any{}, nil), 2, 8, 2, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := DeriveLayout(tt.def, tt.nodes, tt.gpn)
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) || !strings.HasPrefix(err.Error(), "cannot determine serving layout: ") {
					t.Fatalf("DeriveLayout() error = %v; want it to contain %q", err, tt.errPart)
				}
				if _, err := ServingGPUs(l); err == nil {
					t.Errorf("ServingGPUs(nil) returned no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := ServingGPUs(l); err != nil || got != tt.serving {
				t.Errorf("ServingGPUs() = %d, %v; want %d\n%s", got, err, tt.serving, DescribeLayout(l))
			}
		})
	}
}

// TestGPUIDPrecedence checks CloudAI's all_gpu_ids precedence through its
// used_gpus_count: CUDA_VISIBLE_DEVICES beats decode.gpu_ids when aggregated;
// explicit role ids win when disaggregated; else range(gpus_per_node or 1).
func TestGPUIDPrecedence(t *testing.T) {
	for _, tt := range []struct {
		name  string
		def   *TestDefinition
		nodes int
		gpn   int
		want  int
		ids   string // GPU ids of the first role
	}{
		{"CVD beats decode.gpu_ids", def("vllm", map[string]any{"decode": map[string]any{"gpu_ids": "0,1,2,3"}},
			map[string]any{"CUDA_VISIBLE_DEVICES": "0,1"}), 1, 8, 2, "0,1"},
		{"decode.gpu_ids as list", def("vllm", map[string]any{"decode": map[string]any{"gpu_ids": []any{"4", "5", "6"}}}, nil), 1, 8, 3, "4,5,6"},
		{"default range of gpus_per_node", def("sglang", nil, nil), 1, 4, 4, "0,1,2,3"},
		{"default range without gpus_per_node", def("sglang", nil, nil), 1, 0, 1, "0"},
		{"shared node halves", def("vllm", map[string]any{"prefill": map[string]any{}, "decode": map[string]any{}},
			map[string]any{"CUDA_VISIBLE_DEVICES": "0,1,2,3"}), 1, 8, 4, "0,1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CloudAIUsedGPUs(tt.def, tt.nodes, tt.gpn)
			if err != nil || got != tt.want {
				t.Errorf("CloudAIUsedGPUs() = %d, %v; want %d", got, err, tt.want)
			}
			l, err := DeriveLayout(tt.def, tt.nodes, tt.gpn)
			if err != nil {
				t.Fatal(err)
			}
			if ids := strings.Join(l.Roles[0].GPUIDs, ","); ids != tt.ids {
				t.Errorf("Roles[0].GPUIDs = %s; want %s", ids, tt.ids)
			}
		})
	}
}

// TestCapacityWarning checks that an impossible TP is reported but counted.
func TestCapacityWarning(t *testing.T) {
	d := def("vllm", map[string]any{"decode": map[string]any{"tensor_parallel_size": int64(8)}}, map[string]any{"CUDA_VISIBLE_DEVICES": "0,1,2,3"})
	l, err := DeriveLayout(d, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"serving needs 8 GPUs but sees 4 (4 GPU ids × 1 node(s))"}
	if strings.Join(l.Warnings, "|") != strings.Join(want, "|") {
		t.Errorf("Warnings = %q; want %q", l.Warnings, want)
	}
}

// TestAllocatedGPUs checks the allocated count and its reasons.
func TestAllocatedGPUs(t *testing.T) {
	if n, err := AllocatedGPUs(4, 8); n != 32 || err != nil {
		t.Errorf("AllocatedGPUs(4, 8) = %d, %v; want 32", n, err)
	}
	if _, err := AllocatedGPUs(0, 8); err == nil || err.Error() != "cannot count allocated GPUs: node count unknown" {
		t.Errorf("AllocatedGPUs(0, 8) error = %v", err)
	}
	if _, err := AllocatedGPUs(2, 0); err == nil || err.Error() != "cannot count allocated GPUs: system config does not set gpus_per_node" {
		t.Errorf("AllocatedGPUs(2, 0) error = %v", err)
	}
	if _, err := WorkloadOf(def("", nil, nil)); !errors.Is(err, ErrUnknownWorkload) {
		t.Errorf("WorkloadOf(no template) error = %v; want ErrUnknownWorkload", err)
	}
}
