package cloudai

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// golden compares got with testdata/golden/<name>.golden, rewriting it with
// -update. On mismatch it writes <name>.got next to it (gitignored) and
// reports the first differing line.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gotPath := strings.TrimSuffix(path, ".golden") + ".got"
	_ = os.WriteFile(gotPath, got, 0o644)
	t.Errorf("%s differs from golden (got written to %s):\n%s", name, gotPath, firstDiff(want, got))
}

// firstDiff describes the first line where want and got differ.
func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, w, g)
		}
	}
	return "(identical lines, different bytes)"
}

// goldenSystemGPUs is the GPUs-per-node of the system the scenario goldens are
// computed for (conf/common/system/example_slurm_cluster.toml).
const goldenSystemGPUs = 8

// TestConfigGoldens decodes every CloudAI config under testdata/conf and
// compares a readable rendering with testdata/golden/conf/...: decoded
// fields, flattened parameters and, for scenarios, the resolved node counts,
// layouts and GPU counts.
func TestConfigGoldens(t *testing.T) {
	root := filepath.Join("testdata", "conf")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".toml") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) != 24 {
		t.Fatalf("found %d config files, %v; want 24", len(files), err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel("testdata", f)
		t.Run(rel, func(t *testing.T) {
			var b strings.Builder
			switch filepath.Base(filepath.Dir(f)) {
			case "system":
				renderSystem(t, &b, f)
			case "test":
				renderTest(t, &b, f)
			case "test_scenario":
				renderScenario(t, &b, f)
			default:
				t.Fatalf("unexpected config directory for %s", f)
			}
			golden(t, strings.TrimSuffix(rel, ".toml"), []byte(b.String()))
		})
	}
}

// renderSystem renders a system config.
func renderSystem(t *testing.T, b *strings.Builder, f string) {
	s, err := ReadSystem(f)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(b, "system %q scheduler=%q gpus_per_node=%d ntasks_per_node=%d default_partition=%q\n",
		s.Name, s.Scheduler, s.GPUsPerNode, s.NTasksPerNode, s.DefaultPartition)
	writeParams(b, "global env", Flatten("", s.GlobalEnvVars))
	n, err := AllocatedGPUs(2, s.GPUsPerNode)
	fmt.Fprintf(b, "allocated GPUs on 2 nodes: %s\n", countOrReason(n, err))
}

// renderTest renders a test TOML.
func renderTest(t *testing.T, b *strings.Builder, f string) {
	d, err := ReadTest(f)
	if err != nil {
		t.Fatal(err)
	}
	w, err := WorkloadOf(d)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(b, "test %q template=%q workload=%s\ndescription: %s\n", d.Name, d.TestTemplateName, w, d.Description)
	fmt.Fprintf(b, "dse_excluded_args: %v\n", d.DSEExcludedArgs)
	writeParams(b, "params", ParamsOf(d, 0))
	writeParams(b, "semantic_eval_cmd_args", Flatten("", d.SemanticEvalCmdArgs))
}

// renderScenario renders a scenario resolved against its sibling test dir.
func renderScenario(t *testing.T, b *strings.Builder, f string) {
	sc, err := ReadScenario(f)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := LoadTests(filepath.Join(filepath.Dir(filepath.Dir(f)), "test"))
	if err != nil {
		t.Fatal(err)
	}
	rts, err := Resolve(sc, tests)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(b, "scenario %q: %d test(s); GPU counts for a %d-GPU-per-node system\n", sc.Name, len(sc.Tests), goldenSystemGPUs)
	for i, rt := range rts {
		st := sc.Tests[i]
		fmt.Fprintf(b, "\n[[Tests]] line %d id=%q test_name=%q template=%q time_limit=%q\n",
			st.Line, rt.ID, st.Ref(), rt.Definition.TestTemplateName, st.TimeLimit)
		renderResolved(b, &rt)
	}
}

// renderResolved renders node counts, params, layout and GPU counts.
func renderResolved(b *strings.Builder, rt *ResolvedTest) {
	nodes, src, err := rt.ConfigNodes()
	if err != nil {
		fmt.Fprintf(b, "nodes: unknown: %v\n", err)
	} else {
		fmt.Fprintf(b, "nodes: %d (%s)\n", nodes, src)
	}
	writeParams(b, "params", ParamsOf(&rt.Definition, nodes))
	l, err := DeriveLayout(&rt.Definition, nodes, goldenSystemGPUs)
	if err != nil {
		fmt.Fprintf(b, "layout: %v\n", err)
	} else {
		fmt.Fprintf(b, "layout: %s\n", DescribeLayout(l))
	}
	sg, err := ServingGPUs(l)
	fmt.Fprintf(b, "serving GPUs: %s\n", countOrReason(sg, err))
	ag, err := AllocatedGPUs(nodes, goldenSystemGPUs)
	fmt.Fprintf(b, "allocated GPUs: %s\n", countOrReason(ag, err))
	_, err = AllocatedGPUs(nodes, 0)
	fmt.Fprintf(b, "allocated GPUs without gpus_per_node: %s\n", countOrReason(0, err))
	cg, err := CloudAIUsedGPUs(&rt.Definition, nodes, goldenSystemGPUs)
	fmt.Fprintf(b, "CloudAI used_gpus_count: %s\n", countOrReason(cg, err))
}

// writeParams writes a titled, indented parameter list.
func writeParams(b *strings.Builder, title string, ps []Param) {
	fmt.Fprintf(b, "%s (%d):\n", title, len(ps))
	for _, p := range ps {
		fmt.Fprintf(b, "  %s\n", p)
	}
}

// countOrReason renders a count or the reason it is unknown.
func countOrReason(n int, err error) string {
	if err != nil {
		return "absent: " + err.Error()
	}
	return fmt.Sprint(n)
}
