package cloudai

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/pareto-llm/pareto/trial"
)

// Run is one point source of a CloudAI results tree: a successful iteration,
// DSE step or AIPerf phase. A caller reads Files with its format readers and
// attaches Labels, Params and the GPU counts to every trial:
//
//	for _, f := range run.Files {
//		trials := ingest.ReadFile(f.Path) // one or more trials
//		// attach run.Labels, run.Params, run.AllocatedGPUs, run.ServingGPUs
//	}
type Run struct {
	// Case is the test case id (scenario [[Tests]] id).
	Case string `json:"case"`
	// Iteration is the iteration number (0-based).
	Iteration int `json:"iteration"`
	// Step is the DSE step (1..N), 0 for a non-DSE run.
	Step int `json:"step"`
	// Phase is the Dynamo AIPerf phase ("aiperf" when no phases are
	// configured), "" for vLLM, SGLang and GenAI-Perf runs.
	Phase string `json:"phase,omitempty"`
	// Benchmark names the benchmark tool: "vllm-bench", "sglang-bench",
	// "aiperf" or "genai-perf".
	Benchmark string `json:"benchmark"`
	// Dir is the run directory; ConfigPath its test-run.toml, "" when it
	// has none.
	Dir        string `json:"dir"`
	ConfigPath string `json:"config_path"`
	// ConfigFrom says where Params, Nodes and Layout come from:
	// ConfigFromTestRun (the executed configuration) or ConfigFromScenario.
	ConfigFrom string `json:"config_from"`
	// Files are the files holding this run's measurements: read all of them
	// (normally one). A file that is present but cannot be read is the
	// run's damage, never replaced by another: a CSV summary stands in for
	// the tool's JSON only when the JSON is absent, and Warnings say so.
	Files []File `json:"files"`
	// AccuracyFiles hold the accuracy result when one was configured.
	AccuracyFiles []File `json:"accuracy_files,omitempty"`
	// Params are the run's parameters (ParamsOf its configuration).
	Params []Param `json:"params"`
	// PhaseParams are the AIPerf phase's own settings (phase runs only).
	PhaseParams []Param `json:"phase_params,omitempty"`
	// Labels hold workload, engine, orchestrator, model, test and system,
	// and the environment (gpu, gpu_count, cuda, driver: see nodeLabels)
	// when known.
	Labels map[string]string `json:"labels"`
	// Nodes is the executed node count.
	Nodes int `json:"nodes"`
	// Layout is the serving layout; nil when it cannot be derived.
	Layout *trial.Layout `json:"layout,omitempty"`
	// AllocatedGPUs is nodes × gpus_per_node; 0 when unknown, with the reason
	// in AllocatedGPUsUnknown.
	AllocatedGPUs        int    `json:"allocated_gpus"`
	AllocatedGPUsUnknown string `json:"allocated_gpus_unknown,omitempty"`
	// ServingGPUs is Σ instances × GPUs per instance; 0 when unknown, with the
	// reason in ServingGPUsUnknown.
	ServingGPUs        int    `json:"serving_gpus"`
	ServingGPUsUnknown string `json:"serving_gpus_unknown,omitempty"`
	// CloudAIGPUs is CloudAI's own used_gpus_count, for comparison only
	// (0 when it cannot be reproduced).
	CloudAIGPUs int `json:"cloudai_gpus"`
	// Evidence lists the success markers found.
	Evidence []string `json:"evidence"`
	// Warnings are problems that did not exclude the run.
	Warnings []string `json:"warnings,omitempty"`
}

// ID returns the run's stable point id "case/iteration/step/phase" (step 0
// and an empty phase for non-DSE and non-phase runs).
func (r *Run) ID() string {
	return fmt.Sprintf("%s/%d/%d/%s", r.Case, r.Iteration, r.Step, r.Phase)
}

// newRun builds the parts of a Run shared by all its points.
func (w *walker) newRun(p runPos, cfg *runConfig, wl Workload) Run {
	def := &cfg.def
	r := Run{Case: p.caseID, Iteration: p.iteration, Step: p.step, Dir: p.dir, ConfigPath: cfg.path, ConfigFrom: cfg.from()}
	r.Nodes = cfg.nodes
	r.Warnings = append(r.Warnings, cfg.warnings...)
	r.Params = ParamsOf(def, r.Nodes)
	r.Labels = runLabels(def, wl, w.opts.System)
	if warn := imageLabels(def, r.Labels); warn != "" {
		r.Warnings = append(r.Warnings, warn)
	}
	maps.Copy(r.Labels, nodeLabels(p.dir, p.iterDir, w.root))
	r.countGPUs(def, w.opts.GPUsPerNode)
	if r.AllocatedGPUs > 0 {
		r.Labels[trial.LabelGPUCount] = itoa(r.AllocatedGPUs)
	}
	return r
}

