package cloudai

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
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

// Role names used in trial.Layout.Roles.
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

// roleLabel returns a role's display name: "Prefill", "Decode" or
// "Serving".
func roleLabel(r trial.LayoutRole) string {
	if r.Name == "" {
		return ""
	}
	return strings.ToUpper(r.Name[:1]) + r.Name[1:]
}

// DeriveLayout derives the serving layout of def running on nodes allocated
// nodes. gpusPerNode (0 when unknown) is only needed for CloudAI's default GPU
// id list and Dynamo's multiple-workers-per-node; it never changes TP/PP/DP.
func DeriveLayout(def *TestDefinition, nodes, gpusPerNode int) (*trial.Layout, error) {
	w, err := WorkloadOf(def)
	if err != nil {
		return nil, fmt.Errorf("cannot determine serving layout: %w", err)
	}
	if nodes <= 0 {
		return nil, fmt.Errorf("cannot determine serving layout: node count unknown")
	}
	var l *trial.Layout
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
func ServingGPUs(l *trial.Layout) (int, error) {
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

// DescribeLayout describes l on several lines, the way point details show
// it: one line per role with instances, nodes per instance and TP/PP/DP, and
// whether prefill and decode share nodes.
func DescribeLayout(l *trial.Layout) string {
	var b strings.Builder
	mode := "aggregated"
	if l.Disaggregated {
		mode = "disaggregated"
	}
	fmt.Fprintf(&b, "%s %s on %d node(s)", workloadLabel(l), mode, l.Nodes)
	for _, r := range l.Roles {
		fmt.Fprintf(&b, "\n  %s: %s", roleLabel(r), describeRole(r))
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
func workloadLabel(l *trial.Layout) string {
	name := map[Engine]string{EngineVLLM: "vLLM", EngineSGLang: "SGLang"}[Engine(l.Engine)]
	if Workload(l.Workload) == WorkloadDynamo {
		return "Dynamo+" + name
	}
	return name
}

// describeRole renders one role.
func describeRole(r trial.LayoutRole) string {
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
