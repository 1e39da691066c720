package trial

// Deployment is what ran a trial, as its source describes it: the serving
// layout, the GPUs allocated to the run and serving the model, and the
// executed configuration. Readers of result trees that record them fill
// it (ingest fills it for CloudAI runs from cloudai.Run); it is not part of
// the trial's ID: it is derived from the configuration, whose parameters
// are in Params.
type Deployment struct {
	// Layout is the serving layout; nil when it cannot be derived (the
	// reason is then in ServingGPUsUnknown).
	Layout *Layout `json:"layout,omitempty"`
	// AllocatedGPUs is nodes × GPUs per node; 0 when unknown, with the
	// reason in AllocatedGPUsUnknown.
	AllocatedGPUs        int    `json:"allocated_gpus,omitempty"`
	AllocatedGPUsUnknown string `json:"allocated_gpus_unknown,omitempty"`
	// ServingGPUs is the sum over roles of instances × GPUs per instance;
	// 0 when unknown, with the reason in ServingGPUsUnknown.
	ServingGPUs        int    `json:"serving_gpus,omitempty"`
	ServingGPUsUnknown string `json:"serving_gpus_unknown,omitempty"`
	// ConfigPath is the executed configuration file as it was opened
	// (CloudAI's test-run.toml), and Config its text exactly as read
	// (empty when it could not be read). It may hold secrets.
	ConfigPath string `json:"config_path,omitempty"`
	Config     string `json:"config,omitempty"`
}

// Layout is the serving layout of a run: which roles serve the model, how
// many instances each role runs and how each instance is parallelised.
// cloudai.DeriveLayout derives it for CloudAI runs.
type Layout struct {
	// Workload is the workload family ("vllm", "sglang", "ai_dynamo").
	Workload string `json:"workload"`
	// Engine is the serving engine ("vllm", "sglang").
	Engine string `json:"engine"`
	// Disaggregated is true when prefill and decode run as separate roles.
	Disaggregated bool `json:"disaggregated"`
	// SharedNodes is true when prefill and decode instances share nodes.
	SharedNodes bool `json:"shared_nodes"`
	// Nodes is the number of allocated nodes the layout was derived for.
	Nodes int `json:"nodes"`
	// Roles are the serving roles: prefill then decode, or one "serving".
	Roles []LayoutRole `json:"roles"`
	// Warnings are inconsistencies that did not prevent counting, such as
	// a tensor-parallel size larger than the GPUs the role can see.
	Warnings []string `json:"warnings,omitempty"`
}

// LayoutRole is one serving role of a Layout.
type LayoutRole struct {
	// Name is "prefill", "decode" or "serving" (combined serving).
	Name string `json:"name"`
	// Instances is the number of engine instances.
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
	// DPAttention is SGLang's --enable-dp-attention: DP ranks live inside
	// the TP group and add no GPUs.
	DPAttention bool `json:"dp_attention,omitempty"`
	// GPUsPerInstance is the number of GPUs one instance holds.
	GPUsPerInstance int `json:"gpus_per_instance"`
	// GPUIDs are the GPU ids the role uses on each of its nodes, when the
	// configuration names them.
	GPUIDs []string `json:"gpu_ids,omitempty"`
}

// GPUs returns the role's serving GPUs: instances × GPUs per instance.
func (r LayoutRole) GPUs() int { return r.Instances * r.GPUsPerInstance }
