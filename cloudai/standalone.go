package cloudai

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// standaloneLayout derives the layout of CloudAI's vLLM or SGLang workload:
// one engine instance per role (a multi-node role runs one instance across its
// nodes), aggregated when cmd_args.prefill is absent.
func standaloneLayout(def *TestDefinition, e Engine, nodes, gpn int) (*trial.Layout, error) {
	ids, err := gpuIDsOf(def, gpn)
	if err != nil {
		return nil, err
	}
	l := &trial.Layout{Workload: string(e), Engine: string(e), Nodes: nodes}
	if !ids.disaggregated {
		p, err := parseParallelism(ids.decode, extraArgs(ids.decode), "decode")
		if err != nil {
			return nil, err
		}
		r := p.role(RoleServing, e, 1, nodes, nodes)
		r.GPUIDs = ids.aggregated
		l.Roles = []trial.LayoutRole{r}
		checkCapacity(l, r, ids.explicit || gpn > 0)
		return l, nil
	}
	return disaggregatedStandalone(l, ids, nodes)
}

// disaggregatedStandalone fills the prefill and decode roles of l.
func disaggregatedStandalone(l *trial.Layout, ids gpuIDs, nodes int) (*trial.Layout, error) {
	pn, dn, shared, err := roleNodeCounts(ids.prefill, ids.decode, nodes, l.Engine)
	if err != nil {
		return nil, err
	}
	l.Disaggregated, l.SharedNodes = true, shared
	pIDs, dIDs := ids.roleIDs(shared)
	for _, rc := range []struct {
		name  string
		args  map[string]any
		nodes int
		ids   []string
	}{{RolePrefill, ids.prefill, pn, pIDs}, {RoleDecode, ids.decode, dn, dIDs}} {
		p, err := parseParallelism(rc.args, extraArgs(rc.args), rc.name)
		if err != nil {
			return nil, err
		}
		r := p.role(rc.name, Engine(l.Engine), 1, rc.nodes, rc.nodes)
		r.GPUIDs = rc.ids
		l.Roles = append(l.Roles, r)
		checkCapacity(l, r, ids.explicit || ids.gpn > 0)
	}
	return l, nil
}

// roleNodeCounts implements CloudAI's disaggregated_role_node_counts: explicit
// prefill/decode num_nodes must add up to the allocated nodes; without them
// each role gets one node on 1–2 nodes (one node → shared).
func roleNodeCounts(prefill, decode map[string]any, nodes int, w string) (pn, dn int, shared bool, err error) {
	pn, err = intField(prefill, 0, "prefill", "num_nodes")
	if err != nil {
		return 0, 0, false, err
	}
	dn, err = intField(decode, 0, "decode", "num_nodes")
	if err != nil {
		return 0, 0, false, err
	}
	switch {
	case pn > 0 && dn > 0:
		if pn+dn != nodes {
			return 0, 0, false, fmt.Errorf("prefill.num_nodes + decode.num_nodes = %d but the run has %d nodes", pn+dn, nodes)
		}
		return pn, dn, false, nil
	case pn > 0 || dn > 0:
		return 0, 0, false, fmt.Errorf("set both prefill.num_nodes and decode.num_nodes or neither (got %d and %d)", pn, dn)
	case nodes <= 2:
		return 1, 1, nodes == 1, nil
	}
	return 0, 0, false, fmt.Errorf("disaggregated %s over more than 2 nodes requires both prefill.num_nodes and decode.num_nodes", w)
}

// checkCapacity adds a warning to l when role r needs more GPUs than its GPU
// ids and nodes provide. known is false when the id list is only CloudAI's
// 1-GPU fallback.
func checkCapacity(l *trial.Layout, r trial.LayoutRole, known bool) {
	if !known || len(r.GPUIDs) == 0 {
		return
	}
	have := len(r.GPUIDs) * r.Nodes
	if need := r.GPUs(); need > have {
		l.Warnings = append(l.Warnings, fmt.Sprintf("%s needs %d GPUs but sees %d (%d GPU ids × %d node(s))",
			r.Name, need, have, len(r.GPUIDs), r.Nodes))
	}
}

