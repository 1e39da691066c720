package cloudai

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/trial"
)

// SystemConfig is a CloudAI system TOML (conf/common/system/*.toml). Only the
// fields pareto uses are typed; everything else stays in Extra.
type SystemConfig struct {
	// Name is the system name.
	Name string `toml:"name" json:"name"`
	// Scheduler is "slurm", "kubernetes", "runai", "standalone", ...
	Scheduler string `toml:"scheduler" json:"scheduler"`
	// GPUsPerNode is the number of GPUs per node; 0 when the file does not
	// set it (CloudAI then assumes 1 for GPU-id lists, pareto treats the
	// allocated GPU count as unknown).
	GPUsPerNode int `toml:"gpus_per_node" json:"gpus_per_node"`
	// NTasksPerNode is Slurm's ntasks_per_node; 0 when not set.
	NTasksPerNode int `toml:"ntasks_per_node" json:"ntasks_per_node"`
	// DefaultPartition is the Slurm default partition.
	DefaultPartition string `toml:"default_partition" json:"default_partition"`
	// GlobalEnvVars are environment variables applied to every test.
	GlobalEnvVars map[string]any `toml:"global_env_vars" json:"global_env_vars"`
}

// TestDefinition is a CloudAI test TOML, or the test_definition table of an
// executed test-run.toml. cmd_args is kept generic: every workload has its own
// schema and pydantic aliases (hyphenated or underscored keys).
type TestDefinition struct {
	// Name is the test name that scenarios refer to with test_name.
	Name string `toml:"name" json:"name"`
	// Description is free text.
	Description string `toml:"description" json:"description"`
	// TestTemplateName selects the workload: "vllm", "sglang", "AIDynamo", ...
	TestTemplateName string `toml:"test_template_name" json:"test_template_name"`
	// CmdArgs is the workload's cmd_args table.
	CmdArgs map[string]any `toml:"cmd_args" json:"cmd_args"`
	// ExtraEnvVars is the extra_env_vars table (CUDA_VISIBLE_DEVICES lives here).
	ExtraEnvVars map[string]any `toml:"extra_env_vars" json:"extra_env_vars"`
	// SemanticEvalCmdArgs configures the vLLM/SGLang accuracy run when set.
	SemanticEvalCmdArgs map[string]any `toml:"semantic_eval_cmd_args" json:"semantic_eval_cmd_args,omitempty"`
	// DSEExcludedArgs lists cmd_args paths that are lists but not DSE sweeps.
	DSEExcludedArgs []string `toml:"dse_excluded_args" json:"dse_excluded_args,omitempty"`
}

// Scenario is a CloudAI test-scenario TOML.
type Scenario struct {
	// Name is the scenario name; results go to <output>/<name>_<timestamp>/.
	Name string `toml:"name" json:"name"`
	// JobStatusCheck is CloudAI's job_status_check flag; nil when absent.
	JobStatusCheck *bool `toml:"job_status_check" json:"job_status_check,omitempty"`
	// PreTest names a pre-test hook.
	PreTest string `toml:"pre_test" json:"pre_test,omitempty"`
	// Tests are the [[Tests]] entries in file order.
	Tests []ScenarioTest `toml:"Tests" json:"tests"`
	// Reports holds the [reports.*] tables, undecoded.
	Reports map[string]any `toml:"reports" json:"reports,omitempty"`
}

// ScenarioTest is one [[Tests]] entry: a test case of a scenario. It either
// refers to a test TOML by TestName and overrides parts of it, or defines the
// test inline (TestTemplateName set, TestName empty).
type ScenarioTest struct {
	// ID is the test case id, the directory name under the results dir.
	ID string `toml:"id" json:"id"`
	// TestName refers to a test TOML's name (CloudAI also accepts "test").
	TestName string `toml:"test_name" json:"test_name,omitempty"`
	// Test is the older spelling of TestName.
	Test string `toml:"test" json:"test,omitempty"`
	// Name, Description and TestTemplateName define an inline test.
	Name             string `toml:"name" json:"name,omitempty"`
	Description      string `toml:"description" json:"description,omitempty"`
	TestTemplateName string `toml:"test_template_name" json:"test_template_name,omitempty"`
	// NumNodes is an int, a numeric string, or a list (a DSE sweep); see
	// NodeCount.
	NumNodes any `toml:"num_nodes" json:"num_nodes,omitempty"`
	// Nodes is an explicit node list.
	Nodes []string `toml:"nodes" json:"nodes,omitempty"`
	// TimeLimit is the Slurm time limit.
	TimeLimit string `toml:"time_limit" json:"time_limit,omitempty"`
	// Iterations is the number of iterations; 0 when absent (CloudAI: 1).
	Iterations int `toml:"iterations" json:"iterations,omitempty"`
	// CmdArgs overrides the test's cmd_args (deep merge).
	CmdArgs map[string]any `toml:"cmd_args" json:"cmd_args,omitempty"`
	// ExtraEnvVars overrides the test's extra_env_vars.
	ExtraEnvVars map[string]any `toml:"extra_env_vars" json:"extra_env_vars,omitempty"`
	// DSEExcludedArgs overrides the test's dse_excluded_args.
	DSEExcludedArgs []string `toml:"dse_excluded_args" json:"dse_excluded_args,omitempty"`
	// Line is the 1-based line of the [[Tests]] header (0 if unknown).
	Line int `toml:"-" json:"-"`
}

