package cloudai

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to every TOML decoder and to the layout
// derivation of whatever decodes: nothing may panic, and every decode error
// must be a *PosError naming the file.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conf", "*", "*", "*.toml"))
	more, _ := filepath.Glob(filepath.Join("testdata", "conf", "*", "*", "*", "*.toml"))
	for _, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("[[Tests]]\nid = \"a\"\ntest_name = \"t\"\nnum_nodes = [1, \"2\"]\n"))
	f.Add([]byte("[test_definition]\ntest_template_name = \"AIDynamo\"\n[test_definition.cmd_args.dynamo.prefill_worker]\nnodes-per-worker = 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPos := func(err error) {
			if err == nil {
				return
			}
			pe, ok := errors.AsType[*PosError](err)
			if !ok || pe.File != "f.toml" {
				t.Fatalf("error %v (%T) is not a *PosError for f.toml", err, err)
			}
		}
		_, err := DecodeSystem("f.toml", data)
		checkPos(err)
		_, err = DecodeTest("f.toml", data)
		checkPos(err)
		sc, err := DecodeScenario("f.toml", data)
		checkPos(err)
		if err == nil {
			exerciseScenario(sc)
		}
		trd, err := DecodeTestRun("f.toml", data)
		checkPos(err)
		if err == nil {
			exerciseDefinition(&trd.TestDefinition, trd.NNodes)
		}
	})
}

// exerciseScenario resolves inline tests and derives their layouts.
func exerciseScenario(sc *Scenario) {
	rts, err := Resolve(sc, map[string]*TestDefinition{})
	if err != nil {
		return
	}
	for i := range rts {
		n, _, _ := rts[i].ConfigNodes()
		exerciseDefinition(&rts[i].Definition, n)
	}
}

// exerciseDefinition runs every per-definition function.
func exerciseDefinition(d *TestDefinition, nodes int) {
	_ = ParamsOf(d, nodes)
	for _, gpn := range []int{0, 8} {
		if l, err := DeriveLayout(d, nodes, gpn); err == nil {
			_, _ = ServingGPUs(l)
			_ = DescribeLayout(l)
		}
		_, _ = CloudAIUsedGPUs(d, nodes, gpn)
	}
	_, _, _ = defaultNodes(d)
}

// FuzzNodeMetadata: reading a node metadata file never panics, and gives
// no "null" or blank label.
func FuzzNodeMetadata(f *testing.F) {
	for _, p := range []string{
		"testdata/results/scenario_2026-08-06_10-00-00/vllm.agg.1node/0/metadata/node-001.toml",
		"testdata/results/scenario_2026-08-06_10-00-00/metadata/node-001.toml",
	} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("[cuda]\nnvidia_driver_version = \"null\"\ncuda_driver_version = \" 12.4 \"\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "node-x.toml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for k, v := range nodeFile(p) {
			if strings.TrimSpace(v) == "" || strings.EqualFold(v, "null") {
				t.Fatalf("label %s=%q", k, v)
			}
		}
	})
}
