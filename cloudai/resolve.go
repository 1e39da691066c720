package cloudai

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ResolvedTest is a scenario test case merged with the test TOML it refers
// to: the configuration CloudAI would execute (before DSE expansion).
type ResolvedTest struct {
	// ID is the test case id.
	ID string
	// Definition is the merged test definition.
	Definition TestDefinition
	// NumNodes is the scenario's num_nodes, undecoded (int, string or list).
	NumNodes any
	// Nodes is the scenario's explicit node list.
	Nodes []string
	// Iterations is the scenario's iteration count (0 when absent).
	Iterations int
}

// LoadTests reads every *.toml file directly in dir as a test TOML and
// indexes them by name. Two files with the same name are an error.
func LoadTests(dir string) (map[string]*TestDefinition, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, fmt.Errorf("listing tests in %s: %w", dir, err)
	}
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("reading tests dir: %w", err)
		}
	}
	slices.Sort(files)
	tests := map[string]*TestDefinition{}
	where := map[string]string{}
	for _, f := range files {
		t, err := ReadTest(f)
		if err != nil {
			return nil, err
		}
		if prev, dup := where[t.Name]; dup {
			return nil, fmt.Errorf("%s: test name %q already defined in %s", f, t.Name, prev)
		}
		tests[t.Name], where[t.Name] = t, f
	}
	return tests, nil
}

// Resolve merges every test case of sc with its test definition from tests
// (see LoadTests). The scenario's cmd_args and extra_env_vars are deep-merged
// over the test's: tables merge key by key, any other value (lists included)
// replaces the test's value. Inline tests (no test_name) are used as they are.
func Resolve(sc *Scenario, tests map[string]*TestDefinition) ([]ResolvedTest, error) {
	out := make([]ResolvedTest, 0, len(sc.Tests))
	for i := range sc.Tests {
		t := &sc.Tests[i]
		def, err := resolveDefinition(t, tests)
		if err != nil {
			return nil, err
		}
		out = append(out, ResolvedTest{ID: t.ID, Definition: def, NumNodes: t.NumNodes, Nodes: t.Nodes, Iterations: t.Iterations})
	}
	return out, nil
}

// resolveDefinition builds the merged definition of one scenario test.
func resolveDefinition(t *ScenarioTest, tests map[string]*TestDefinition) (TestDefinition, error) {
	var def TestDefinition
	if ref := t.Ref(); ref != "" {
		base, ok := tests[ref]
		if !ok {
			return def, fmt.Errorf("test %q: unknown test_name %q (known: %s)", t.ID, ref, knownNames(tests))
		}
		def = *base
	}
	if t.Name != "" {
		def.Name = t.Name
	}
	if t.Description != "" {
		def.Description = t.Description
	}
	if t.TestTemplateName != "" {
		def.TestTemplateName = t.TestTemplateName
	}
	if t.DSEExcludedArgs != nil {
		def.DSEExcludedArgs = t.DSEExcludedArgs
	}
	def.CmdArgs = mergeTables(def.CmdArgs, t.CmdArgs)
	def.ExtraEnvVars = mergeTables(def.ExtraEnvVars, t.ExtraEnvVars)
	def.SemanticEvalCmdArgs = mergeTables(def.SemanticEvalCmdArgs, nil)
	return def, nil
}

// knownNames lists the test names in tests, sorted, for error messages.
func knownNames(tests map[string]*TestDefinition) string {
	names := make([]string, 0, len(tests))
	for n := range tests {
		names = append(names, fmt.Sprintf("%q", n))
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// mergeTables returns a deep copy of base with over merged on top. Keys are
// matched across hyphen/underscore spellings; the override's spelling wins.
func mergeTables(base, over map[string]any) map[string]any {
	if base == nil && over == nil {
		return nil
	}
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = deepCopy(v)
	}
	for k, v := range over {
		bk, bv, found := matchKey(out, k)
		if found {
			delete(out, bk)
		}
		bt, baseIsTable := bv.(map[string]any)
		ot, overIsTable := v.(map[string]any)
		if found && baseIsTable && overIsTable {
			out[k] = mergeTables(bt, ot)
			continue
		}
		out[k] = deepCopy(v)
	}
	return out
}

// matchKey finds key in m under either spelling.
func matchKey(m map[string]any, key string) (string, any, bool) {
	if v, ok := m[key]; ok {
		return key, v, true
	}
	for k, v := range m {
		if normKey(k) == normKey(key) {
			return k, v, true
		}
	}
	return "", nil, false
}

// deepCopy copies tables and lists so merged results never alias inputs.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return mergeTables(x, nil)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}