// TestRunDetails is the executed configuration CloudAI writes to
// <iteration>[/<step>]/test-run.toml (store_test_run).
type TestRunDetails struct {
	// Name is the test case id.
	Name string `toml:"name" json:"name"`
	// NNodes is the number of nodes the run was allocated.
	NNodes int `toml:"nnodes" json:"nnodes"`
	// Nodes lists the allocated node names, when recorded.
	Nodes []string `toml:"nodes" json:"nodes,omitempty"`
	// OutputPath is the run directory at execution time.
	OutputPath string `toml:"output_path" json:"output_path"`
	// Iterations is the configured number of iterations.
	Iterations int `toml:"iterations" json:"iterations"`
	// CurrentIteration is this run's iteration.
	CurrentIteration int `toml:"current_iteration" json:"current_iteration"`
	// Step is the DSE step (0 outside DSE).
	Step int `toml:"step" json:"step"`
	// TestCmd and FullCmd are the generated command lines.
	TestCmd string `toml:"test_cmd" json:"test_cmd,omitempty"`
	FullCmd string `toml:"full_cmd" json:"full_cmd,omitempty"`
	// TestDefinition is the executed test definition (scenario overrides
	// and DSE values applied).
	TestDefinition TestDefinition `toml:"test_definition" json:"test_definition"`
}

// DecodeSystem decodes a system TOML; file names the input in errors.
func DecodeSystem(file string, data []byte) (*SystemConfig, error) {
	var s SystemConfig
	if err := position.DecodeTOML(file, data, &s); err != nil {
		return nil, err
	}
	if err := CheckGPUsPerNode(s.GPUsPerNode); err != nil {
		at := position.IndexTOML(data)["gpus_per_node"]
		return nil, &PosError{File: file, Line: at.Line, Col: at.Col, Msg: "gpus_per_node " + err.Error()}
	}
	return &s, nil
}

// CheckGPUsPerNode validates a number of GPUs per node, whatever its source
// (a system TOML's gpus_per_node, the --gpus-per-node flag): 0 (unknown)
// or more.
func CheckGPUsPerNode(n int) error {
	if n < 0 {
		return fmt.Errorf("must be 0 (unknown) or a number of GPUs, got %d", n)
	}
	return nil
}

// DecodeTest decodes a test TOML.
func DecodeTest(file string, data []byte) (*TestDefinition, error) {
	var t TestDefinition
	if err := position.DecodeTOML(file, data, &t); err != nil {
		return nil, err
	}
	if t.Name == "" {
		return nil, &PosError{File: file, Line: 1, Msg: "test has no name"}
	}
	return &t, nil
}

// DecodeScenario decodes a test-scenario TOML and checks that every test case
// has a unique id and refers to a test (test_name/test) or defines one inline
// (test_template_name). Errors point at the offending [[Tests]] header.
func DecodeScenario(file string, data []byte) (*Scenario, error) {
	var s Scenario
	if err := position.DecodeTOML(file, data, &s); err != nil {
		return nil, err
	}
	if len(s.Tests) == 0 {
		return nil, &PosError{File: file, Line: 1, Msg: "the scenario has no test cases: add a [[Tests]] table with an id and a test_name"}
	}
	lines := arrayTableLines(data, "Tests")
	seen := map[string]int{}
	for i := range s.Tests {
		t := &s.Tests[i]
		if i < len(lines) {
			t.Line = lines[i]
		}
		if err := t.check(); err != nil {
			return nil, &PosError{File: file, Line: t.Line, Col: 1, Msg: fmt.Sprintf("Tests[%d]: %v", i, err)}
		}
		if prev, dup := seen[t.ID]; dup {
			return nil, &PosError{File: file, Line: t.Line, Col: 1,
				Msg: fmt.Sprintf("Tests[%d]: duplicate test id %q (first at Tests[%d])", i, t.ID, prev)}
		}
		seen[t.ID] = i
	}
	return &s, nil
}

