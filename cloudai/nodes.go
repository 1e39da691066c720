package cloudai

import "fmt"

// Sources of a configured node count, as returned by ResolvedTest.ConfigNodes.
const (
	NodesFromNumNodes = "num_nodes"                // the scenario's num_nodes
	NodesFromNodeList = "nodes"                    // len(nodes) of the scenario
	NodesFromWorkers  = "dynamo worker num-nodes"  // Dynamo: prefill + decode num-nodes
	NodesFromRoles    = "prefill+decode num_nodes" // vLLM/SGLang: explicit role node counts
	NodesFromDefault  = "CloudAI default (1 node)" // nothing set
)

// ConfigNodes returns the node count CloudAI allocates for a test case before
// it runs, and where the number comes from: the scenario's num_nodes, its
// node list, Dynamo's prefill + decode num-nodes, vLLM/SGLang's explicit role
// node counts, or CloudAI's default of 1. A swept num_nodes is an error: the
// count is known per DSE step only.
func (r *ResolvedTest) ConfigNodes() (int, string, error) {
	if isSweep(r.NumNodes) {
		return 0, "", fmt.Errorf("num_nodes is a sweep %s; the node count is known per DSE step", renderValue(r.NumNodes))
	}
	st := ScenarioTest{NumNodes: r.NumNodes}
	n, err := st.NodeCount()
	if err != nil {
		return 0, "", err
	}
	if n > 0 {
		return n, NodesFromNumNodes, nil
	}
	if len(r.Nodes) > 0 {
		return len(r.Nodes), NodesFromNodeList, nil
	}
	return defaultNodes(&r.Definition)
}

// defaultNodes is the node count implied by the definition alone.
func defaultNodes(def *TestDefinition) (int, string, error) {
	w, err := WorkloadOf(def)
	if err != nil {
		return 0, "", err
	}
	if w == WorkloadDynamo {
		dyn := table(def.CmdArgs, "dynamo")
		p, err := intField(table(dyn, "prefill_worker"), 1, "dynamo.prefill_worker", "num_nodes")
		if err != nil {
			return 0, "", err
		}
		d, err := intField(table(dyn, "decode_worker"), 1, "dynamo.decode_worker", "num_nodes")
		if err != nil {
			return 0, "", err
		}
		return max(p+d, 1), NodesFromWorkers, nil
	}
	p, err := intField(table(def.CmdArgs, "prefill"), 0, "prefill", "num_nodes")
	if err != nil {
		return 0, "", err
	}
	d, err := intField(table(def.CmdArgs, "decode"), 0, "decode", "num_nodes")
	if err != nil {
		return 0, "", err
	}
	if p > 0 && d > 0 {
		return p + d, NodesFromRoles, nil
	}
	return 1, NodesFromDefault, nil
}

// CloudAIUsedGPUs reproduces CloudAI's used_gpus_count (the "tps-per-gpu"
// denominator) for comparison only; pareto reports allocated and serving GPUs
// instead. For vLLM/SGLang it is len(all_gpu_ids) for aggregated or
// single-node runs, len(prefill ids)+len(decode ids) with explicit gpu_ids,
// else len(ids) × nodes; for Dynamo it is max(1, nodes × gpus_per_node). It
// undercounts multi-node runs (FORMATS.md §9.4).
func CloudAIUsedGPUs(def *TestDefinition, nodes, gpn int) (int, error) {
	w, err := WorkloadOf(def)
	if err != nil {
		return 0, err
	}
	if w == WorkloadDynamo {
		if gpn <= 0 {
			return 0, fmt.Errorf("cannot reproduce CloudAI's GPU count: system config does not set gpus_per_node")
		}
		return max(1, nodes*gpn), nil
	}
	ids, err := gpuIDsOf(def, gpn)
	if err != nil {
		return 0, err
	}
	switch {
	case !ids.disaggregated || nodes <= 1:
		return len(ids.all()), nil
	case ids.prefillIDs != nil:
		return len(ids.prefillIDs) + len(ids.decodeIDs), nil
	}
	return len(ids.all()) * nodes, nil
}
