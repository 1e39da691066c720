package cloudai

import (
	"fmt"
	"slices"

	"github.com/pareto-llm/pareto/trial"
)

// Spellings of the parallelism options across vLLM, SGLang and Dynamo worker
// args. Hyphenated forms match too (see child).
var (
	tpKeys = []string{"tensor_parallel_size", "tp", "tp_size"}
	ppKeys = []string{"pipeline_parallel_size", "pp", "pp_size"}
	dpKeys = []string{"data_parallel_size", "dp", "dp_size"}
	// Context parallelism that adds GPUs. vLLM's decode_context_parallel_size
	// reuses the TP GPUs and is deliberately absent.
	cpKeys = []string{"context_parallel_size", "cp", "cp_size", "prefill_context_parallel_size"}
)

// parallelism is the parallel layout of one engine instance.
type parallelism struct {
	tp, pp, dp, cp int
	dpAttention    bool
}

// parseParallelism reads TP/PP/DP/CP and DP-attention from an engine args
// table; extra is the role's free-form extra-args string. name prefixes
// errors (for example "decode" or "dynamo.prefill_worker.args").
func parseParallelism(args map[string]any, extra, name string) (parallelism, error) {
	var p parallelism
	var err error
	if p.tp, err = intField(args, 1, name, tpKeys...); err != nil {
		return p, err
	}
	if p.pp, err = intField(args, 1, name, ppKeys...); err != nil {
		return p, err
	}
	if p.dp, err = intField(args, 1, name, dpKeys...); err != nil {
		return p, err
	}
	if p.cp, err = intField(args, 1, name, cpKeys...); err != nil {
		return p, err
	}
	if p.tp == 0 || p.pp == 0 || p.dp == 0 || p.cp == 0 {
		return p, fmt.Errorf("%s: parallel sizes must be positive (TP=%d PP=%d DP=%d CP=%d)", name, p.tp, p.pp, p.dp, p.cp)
	}
	if v, ok := child(args, "enable_dp_attention"); ok {
		p.dpAttention = flagSet(v)
	}
	if hasCLIFlag(extra, "enable-dp-attention") {
		p.dpAttention = true
	}
	return p, nil
}

// gpusPerInstance is the engine-specific GPU footprint of one instance:
// vLLM TP×PP×DP×CP; SGLang TP×PP×CP with DP-attention (DP ranks share the TP
// GPUs), TP×PP×DP×CP without it (independent DP replicas).
func (p parallelism) gpusPerInstance(e Engine) int {
	n := p.tp * p.pp * p.cp
	if e == EngineSGLang && p.dpAttention {
		return n
	}
	return n * p.dp
}

// role builds a layout role from the parallelism and placement.
func (p parallelism) role(name string, e Engine, instances, nodesPerInstance, nodes int) trial.LayoutRole {
	return trial.LayoutRole{
		Name: name, Instances: instances, NodesPerInstance: nodesPerInstance, Nodes: nodes,
		TP: p.tp, PP: p.pp, DP: p.dp, CP: p.cp,
		DPAttention:     p.dpAttention && e == EngineSGLang,
		GPUsPerInstance: p.gpusPerInstance(e),
	}
}

// maxServerGPUs bounds the GPUs a server's recorded parallel sizes give
// (as pareto's --gpus is bounded).
const maxServerGPUs = 1 << 20

// nodesKeys are the spellings of the node count one server spans (SGLang's
// and vLLM's --nnodes).
var nodesKeys = []string{"nnodes"}

// ServerSizeKeys returns the spellings of the parallel sizes ServerLayout
// reads (those of CloudAI layouts): a caller may look for them before
// calling it.
func ServerSizeKeys() []string {
	return slices.Concat(tpKeys, ppKeys, dpKeys, cpKeys)
}

// ServerLayout derives the layout of one engine server of engine e from
// the settings a result file records of it: SGLang bench_serving's
// server_info (the server's args) or the parallel sizes vLLM's benchmark
// suite adds with --metadata tensor_parallel_size=N. get returns a setting
// by name; it is asked for the keys CloudAI layouts read (tp_size,
// tensor_parallel_size, ..., enable_dp_attention, nnodes), so that one
// list of spellings serves both. The layout is one serving role of one
// instance whose GPUs follow the engine's rule (gpusPerInstance); a size
// the file does not record is 1. ok is false when get has none of the
// parallel sizes; name prefixes errors ("server_info").
func ServerLayout(e Engine, name string, get func(key string) (string, bool)) (l *trial.Layout, ok bool, err error) {
	var args map[string]any // made at the first size found: most results record none
	for _, keys := range [...][]string{tpKeys, ppKeys, dpKeys, cpKeys} {
		for _, k := range keys {
			if v, found := get(k); found && v != "" {
				if args == nil {
					args = map[string]any{}
				}
				args[k] = v
			}
		}
	}
	if args == nil {
		return nil, false, nil
	}
	if v, found := get("enable_dp_attention"); found && v != "" {
		args["enable_dp_attention"] = v
	}
	p, err := parseParallelism(args, "", name)
	if err != nil {
		return nil, true, err
	}
	n := 1
	for _, size := range []int{p.tp, p.pp, p.dp, p.cp} {
		if n *= min(size, maxServerGPUs+1); n > maxServerGPUs {
			return nil, true, fmt.Errorf("%s: TP=%d PP=%d DP=%d CP=%d is more than %d GPUs", name, p.tp, p.pp, p.dp, p.cp, maxServerGPUs)
		}
	}
	nodes := 1
	for _, k := range nodesKeys {
		if v, found := get(k); found && v != "" {
			if nodes, err = intValue(v); err != nil || nodes <= 0 {
				return nil, true, fmt.Errorf("%s.%s: %q is not a positive integer", name, k, v)
			}
		}
	}
	r := p.role(RoleServing, e, 1, nodes, nodes)
	return &trial.Layout{Engine: string(e), Nodes: nodes, Roles: []trial.LayoutRole{r}}, true, nil
}