// check validates one scenario test entry.
func (t *ScenarioTest) check() error {
	if strings.TrimSpace(t.ID) == "" {
		return fmt.Errorf("missing id")
	}
	if t.TestName != "" && t.Test != "" && t.TestName != t.Test {
		return fmt.Errorf("test_name %q and test %q disagree", t.TestName, t.Test)
	}
	if t.Ref() == "" && t.TestTemplateName == "" {
		return fmt.Errorf("test %q names no test (test_name) and defines none (test_template_name)", t.ID)
	}
	if _, err := t.NodeCount(); err != nil && !isSweep(t.NumNodes) {
		return fmt.Errorf("test %q: %v", t.ID, err)
	}
	return nil
}

// Ref returns the name of the test TOML this entry refers to ("" for an
// inline test).
func (t *ScenarioTest) Ref() string {
	if t.TestName != "" {
		return t.TestName
	}
	return t.Test
}

// IsDSE reports whether the entry sweeps its node count (num_nodes is a list).
func (t *ScenarioTest) IsDSE() bool { return isSweep(t.NumNodes) }

// NodeCount returns num_nodes as an int: 0 when absent, an error when it is a
// sweep or not a positive integer.
func (t *ScenarioTest) NodeCount() (int, error) {
	if t.NumNodes == nil {
		return 0, nil
	}
	n, err := intValue(t.NumNodes)
	if err != nil {
		return 0, fmt.Errorf("num_nodes: %v", err)
	}
	if n <= 0 {
		return 0, fmt.Errorf("num_nodes must be positive, got %d", n)
	}
	return n, nil
}

// DecodeTestRun decodes an executed test-run.toml. The command lines
// (TestCmd, FullCmd) are redacted (trial.RedactText); the tables keep their
// values, and Flatten redacts them into parameters.
func DecodeTestRun(file string, data []byte) (*TestRunDetails, error) {
	var d TestRunDetails
	if err := position.DecodeTOML(file, data, &d); err != nil {
		return nil, err
	}
	d.TestCmd, d.FullCmd = trial.RedactText(d.TestCmd), trial.RedactText(d.FullCmd)
	return &d, nil
}

// ReadConfigText reads an executed configuration (test-run.toml) for
// display, with every secret redacted (trial.RedactText): the values of
// secret keys (api_key = "<redacted>", HF_TOKEN = "<redacted>" under
// extra_env_vars) and the secret arguments inside full_cmd, test_cmd and
// cmd_args strings. The rest of the text is unchanged, byte for byte.
func ReadConfigText(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return trial.RedactText(string(b)), nil
}

// ReadSystem reads and decodes a system TOML file.
func ReadSystem(path string) (*SystemConfig, error) { return readWith(path, DecodeSystem) }

// ReadTest reads and decodes a test TOML file.
func ReadTest(path string) (*TestDefinition, error) { return readWith(path, DecodeTest) }

// ReadScenario reads and decodes a test-scenario TOML file.
func ReadScenario(path string) (*Scenario, error) { return readWith(path, DecodeScenario) }

// ReadTestRun reads and decodes a test-run.toml file.
func ReadTestRun(path string) (*TestRunDetails, error) { return readWith(path, DecodeTestRun) }

// readWith reads path and hands its bytes to decode. A file with no TOML
// key at all (empty, blank or only comments) is an error: every CloudAI
// configuration has keys, and an emptied file is damage, not defaults.
func readWith[T any](path string, decode func(string, []byte) (*T, error)) (*T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if noKeys(data) {
		return nil, &PosError{File: path, Line: 1, Col: 1, Msg: "the file has no TOML keys (empty): want a CloudAI configuration"}
	}
	return decode(path, data)
}

// noKeys reports whether data holds only blank lines and comments.
func noKeys(data []byte) bool {
	for line := range bytes.Lines(data) {
		if s := bytes.TrimSpace(line); len(s) > 0 && s[0] != '#' {
			return false
		}
	}
	return true
}