// gpuIDs is the GPU-id view of a vLLM/SGLang definition (CloudAI all_gpu_ids).
type gpuIDs struct {
	prefill, decode map[string]any
	disaggregated   bool
	// prefillIDs/decodeIDs are the explicit per-role gpu_ids (both or none).
	prefillIDs, decodeIDs []string
	// cvd is extra_env_vars.CUDA_VISIBLE_DEVICES, nil when unset.
	cvd []string
	// aggregated is the aggregated role's list (CVD, else decode.gpu_ids,
	// else the default range).
	aggregated []string
	// explicit is true when ids come from the config rather than the
	// range(gpus_per_node or 1) default.
	explicit bool
	gpn      int
}

// gpuIDsOf collects the GPU ids of def following CloudAI's precedence.
func gpuIDsOf(def *TestDefinition, gpn int) (gpuIDs, error) {
	g := gpuIDs{prefill: table(def.CmdArgs, "prefill"), decode: table(def.CmdArgs, "decode"), gpn: gpn}
	_, g.disaggregated = child(def.CmdArgs, "prefill")
	var err error
	if g.prefillIDs, err = idList(g.prefill, "prefill"); err != nil {
		return g, err
	}
	if g.decodeIDs, err = idList(g.decode, "decode"); err != nil {
		return g, err
	}
	if g.disaggregated && (g.prefillIDs == nil) != (g.decodeIDs == nil) {
		return g, fmt.Errorf("both prefill and decode gpu_ids must be set or both must be unset")
	}
	if v, ok := child(def.ExtraEnvVars, "CUDA_VISIBLE_DEVICES"); ok {
		g.cvd = splitIDs(stringValue(v))
	}
	g.aggregated, g.explicit = g.cvd, g.cvd != nil
	if g.aggregated == nil && g.decodeIDs != nil {
		g.aggregated, g.explicit = g.decodeIDs, true
	}
	if g.aggregated == nil {
		g.aggregated = defaultIDs(gpn)
	}
	return g, nil
}

// roleIDs returns the per-node id lists of prefill and decode.
func (g gpuIDs) roleIDs(shared bool) ([]string, []string) {
	if g.prefillIDs != nil {
		return g.prefillIDs, g.decodeIDs
	}
	all := g.cvd
	if all == nil {
		all = defaultIDs(g.gpn)
	}
	if !shared {
		return all, all
	}
	half := len(all) / 2
	return all[:half], all[half:]
}

// all returns CloudAI's all_gpu_ids list.
func (g gpuIDs) all() []string {
	if g.disaggregated && g.prefillIDs != nil {
		return append(append([]string{}, g.prefillIDs...), g.decodeIDs...)
	}
	if !g.disaggregated {
		return g.aggregated
	}
	if g.cvd != nil {
		return g.cvd
	}
	return defaultIDs(g.gpn)
}

// idList reads a role's gpu_ids ("0,1" or ["0","1"]); nil when absent.
func idList(role map[string]any, name string) ([]string, error) {
	v, ok := child(role, "gpu_ids")
	if !ok || v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case string:
		return splitIDs(x), nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = stringValue(e)
		}
		return out, nil
	case int64:
		return []string{strconv.FormatInt(x, 10)}, nil
	}
	return nil, fmt.Errorf("%s.gpu_ids: %s is not a list of GPU ids", name, renderValue(v))
}

// splitIDs splits a comma-separated id list, dropping blanks.
func splitIDs(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// defaultIDs is range(gpus_per_node or 1).
func defaultIDs(gpn int) []string {
	n := max(gpn, 1)
	out := make([]string, n)
	for i := range n {
		out[i] = strconv.Itoa(i)
	}
	return out
}
