package cloudai

import (
	"errors"
	"fmt"
	"strings"
)

// Workload is the CloudAI workload family of a test, from test_template_name.
type Workload string

// Workloads pareto understands.
const (
	WorkloadVLLM   Workload = "vllm"      // test_template_name = "vllm"
	WorkloadSGLang Workload = "sglang"    // test_template_name = "sglang"
	WorkloadDynamo Workload = "ai_dynamo" // test_template_name = "AIDynamo"
)

// Engine is the serving engine that holds the model shards.
type Engine string

// Serving engines.
const (
	EngineVLLM   Engine = "vllm"
	EngineSGLang Engine = "sglang"
)

// Role names used in Layout.Roles.
const (
	RolePrefill = "prefill"
	RoleDecode  = "decode"
	RoleServing = "serving" // combined (aggregated) serving
)

// ErrUnknownWorkload is returned for test templates other than vLLM, SGLang
// and AI Dynamo.
var ErrUnknownWorkload = errors.New("unsupported test template")

// WorkloadOf returns the workload family of def from its test_template_name.
func WorkloadOf(def *TestDefinition) (Workload, error) {
	switch strings.ToLower(strings.ReplaceAll(def.TestTemplateName, "_", "")) {
	case "vllm":
		return WorkloadVLLM, nil
	case "sglang":
		return WorkloadSGLang, nil
	case "aidynamo":
		return WorkloadDynamo, nil
	case "":
		return "", fmt.Errorf("%w: test %q has no test_template_name", ErrUnknownWorkload, def.Name)
	default:
		return "", fmt.Errorf("%w %q", ErrUnknownWorkload, def.TestTemplateName)
	}
}

// Layout is the serving layout of one run: which roles serve the model, how
// many instances each role runs, and how each instance is parallelised.
type Layout struct {
	// Workload is the CloudAI workload family.
	Workload Workload `json:"workload"`
	// Engine is the serving engine.
	Engine Engine `json:"engine"`
	// Disaggregated is true when prefill and decode run as separate roles.
	Disaggregated bool `json:"disaggregated"`
	// SharedNodes is true when prefill and decode instances share nodes.
	SharedNodes bool `json:"shared_nodes"`
	// Nodes is the number of allocated nodes the layout was derived for.
	Nodes int `json:"nodes"`
	// Roles are the serving roles: prefill then decode, or one "serving".
	Roles []Role `json:"roles"`
	// Warnings are inconsistencies that did not prevent counting, such as a
	// tensor-parallel size larger than the GPUs the role can see.
	Warnings []string `json:"warnings,omitempty"`
}

// Role is one serving role of a layout.
type Role struct {
	// Name is RolePrefill, RoleDecode or RoleServing.
	Name string `json:"name"`
	// Instances is the number of engine instances (Dynamo workers).
	Instances int `json:"instances"`
	// NodesPerInstance is the number of nodes one instance spans.
	NodesPerInstance int `json:"nodes_per_instance"`
	// Nodes is the number of nodes the role runs on.
	Nodes int `json:"nodes"`
	// TP, PP, DP and CP are the tensor-, pipeline-, data- and
	// context-parallel sizes within one instance.
	TP int `json:"tp"`
	PP int `json:"pp"`
	DP int `json:"dp"`
	CP int `json:"cp"`
	// DPAttention is SGLang's --enable-dp-attention: DP ranks live inside the
	// TP group and add no GPUs.
	DPAttention bool `json:"dp_attention,omitempty"`
	// GPUsPerInstance is the number of GPUs one instance holds.
	GPUsPerInstance int `json:"gpus_per_instance"`
	// GPUIDs are the GPU ids the role uses on each of its nodes, when the
	// configuration names them (vLLM and SGLang only).
	GPUIDs []string `json:"gpu_ids,omitempty"`
}

// GPUs returns the role's serving GPUs: instances × GPUs per instance.
func (r Role) GPUs() int { return r.Instances * r.GPUsPerInstance }

// Label returns the role's display name: "Prefill", "Decode" or "Serving".
func (r Role) Label() string {
	if r.Name == "" {
		return ""
	}
	return strings.ToUpper(r.Name[:1]) + r.Name[1:]
}

