package ingest

import (
	"os"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestMetricsDoc checks that docs/METRICS.md lists every native name each
// reader maps to a canonical metric, with that metric: the page is the
// mapping, and cannot drift from it.
func TestMetricsDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/METRICS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	tools := map[string]bool{}
	for _, e := range registry {
		if e.tool != "" {
			tools[e.tool] = true
		}
	}
	for tool := range tools {
		for _, n := range trial.NativeNames(tool) {
			c, _ := trial.Canonical(tool, n)
			if row := "| `" + n + "` | `" + c + "` |"; !strings.Contains(doc, row) {
				t.Errorf("%s: docs/METRICS.md has no row %s", tool, row)
			}
		}
	}
}