// countGPUs fills the layout and the GPU counts, or the reasons they are
// unknown.
func (r *Run) countGPUs(def *TestDefinition, gpn int) {
	if n, err := AllocatedGPUs(r.Nodes, gpn); err != nil {
		r.AllocatedGPUsUnknown = err.Error()
	} else {
		r.AllocatedGPUs = n
	}
	l, err := DeriveLayout(def, r.Nodes, gpn)
	if err != nil {
		r.ServingGPUsUnknown = err.Error()
	} else if n, err := ServingGPUs(l); err != nil {
		r.ServingGPUsUnknown = err.Error()
	} else {
		r.Layout, r.ServingGPUs = l, n
		r.Warnings = append(r.Warnings, l.Warnings...)
	}
	if n, err := CloudAIUsedGPUs(def, r.Nodes, gpn); err == nil {
		r.CloudAIGPUs = n
	}
}

// runLabels derives the descriptive labels of a run.
func runLabels(def *TestDefinition, wl Workload, system string) map[string]string {
	l := map[string]string{"workload": string(wl), "test": def.Name}
	switch wl {
	case WorkloadDynamo:
		l["orchestrator"] = "dynamo"
		if e, err := dynamoEngine(table(def.CmdArgs, "dynamo")); err == nil {
			l["engine"] = string(e)
		}
	default:
		l["engine"] = string(wl)
	}
	if m := modelOf(def); m != "" {
		l["model"] = m
	}
	if system != "" {
		l["system"] = system
	}
	return l
}

// modelOf finds the served model in the usual places.
func modelOf(def *TestDefinition) string {
	for _, path := range [][]string{
		{"dynamo", "model"}, {"model"}, {"served_model_name"}, {"decode", "model"}, {"decode", "model_path"},
	} {
		if v, ok := lookup(def.CmdArgs, path...); ok {
			if s := stringValue(v); s != "" {
				return s
			}
		}
	}
	return ""
}

// nodeLabels returns the environment a CloudAI node metadata file
// (metadata/node-*.toml, SlurmSystemMetadata) records, from the first such
// file in the run directory, else the iteration directory, else the
// scenario directory: labels gpu (system.gpu_arch_type), cuda
// (cuda.cuda_runtime_version, else cuda_build_version) and driver
// (cuda.nvidia_driver_version, else cuda_driver_version). CloudAI writes
// "null" for what it could not find; that is left out.
func nodeLabels(dirs ...string) map[string]string {
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "metadata", "node-*.toml"))
		slices.Sort(files)
		for _, f := range files {
			if l := nodeFile(f); len(l) > 0 {
				return l
			}
		}
	}
	return nil
}

// nodeFile reads the labels of one node metadata file (see nodeLabels).
func nodeFile(path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]any
	if toml.Unmarshal(data, &m) != nil {
		return nil
	}
	l := map[string]string{}
	for _, c := range []struct {
		label string
		keys  []string
	}{
		{trial.LabelGPU, []string{"gpu_arch_type"}},
		{trial.LabelCUDA, []string{"cuda_runtime_version", "cuda_build_version"}},
		{trial.LabelDriver, []string{"nvidia_driver_version", "cuda_driver_version"}},
	} {
		for _, k := range c.keys {
			if v := findKey(m, k, 0); v != "" && !strings.EqualFold(v, "null") && !strings.EqualFold(v, "none") {
				l[c.label] = v
				break
			}
		}
	}
	return l
}

// findKey searches nested tables for key and returns its string value.
func findKey(m map[string]any, key string, depth int) string {
	if v, ok := m[key]; ok {
		return strings.TrimSpace(stringValue(v))
	}
	if depth > 4 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if t, ok := m[k].(map[string]any); ok {
			if v := findKey(t, key, depth+1); v != "" {
				return v
			}
		}
	}
	return ""
}

// itoa is strconv.Itoa, for brevity in messages.
func itoa(n int) string { return strconv.Itoa(n) }
