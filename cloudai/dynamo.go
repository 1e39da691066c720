package cloudai

import (
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// dynamoWorker is one Dynamo worker table (prefill_worker or decode_worker).
type dynamoWorker struct {
	role             string
	key              string
	numNodes         int
	nodesPerWorker   int
	multiplePerNode  bool
	par              parallelism
	gpusPerInstance  int
	instances        int
	nodesPerInstance int
}

// dynamoLayout derives the layout of an AIDynamo test: workers from
// cmd_args.dynamo.{prefill,decode}_worker, instances = num-nodes /
// nodes-per-worker, shared nodes when the allocation is smaller than the
// workers' node sum, and one combined "serving" role in aggregate mode.
func dynamoLayout(def *TestDefinition, nodes, gpn int) (*trial.Layout, error) {
	dyn := table(def.CmdArgs, "dynamo")
	engine, err := dynamoEngine(dyn)
	if err != nil {
		return nil, err
	}
	aggregate, err := dynamoAggregate(dyn)
	if err != nil {
		return nil, err
	}
	l := &trial.Layout{Workload: string(WorkloadDynamo), Engine: string(engine), Nodes: nodes, Disaggregated: !aggregate}
	specs := []struct{ role, key string }{{RolePrefill, "prefill_worker"}, {RoleDecode, "decode_worker"}}
	if aggregate {
		specs = specs[:1]
		specs[0].role = RoleServing
		if n, _ := intField(table(dyn, "decode_worker"), 0, "dynamo.decode_worker", "num_nodes"); n > 0 {
			l.Warnings = append(l.Warnings, fmt.Sprintf("aggregate mode ignores decode_worker.num-nodes = %d", n))
		}
	}
	var workers []dynamoWorker
	for _, s := range specs {
		w, err := parseDynamoWorker(table(dyn, s.key), s.role, s.key, engine, gpn)
		if err != nil {
			return nil, err
		}
		if w.numNodes > 0 {
			workers = append(workers, w)
		}
	}
	if len(workers) == 0 {
		return nil, fmt.Errorf("no Dynamo worker has num-nodes > 0")
	}
	placeDynamo(l, workers, gpn)
	return l, nil
}

// dynamoEngine maps cmd_args.dynamo.backend (default "vllm") to an engine.
func dynamoEngine(dyn map[string]any) (Engine, error) {
	v, ok := child(dyn, "backend")
	b := strings.ToLower(stringValue(v))
	switch {
	case !ok || b == "vllm":
		return EngineVLLM, nil
	case b == "sglang" || b == "sglang_dsr1":
		return EngineSGLang, nil
	}
	return "", fmt.Errorf("dynamo.backend %q is not vllm or sglang", b)
}

// dynamoAggregate reads cmd_args.dynamo.mode (default "disaggregate").
func dynamoAggregate(dyn map[string]any) (bool, error) {
	v, ok := child(dyn, "mode")
	if !ok {
		return false, nil
	}
	switch m := strings.ToLower(stringValue(v)); m {
	case "aggregate", "aggregated", "agg":
		return true, nil
	case "disaggregate", "disaggregated", "disagg", "":
		return false, nil
	default:
		return false, fmt.Errorf("dynamo.mode %q is not aggregate or disaggregate", m)
	}
}

// parseDynamoWorker reads one worker table and computes its instances.
func parseDynamoWorker(t map[string]any, role, key string, e Engine, gpn int) (dynamoWorker, error) {
	name := "dynamo." + key
	w := dynamoWorker{role: role, key: key}
	var err error
	if w.numNodes, err = intField(t, 1, name, "num_nodes"); err != nil {
		return w, err
	}
	if w.nodesPerWorker, err = intField(t, 1, name, "nodes_per_worker"); err != nil {
		return w, err
	}
	if v, ok := child(t, "multiple_workers_per_node"); ok {
		w.multiplePerNode = flagSet(v)
	}
	if w.par, err = parseParallelism(table(t, "args"), extraArgs(t), name+".args"); err != nil {
		return w, err
	}
	w.gpusPerInstance = w.par.gpusPerInstance(e)
	if w.numNodes == 0 {
		return w, nil
	}
	return w, w.countInstances(name, gpn)
}

// countInstances sets instances and nodes per instance.
func (w *dynamoWorker) countInstances(name string, gpn int) error {
	switch {
	case w.nodesPerWorker == 0:
		return fmt.Errorf("%s.nodes-per-worker must be positive", name)
	case w.nodesPerWorker > 1 && w.multiplePerNode:
		return fmt.Errorf("%s: nodes-per-worker = %d conflicts with multiple-workers-per-node", name, w.nodesPerWorker)
	case w.numNodes%w.nodesPerWorker != 0:
		return fmt.Errorf("%s: num-nodes = %d is not a multiple of nodes-per-worker = %d", name, w.numNodes, w.nodesPerWorker)
	case w.multiplePerNode:
		if gpn <= 0 {
			return fmt.Errorf("%s: multiple-workers-per-node needs the system's gpus_per_node", name)
		}
		perNode := gpn / w.gpusPerInstance
		if perNode == 0 {
			return fmt.Errorf("%s: a worker needs %d GPUs, more than a node's %d", name, w.gpusPerInstance, gpn)
		}
		w.instances, w.nodesPerInstance = w.numNodes*perNode, 1
	default:
		w.instances, w.nodesPerInstance = w.numNodes/w.nodesPerWorker, w.nodesPerWorker
	}
	return nil
}

// placeDynamo turns workers into the roles of l and decides node sharing: when the
// allocation is smaller than the workers' node sum, prefill and decode share
// nodes (CloudAI assigns decode GPUs first, then prefill, on each node).
func placeDynamo(l *trial.Layout, workers []dynamoWorker, gpn int) {
	sum := 0
	for _, w := range workers {
		r := w.par.role(w.role, Engine(l.Engine), w.instances, w.nodesPerInstance, w.numNodes)
		l.Roles = append(l.Roles, r)
		sum += w.numNodes
		if gpn > 0 && !w.multiplePerNode && r.GPUsPerInstance > gpn*r.NodesPerInstance {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s needs %d GPUs per instance but spans %d node(s) of %d GPUs",
				r.Name, r.GPUsPerInstance, r.NodesPerInstance, gpn))
		}
	}
	l.SharedNodes = l.Disaggregated && len(workers) > 1 && l.Nodes < sum
	switch {
	case l.SharedNodes && gpn > 0:
		perNode := 0
		for _, r := range l.Roles {
			perNode += r.GPUsPerInstance / r.NodesPerInstance
		}
		if perNode > gpn {
			l.Warnings = append(l.Warnings, fmt.Sprintf("shared nodes need %d GPUs per node but have %d", perNode, gpn))
		}
	case !l.SharedNodes && l.Nodes < sum:
		l.Warnings = append(l.Warnings, fmt.Sprintf("workers need %d node(s) but %d are allocated", sum, l.Nodes))
	}
}
