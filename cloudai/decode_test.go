package cloudai

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeErrors checks positioned errors for bad TOML and bad scenarios.
func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		decode func(string, []byte) error
		input  string
		want   string
	}{
		{"syntax error", decodeScenario, "name = \"s\"\n[[Tests]\nid = \"a\"\n",
			"s.toml:2:8: expected ']]' to close array table name"},
		{"type error", decodeSystem, "name = \"x\"\ngpus_per_node = \"eight\"\n",
			"s.toml:2:17: cannot decode TOML string into struct field cloudai.SystemConfig.GPUsPerNode of type int (key gpus_per_node)"},
		{"negative gpus", decodeSystem, "name = \"x\"\ngpus_per_node = -8\n", "s.toml:2:1: gpus_per_node must be 0 (unknown) or a number of GPUs, got -8"},
		{"no tests", decodeScenario, "name = \"s\"\njob_status_check = true\n",
			"s.toml:1: the scenario has no test cases: add a [[Tests]] table with an id and a test_name"},
		{"empty", decodeScenario, "", "s.toml:1: the scenario has no test cases: add a [[Tests]] table with an id and a test_name"},
		{"missing id", decodeScenario, "name = \"s\"\n\n[[Tests]]\nid = \"a\"\ntest_name = \"t\"\n\n[[Tests]]\ntest_name = \"t\"\n",
			"s.toml:7:1: Tests[1]: missing id"},
		{"duplicate id", decodeScenario, "[[Tests]]\nid = \"a\"\ntest_name = \"t\"\n[[Tests]]\nid = \"a\"\ntest_name = \"t\"\n",
			`s.toml:4:1: Tests[1]: duplicate test id "a" (first at Tests[0])`},
		{"no test", decodeScenario, "[[Tests]]\nid = \"a\"\n",
			`s.toml:1:1: Tests[0]: test "a" names no test (test_name) and defines none (test_template_name)`},
		{"bad num_nodes", decodeScenario, "[[Tests]]\nid = \"a\"\ntest_name = \"t\"\nnum_nodes = \"two\"\n",
			`s.toml:1:1: Tests[0]: test "a": num_nodes: "two" is not an integer`},
		{"test without name", decodeTest, "description = \"x\"\n", "s.toml:1: test has no name"},
		{"duplicate key", decodeTest, "name = \"a\"\nname = \"b\"\n", "s.toml:2:1: key name is already defined (key name)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode("s.toml", []byte(tt.input))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("decode() error = %v; want %q", err, tt.want)
			}
			if _, ok := errors.AsType[*PosError](err); !ok {
				t.Errorf("error %T is not a *PosError", err)
			}
		})
	}
}

func decodeScenario(f string, b []byte) error { _, err := DecodeScenario(f, b); return err }
func decodeSystem(f string, b []byte) error   { _, err := DecodeSystem(f, b); return err }
func decodeTest(f string, b []byte) error     { _, err := DecodeTest(f, b); return err }

// TestNumNodesShapes checks num_nodes as int, string and DSE list.
func TestNumNodesShapes(t *testing.T) {
	sc, err := DecodeScenario("s.toml", []byte(`
[[Tests]]
id = "int"
test_name = "t"
num_nodes = 2
[[Tests]]
id = "string"
test_name = "t"
num_nodes = "4"
[[Tests]]
id = "sweep"
test = "t"
num_nodes = [1, 2]
`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{2, 4} {
		if n, err := sc.Tests[i].NodeCount(); err != nil || n != want {
			t.Errorf("Tests[%d].NodeCount() = %d, %v; want %d", i, n, err, want)
		}
	}
	st := sc.Tests[2]
	if !st.IsDSE() || st.Ref() != "t" || st.Line != 10 {
		t.Errorf("sweep entry: IsDSE=%v Ref=%q Line=%d; want true, t, 10", st.IsDSE(), st.Ref(), st.Line)
	}
	rt := ResolvedTest{NumNodes: st.NumNodes}
	if _, _, err := rt.ConfigNodes(); err == nil || !strings.Contains(err.Error(), "num_nodes is a sweep [1, 2]") {
		t.Errorf("ConfigNodes() error = %v; want sweep error", err)
	}
}

// TestResolveMerge checks the deep merge of scenario overrides, including
// hyphen/underscore spellings and list replacement, and unknown test names.
func TestResolveMerge(t *testing.T) {
	base := &TestDefinition{Name: "t", TestTemplateName: "AIDynamo", CmdArgs: map[string]any{
		"dynamo": map[string]any{"backend": "vllm", "prefill_worker": map[string]any{
			"num-nodes": int64(1), "args": map[string]any{"tensor-parallel-size": int64(8), "data-parallel-size": int64(1)}}},
		"aiperf_phases": []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}},
	}, ExtraEnvVars: map[string]any{"A": "1"}}
	sc := &Scenario{Tests: []ScenarioTest{{ID: "c", TestName: "t",
		CmdArgs: map[string]any{
			"dynamo":        map[string]any{"prefill_worker": map[string]any{"num_nodes": int64(2), "args": map[string]any{"tensor_parallel_size": int64(4)}}},
			"aiperf_phases": []any{map[string]any{"name": "only"}},
		},
		ExtraEnvVars: map[string]any{"B": "2"}}}}
	rts, err := Resolve(sc, map[string]*TestDefinition{"t": base})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(paramStrings(ParamsOf(&rts[0].Definition, 0)), " ")
	want := "aiperf_phases[0].name=only dynamo.backend=vllm dynamo.prefill_worker.args.data-parallel-size=1 " +
		"dynamo.prefill_worker.args.tensor_parallel_size=4 dynamo.prefill_worker.num_nodes=2 extra_env_vars.A=1 extra_env_vars.B=2"
	if got != want {
		t.Errorf("merged params =\n%s\nwant\n%s", got, want)
	}
	if v := base.CmdArgs["dynamo"].(map[string]any)["prefill_worker"].(map[string]any)["num-nodes"]; v != int64(1) {
		t.Errorf("Resolve modified the base test: num-nodes = %v", v)
	}
	sc.Tests[0].TestName = "nope"
	if _, err := Resolve(sc, map[string]*TestDefinition{"t": base}); err == nil ||
		err.Error() != `test "c": unknown test_name "nope" (known: "t")` {
		t.Errorf("Resolve() error = %v", err)
	}
}

func paramStrings(ps []Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// TestFlattenRendering checks value rendering and key quoting.
func TestFlattenRendering(t *testing.T) {
	m := map[string]any{
		"d_bs":   []any{int64(8), int64(16)},
		"ids":    []any{"0", "1"},
		"rate":   6.6666666667,
		"whole":  float64(1),
		"flag":   true,
		"empty":  map[string]any{},
		"a.b":    "dotted",
		"cli":    "--model x\n--url y\n",
		"inline": []any{map[string]any{"k": "v"}, int64(1)},
	}
	got := strings.Join(paramStrings(Flatten("p", m)), "\n")
	want := strings.Join([]string{
		`p."a.b"=dotted`,
		`p.cli="--model x\n--url y\n"`,
		`p.d_bs=[8, 16]`,
		`p.empty={}`,
		`p.flag=true`,
		`p.ids=["0", "1"]`,
		`p.inline=[{k = "v"}, 1]`,
		`p.rate=6.6666666667`,
		`p.whole=1.0`,
	}, "\n")
	if got != want {
		t.Errorf("Flatten() =\n%s\nwant\n%s", got, want)
	}
}
