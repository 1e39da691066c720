package report

import (
	"context"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
)

// cloudaiExample builds the page of examples/cloudai as generate-report does
// (every iteration a point) with the baseline sel.
func cloudaiExample(t *testing.T, sel string) (*Page, error) {
	t.Helper()
	dir := "../examples/cloudai/"
	sc, err := cloudai.ReadScenario(dir + "scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests, err := cloudai.LoadTests(dir + "tests")
	if err != nil {
		t.Fatal(err)
	}
	sys, err := cloudai.ReadSystem(dir + "system.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := source.Trials(context.Background(), source.Spec{Paths: []string{dir + "results"},
		Load: ingest.LoadOptions{Scenario: sc, Tests: tests, GPUsPerNode: sys.GPUsPerNode, System: sys.Name}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ReadConfig(dir + "scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := repeat.ParseSelection(sel)
	if err != nil {
		t.Fatal(err)
	}
	return Build(cfg, set.Trials, Exclusions(set.Skipped), Options{Aggregate: repeat.None, Baseline: &s})
}

// TestBuildBaselineCloudAI covers issue 14's baseline findings on the
// CloudAI example: a baseline that selects one vLLM case marks one point
// per frontier as the baseline (its newest run), not every vLLM run; and a
// baseline of one engine does not abort a report whose "All
// configurations" frontier also holds the other engine: the page says why
// those points have no delta, and the engine's own points have theirs.
func TestBuildBaselineCloudAI(t *testing.T) {
	page, err := cloudaiExample(t, "test_case=vllm.agg.1node")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range page.Plots {
		for _, s := range p.Series {
			if s.Base == nil || s.Base.Note != "" {
				continue
			}
			rows := map[int32]bool{}
			for _, b := range s.Base.Bases {
				if b.Row >= 0 {
					rows[b.Row] = true
				}
			}
			if len(rows) != 1 {
				t.Errorf("plot %q, %s: %d baseline points %v; want one (the case's newest run)", p.Name, s.Name, len(rows), rows)
			}
		}
	}

	page, err = cloudaiExample(t, "engine=vllm")
	if err != nil {
		t.Fatalf("a vLLM baseline aborts a report whose All configurations frontier holds SGLang: %v", err)
	}
	grounded := 0
	for _, p := range page.Plots {
		for _, s := range p.Series {
			for j := range s.X {
				if s.Base.B[j] < 0 {
					continue
				}
				grounded++
				if b := s.Base.Bases[s.Base.B[j]]; !strings.Contains(b.Scope, "engine=vllm") {
					t.Errorf("plot %q, %s point %d is compared with a baseline measured in %s", p.Name, s.Name, j, b.Scope)
				}
			}
		}
	}
	if grounded == 0 {
		t.Errorf("no point has a delta to the vLLM baseline")
	}
	// The SGLang point at a workload the baseline was measured at (the
	// wide-EP run, excluded from the TTFT plot for its missing p50) is
	// named in the page's warnings.
	if !strings.Contains(strings.Join(page.Warnings, "\n"), "have no delta: the baseline engine=vllm was measured only in another environment") {
		t.Errorf("no warning about the points without a delta: %q", page.Warnings)
	}
}
