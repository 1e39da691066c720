package report

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/NAME.golden, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from %s (got in %s.got; go test -update rewrites)", name, path, path)
	}
}

// Payloads are script-injection attempts placed in every user string.
const (
	payloadScript = `</script><script>window.__pwned=1</script>`
	payloadImg    = `"><img src=x onerror="window.__pwned=2">`
	payloadURL    = `javascript:window.__pwned=3`
)

// point builds a trial with TTFT (mean/p50/p99) and output throughput.
func point(caseID, iter string, ttft, tput float64) Trial {
	t := trial.Trial{ID: caseID + "-" + iter, Source: trial.Source{Path: "results/" + caseID + "/" + iter + "/vllm-bench.json"}}
	t.SetLabel(trial.LabelTestCase, caseID)
	t.SetLabel(trial.LabelIteration, iter)
	t.SetLabel(trial.LabelEngine, "vllm")
	t.Workload = trial.Workload{Concurrency: 16, InputTokens: 1024, OutputTokens: 128}
	// Every fixture point is a configuration of its own.
	t.SetParam("tensor_parallel_size", strings.TrimPrefix(caseID, "vllm.tp"))
	t.SetParam("max_num_seqs", iter)
	for _, st := range []string{"mean", "p50", "p99"} {
		f := map[string]float64{"mean": 0.8, "p50": 0.7, "p99": 1}[st]
		t.Measurements = append(t.Measurements, trial.Measurement{Metric: trial.TTFT, Dims: trial.StatDims(st), Value: ttft * f, Unit: trial.UnitMs})
	}
	t.Measurements = append(t.Measurements, trial.Measurement{Metric: trial.OutputTokenThroughput, Value: tput, Unit: trial.UnitTokensPerS})
	t.Sort()
	return t
}

// fixture is a small data set with a tie, dominated points, an infeasible
// point, a missing measurement, an unusable trial and injection payloads.
func fixture() ([]Trial, []Exclusion) {
	ts := []Trial{
		point("vllm.tp8", "0", 100, 1000),
		point("vllm.tp8", "1", 100, 1000), // exact tie with iteration 0
		point("vllm.tp8", "2", 150, 900),  // dominated
		point("vllm.tp4", "0", 60, 600),
		point("vllm.tp4", "1", 500, 1500), // violates the SLO
		point(payloadScript, "0", 80, 700),
	}
	ts[5].SetParam("note", payloadImg)
	ts[5].SetLabel("model", payloadURL)
	ts[5].Deployment = &trial.Deployment{ConfigPath: "x/test-run.toml", Config: "name = \"" + payloadScript + "\"\n# " + payloadImg + "\n",
		Layout: &trial.Layout{Workload: "vllm", Engine: "vllm", Nodes: 1,
			Roles: []trial.LayoutRole{{Name: "serving", Instances: 1, NodesPerInstance: 1, Nodes: 1, TP: 8, PP: 1, DP: 1, GPUsPerInstance: 8}}}}
	miss := point("vllm.tp4", "2", 70, 800)
	miss.Measurements = miss.Measurements[:3] // no throughput
	bad := point("vllm.tp4", "3", 70, 800)
	bad.Problem = trial.ProblemNoSuccess
	ts = append(ts, miss, bad)
	excl := []Exclusion{{Case: "vllm.tp8", Iteration: "3", Path: "results/vllm.tp8/3", Code: cloudai.ExcludeRunFailed, Reason: payloadImg}}
	return ts, excl
}

const fixtureConfig = `[reports.pareto]
[[reports.pareto.plots]]
name = "TTFT vs throughput"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "TP8", cases = ["vllm.tp8"] }, { name = "All" }]
slo = [{ metric = "ttft", match = { statistic = "p99" }, max = 400 }]

[[reports.pareto.plots]]
name = "Ambiguous TTFT"
x = { metric = "ttft" }
y = { metric = "output_token_throughput" }
`

func buildFixture(t testing.TB) *Page {
	cfg, err := ParseConfig("pareto.toml", []byte(fixtureConfig))
	if err != nil {
		t.Fatal(err)
	}
	ts, excl := fixture()
	page, err := Build(cfg, ts, excl, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

func TestBuildGolden(t *testing.T) {
	page := buildFixture(t)
	data, err := MarshalData(page, true)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "build_fixture.json", append(data, '\n'))
	if strings.Contains(string(data), "</script") || strings.Contains(string(data), "<img") {
		t.Errorf("embedded data contains raw markup")
	}
}

func TestBuildSemantics(t *testing.T) {
	page := buildFixture(t)
	p := page.Plots[0]
	tp8, all := p.Series[0], p.Series[1]
	if tp8.Frontier != 2 || tp8.T[0] != TieExact || tp8.T[1] != TieExact || tp8.S[2] != StatusDominated {
		t.Errorf("TP8 series = frontier %d ties %v status %v; want 2 tied frontier points and one dominated", tp8.Frontier, tp8.T, tp8.S)
	}
	if got := all.S[4]; got != StatusInfeasible {
		t.Errorf("All series status of the 500 ms point = %d; want infeasible", got)
	}
	codes := map[string]int{}
	for _, e := range page.Exclusions {
		codes[e.Code]++
	}
	if codes[ExcludeMissing] != 1 || codes[ExcludeUnusable] != 1 || codes[ExcludeAmbiguous] != 7 || codes[cloudai.ExcludeRunFailed] != 1 {
		t.Errorf("exclusion codes = %v", codes)
	}
}

func TestBuildFrontierSelectsNothing(t *testing.T) {
	cfg, err := ParseConfig("pareto.toml", []byte(strings.Replace(fixtureConfig, `{ name = "All" }`, `{ name = "None", match = { phase = "nope" } }`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := fixture()
	_, err = Build(cfg, ts, nil, Options{})
	want := `pareto.toml:6:54: frontier "None" of plot "TTFT vs throughput" selects nothing (no result has all cases and phase=nope)`
	if err == nil || err.Error() != want {
		t.Errorf("Build error = %v; want %s", err, want)
	}
}

// TestBuildKeepsJudgeableInvalid: a value of 0 under a noise band is
// invalid at the report's settings (excluded as pareto front excludes it)
// but stays on the page as StatusInvalid, so that the simulator at σ = δ
// = 0 ranks it; a NaN-free point with an infinite value is dropped, as no
// setting can compare it.
func TestBuildKeepsJudgeableInvalid(t *testing.T) {
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "zero"
x = { metric = "ttft", match = { statistic = "p99" }, noise = 0.05 }
y = { metric = "output_token_throughput" }
`))
	if err != nil {
		t.Fatal(err)
	}
	ts := []Trial{point("a", "0", 0, 500), point("b", "0", 100, 1000), point("c", "0", 150, 900), point("d", "0", math.Inf(1), 2000)}
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := page.Plots[0].Series[0]
	if len(s.X) != 3 || s.X[0] != 0 || s.S[0] != StatusInvalid || !strings.Contains(s.Notes[0], "not positive") {
		t.Fatalf("the zero point is not kept as invalid: x=%v s=%v notes=%v", s.X, s.S, s.Notes)
	}
	if s.Frontier != 1 || s.S[1] != StatusFrontier || s.S[2] != StatusDominated {
		t.Errorf("statuses at σ=5%%: %v (frontier %d)", s.S, s.Frontier)
	}
	codes := map[string]int{}
	for _, x := range page.Exclusions {
		codes[x.Code]++
	}
	if codes[ExcludeInvalid] != 2 {
		t.Errorf("exclusions %v; want the zero and the infinite point as invalid_value", codes)
	}
}