// DeriveLayout derives the serving layout of def running on nodes allocated
// nodes. gpusPerNode (0 when unknown) is only needed for CloudAI's default GPU
// id list and Dynamo's multiple-workers-per-node; it never changes TP/PP/DP.
func DeriveLayout(def *TestDefinition, nodes, gpusPerNode int) (*Layout, error) {
	w, err := WorkloadOf(def)
	if err != nil {
		return nil, fmt.Errorf("cannot determine serving layout: %w", err)
	}
	if nodes <= 0 {
		return nil, fmt.Errorf("cannot determine serving layout: node count unknown")
	}
	var l *Layout
	switch w {
	case WorkloadVLLM:
		l, err = standaloneLayout(def, EngineVLLM, nodes, gpusPerNode)
	case WorkloadSGLang:
		l, err = standaloneLayout(def, EngineSGLang, nodes, gpusPerNode)
	default:
		l, err = dynamoLayout(def, nodes, gpusPerNode)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot determine serving layout: %w", err)
	}
	return l, nil
}

// ServingGPUs returns the GPUs holding model shards: Σ over roles of
// instances × GPUs per instance.
func ServingGPUs(l *Layout) (int, error) {
	if l == nil {
		return 0, fmt.Errorf("cannot count serving GPUs: no serving layout")
	}
	total := 0
	for _, r := range l.Roles {
		if r.Instances <= 0 || r.GPUsPerInstance <= 0 {
			return 0, fmt.Errorf("cannot count serving GPUs: role %s has %d instances of %d GPUs", r.Name, r.Instances, r.GPUsPerInstance)
		}
		total += r.GPUs()
	}
	if total == 0 {
		return 0, fmt.Errorf("cannot count serving GPUs: layout has no roles")
	}
	return total, nil
}

// AllocatedGPUs returns nodes × gpusPerNode, or an error saying which factor
// is unknown.
func AllocatedGPUs(nodes, gpusPerNode int) (int, error) {
	switch {
	case nodes <= 0:
		return 0, fmt.Errorf("cannot count allocated GPUs: node count unknown")
	case gpusPerNode <= 0:
		return 0, fmt.Errorf("cannot count allocated GPUs: system config does not set gpus_per_node")
	}
	return nodes * gpusPerNode, nil
}

// String describes the layout on several lines, the way point details show
// it: one line per role with instances, nodes per instance and TP/PP/DP, and
// whether prefill and decode share nodes.
func (l *Layout) String() string {
	var b strings.Builder
	mode := "aggregated"
	if l.Disaggregated {
		mode = "disaggregated"
	}
	fmt.Fprintf(&b, "%s %s on %d node(s)", l.workloadLabel(), mode, l.Nodes)
	for _, r := range l.Roles {
		fmt.Fprintf(&b, "\n  %s: %s", r.Label(), r.describe())
	}
	if l.Disaggregated {
		fmt.Fprintf(&b, "\n  prefill and decode share nodes: %s", yesNo(l.SharedNodes))
	}
	for _, w := range l.Warnings {
		fmt.Fprintf(&b, "\n  warning: %s", w)
	}
	return b.String()
}

// workloadLabel names engine and orchestrator, e.g. "Dynamo+SGLang".
func (l *Layout) workloadLabel() string {
	name := map[Engine]string{EngineVLLM: "vLLM", EngineSGLang: "SGLang"}[l.Engine]
	if l.Workload == WorkloadDynamo {
		return "Dynamo+" + name
	}
	return name
}

// describe renders one role.
func (r Role) describe() string {
	s := fmt.Sprintf("%d instance(s) × %d node(s)/instance, TP=%d PP=%d DP=%d", r.Instances, r.NodesPerInstance, r.TP, r.PP, r.DP)
	if r.CP > 1 {
		s += fmt.Sprintf(" CP=%d", r.CP)
	}
	if r.DPAttention {
		s += " (DP-attention inside TP)"
	}
	s += fmt.Sprintf(" → %d GPU(s)/instance, %d serving GPU(s)", r.GPUsPerInstance, r.GPUs())
	if len(r.GPUIDs) > 0 {
		s += fmt.Sprintf("; GPU ids %s per node", strings.Join(r.GPUIDs, ","))
	}
	return s
}

// yesNo renders a bool for humans.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
