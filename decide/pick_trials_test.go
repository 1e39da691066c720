package decide_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// pickScriptTrials reads runs.jsonl of the command's pick_basic.txtar.
func pickScriptTrials(t *testing.T) []trial.Trial {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "internal", "cli", "testdata", "script", "pick_basic.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		if f.Name != "runs.jsonl" {
			continue
		}
		p := filepath.Join(t.TempDir(), f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := ingest.Load([]string{p}, ingest.LoadOptions{})
		if err != nil || len(d.Trials) == 0 {
			t.Fatalf("reading %s: %d trials, %v", p, len(d.Trials), err)
		}
		return d.Trials
	}
	t.Fatal("pick_basic.txtar has no runs.jsonl")
	return nil
}

// TestPick follows pick_basic.txtar: the choice, the binding bound and its price, nothing feasible, one point per run without aggregation, and a bad selector.
func TestPick(t *testing.T) {
	ts := pickScriptTrials(t)
	pick := func(bound string) decide.PickConfig {
		slo, err := frontier.ParseSLO(bound)
		if err != nil {
			t.Fatal(err)
		}
		return decide.PickConfig{Primary: frontier.Objective{Name: "output_token_throughput", Direction: frontier.Maximize},
			Others: []frontier.Objective{{Name: "ttft.p99", Direction: frontier.Minimize}}, SLOs: []frontier.SLO{slo}}
	}
	rep, err := decide.RunPick(ts, decide.PickRequest{Aggregation: repeat.Median, Pick: pick("ttft.p99<=420")})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Feasible() {
		t.Fatalf("Pick(ttft.p99<=420) infeasible; want a choice")
	}
	// The command's want.txt: key:ccf70017c150 at concurrency=32, median
	// throughput 2409 over 3 runs; relaxing the bound to 462 buys +10.2%
	// with key:de850b1396c9.
	c := rep.Points[rep.Choice]
	if !strings.HasPrefix(c.Group.Config, "ccf70017c150") || c.Stats[0].Value != 2409 || c.Stats[0].N != 3 || len(c.Stats) != 3 {
		t.Errorf("Pick chose key:%s, %v over %d runs (%d columns); want key:ccf70017c150, 2409 over 3 (3 columns)", c.Group.Config, c.Stats[0].Value, c.Stats[0].N, len(c.Stats))
	}
	if len(rep.Binding) != 1 || rep.Binding[0].Relaxed.Bound != 462 || !strings.HasPrefix(rep.Points[rep.Binding[0].Choice].Group.Config, "de850b1396c9") {
		t.Errorf("Pick binding = %+v; want ttft.p99 relaxed to 462 choosing key:de850b1396c9", rep.Binding)
	}

	rep, err = decide.RunPick(ts, decide.PickRequest{Aggregation: repeat.Median, Pick: pick("ttft.p99<=100")})
	if err != nil || rep.Feasible() || len(rep.Closest) == 0 || len(rep.Closest[0].Violations) != 1 {
		t.Errorf("Pick(ttft.p99<=100) = choice %d, closest %v, %v; want infeasible with the closest violations", rep.Choice, rep.Closest, err)
	}

	med, _ := decide.RunPick(ts, decide.PickRequest{Aggregation: repeat.Median, Pick: pick("ttft.p99<=420")})
	none, err := decide.RunPick(ts, decide.PickRequest{Aggregation: repeat.None, Pick: pick("ttft.p99<=420")})
	if err != nil || len(none.Points) <= len(med.Points) {
		t.Errorf("Pick(aggregate none) = %d points, %v; want one per trial, more than the %d groups", len(none.Points), err, len(med.Points))
	}
	bad := pick("ttft.p99<=420")
	bad.Primary.Name = "x{"
	if _, err := decide.RunPick(ts, decide.PickRequest{Pick: bad}); err == nil {
		t.Errorf("Pick(objective x{) = nil error; want one")
	}
	// A misspelled metric is no "nothing feasible": every trial is
	// invalid, and the error says why for the first. One trial that has
	// it is enough to answer.
	typo := pick("ttft.p99<=420")
	typo.Primary.Name = "output_tokn_throughput"
	_, err = decide.RunPick(ts, decide.PickRequest{Aggregation: repeat.Median, Pick: typo})
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("no trial can be compared: all %d are invalid (", len(ts))) ||
		!strings.Contains(err.Error(), "output_tokn_throughput: missing") {
		t.Errorf("Pick(output_tokn_throughput) = %v; want every one of the %d trials invalid, with the first's reason", err, len(ts))
	}
	one := slices.Clone(ts)
	one[0].Measurements = append(slices.Clone(one[0].Measurements), trial.Measurement{Metric: "output_tokn_throughput", Value: 1})
	if _, err := decide.RunPick(one, decide.PickRequest{Aggregation: repeat.None, Pick: typo}); err != nil {
		t.Errorf("Pick(output_tokn_throughput) with one trial measuring it = %v; want an answer", err)
	}
}
