package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/report"
	"github.com/pareto-llm/pareto/store"
)

// pipelineAnswer is what every command must agree on: the objective
// values of the frontier and of the infeasible points (sorted), and how
// many points are invalid.
type pipelineAnswer struct {
	frontier, infeasible [][2]float64
	invalid              int
}

func (a pipelineAnswer) String() string {
	return fmt.Sprintf("frontier %v\ninfeasible %v\ninvalid %d", a.frontier, a.infeasible, a.invalid)
}

func sortPairs(ps [][2]float64) [][2]float64 {
	slices.SortFunc(ps, func(a, b [2]float64) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	return ps
}

// TestOnePipeline feeds the same inputs — a generic CSV with repeats, an
// SLO and a run without a value; the shipped CloudAI tree — to pareto
// front, pareto report (the page's embedded data), pareto pick and pareto
// ingest + front --study, and checks that they give the same frontier,
// infeasible and invalid sets with the same values.
func TestOnePipeline(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(store.EnvVar, "")
	for _, tt := range []struct {
		name, input, config string
		x, y, slo           string
		keys                []string
		wantFrontier        int
		wantInfeasible      int
		wantInvalid         int
	}{
		{name: "table", input: "internal/cli/testdata/pipeline/repeats.csv", config: "internal/cli/testdata/pipeline/table.toml",
			x: "ttft_p99_ms:min", y: "output_tps:max", slo: "ttft_p99_ms<=190", keys: []string{"--config-key", "config"},
			wantFrontier: 5, wantInfeasible: 3, wantInvalid: 1},
		{name: "cloudai", input: "examples/cloudai/results", config: "internal/cli/testdata/pipeline/cloudai.toml",
			x: "ttft.p50", y: "output_token_throughput", slo: "ttft.p50<=5000",
			wantFrontier: 7, wantInfeasible: 2, wantInvalid: 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			in := filepath.Join(repo, tt.input)
			run := func(args ...string) string {
				t.Helper()
				var stdout, stderr bytes.Buffer
				if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 && args[0] != "pick" {
					t.Fatalf("pareto %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
				}
				return stdout.String()
			}
			objs := []string{"-o", tt.x, "-o", tt.y, "--slo", tt.slo}

			front := frontAnswer(t, run(append(append([]string{"front", in, "--format", "json"}, objs...), tt.keys...)...))
			if len(front.frontier) != tt.wantFrontier || len(front.infeasible) != tt.wantInfeasible || front.invalid != tt.wantInvalid {
				t.Fatalf("front: %v\nwant %d on the frontier, %d infeasible, %d invalid", front, tt.wantFrontier, tt.wantInfeasible, tt.wantInvalid)
			}

			run(append([]string{"report", in, "--config", filepath.Join(repo, tt.config), "--out", "p.html"}, tt.keys...)...)
			if got := reportAnswer(t, "p.html"); got.String() != front.String() {
				t.Errorf("report:\n%v\nfront:\n%v", got, front)
			}

			run(append([]string{"ingest", in, "--store", "s.db", "--study", "x"}, tt.keys[:0]...)...)
			stored := frontAnswer(t, run(append(append([]string{"front", "--store", "s.db", "--study", "x", "--format", "json"}, objs...), tt.keys...)...))
			if stored.String() != front.String() {
				t.Errorf("ingest + front --study:\n%v\nfront:\n%v", stored, front)
			}

			// pick chooses the feasible frontier point best on Y, with the
			// values front gives it.
			xName, _, _ := strings.Cut(tt.x, ":")
			yName, _, _ := strings.Cut(tt.y, ":")
			out := run(append([]string{"pick", in, "--maximize", yName, "--minimize", xName, "--slo", tt.slo, "--format", "json"}, tt.keys...)...)
			var pick struct {
				Choice struct {
					Values map[string]struct{ Value float64 }
				}
			}
			if err := json.Unmarshal([]byte(out), &pick); err != nil {
				t.Fatalf("pick: %v\n%s", err, out)
			}
			best := front.frontier[0]
			for _, p := range front.frontier {
				if p[1] > best[1] {
					best = p
				}
			}
			if got := [2]float64{pick.Choice.Values[xName].Value, pick.Choice.Values[yName].Value}; got != best {
				t.Errorf("pick chose %v; want the front's best feasible point %v", got, best)
			}
		})
	}
}

// frontAnswer reads pareto front's JSON.
func frontAnswer(t *testing.T, out string) pipelineAnswer {
	t.Helper()
	var res struct {
		Objectives []struct{ Name string }
		Groups     []struct {
			Frontier, Infeasible []struct{ Values map[string]float64 }
			Invalid              []struct{ ID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Groups) != 1 || len(res.Objectives) != 2 {
		t.Fatalf("front JSON: %v\n%s", err, out)
	}
	g := res.Groups[0]
	x, y := res.Objectives[0].Name, res.Objectives[1].Name
	var a pipelineAnswer
	for _, p := range g.Frontier {
		a.frontier = append(a.frontier, [2]float64{p.Values[x], p.Values[y]})
	}
	for _, p := range g.Infeasible {
		a.infeasible = append(a.infeasible, [2]float64{p.Values[x], p.Values[y]})
	}
	a.invalid = len(g.Invalid)
	a.frontier, a.infeasible = sortPairs(a.frontier), sortPairs(a.infeasible)
	return a
}

// reportAnswer reads the data a pareto.html embeds.
func reportAnswer(t *testing.T, path string) pipelineAnswer {
	t.Helper()
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(html), `<script type="application/json" id="pareto-data">`)
	data, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatalf("%s embeds no pareto-data", path)
	}
	var page report.Page
	if err := json.Unmarshal([]byte(data), &page); err != nil || len(page.Plots) != 1 || len(page.Plots[0].Series) != 1 {
		t.Fatalf("page data: %v (%d plots)", err, len(page.Plots))
	}
	s := page.Plots[0].Series[0]
	var a pipelineAnswer
	for j := range s.X {
		switch s.S[j] {
		case report.StatusFrontier:
			a.frontier = append(a.frontier, [2]float64{s.X[j], s.Y[j]})
		case report.StatusInfeasible:
			a.infeasible = append(a.infeasible, [2]float64{s.X[j], s.Y[j]})
		}
	}
	for _, x := range page.Exclusions {
		if x.Plot != "" { // a trial whose axes or SLOs give no comparable value (one exclusion: the first failing one)
			a.invalid++
		}
	}
	a.frontier, a.infeasible = sortPairs(a.frontier), sortPairs(a.infeasible)
	return a
}
