package ingest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the readers' output")

// goldenDirs hold the inputs covered by golden files: real fixtures copied
// byte-for-byte from ../shared/fixtures, and synthetic files written from
// FORMATS.md (see testdata/synthetic/README.md).
var goldenDirs = []string{"vllm", "sglang", "aiperf", "other", "synthetic", "bad", "llmperf"}

type golden struct {
	Trials []trial.Trial `json:"trials"`
	Error  string        `json:"error,omitempty"`
}

func goldenInputs(t testing.TB) []string {
	var files []string
	for _, d := range goldenDirs {
		m, err := filepath.Glob(filepath.Join("testdata", d, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".md") {
				files = append(files, f)
			}
		}
	}
	return files
}

func TestGolden(t *testing.T) {
	for _, path := range goldenInputs(t) {
		name := strings.ReplaceAll(strings.TrimPrefix(path, "testdata"+string(filepath.Separator)), string(filepath.Separator), "__")
		t.Run(name, func(t *testing.T) {
			ts, err := ReadFile(path)
			for i := range ts { // the readers give measurements in canonical order (they use ComputeIDSorted)
				if trial.ComputeIDSorted(&ts[i]) != trial.ComputeID(&ts[i]) {
					t.Errorf("trial %d: measurements not in the order of trial.Sort", i)
				}
			}
			g := golden{Trials: ts}
			if err != nil {
				g.Error = err.Error()
			}
			got, jerr := json.MarshalIndent(g, "", "  ")
			if jerr != nil {
				t.Fatal(jerr)
			}
			got = append(got, '\n')
			gpath := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.WriteFile(gpath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gpath)
			if err != nil {
				t.Fatalf("missing golden file (run go test -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				os.WriteFile(gpath+".got", got, 0o644)
				t.Errorf("%s differs from golden %s; got written to %s.got (diff -u them; -update to accept)", path, gpath, gpath)
			}
		})
	}
}
