package decide

import (
	"errors"
	"testing"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// TestBaselineScope: the baseline is the newest repeats in the candidate's
// scope; another scope is an error naming the difference unless allowed.
func TestBaselineScope(t *testing.T) {
	mk := func(id, version, date string, conc float64) trial.Trial {
		t := trial.Trial{ID: id, Params: map[string]string{"max_num_seqs": "64", "date": date, "role": "baseline"},
			Workload: trial.Workload{Concurrency: conc}}
		t.SetLabel(trial.LabelEngine, "vllm")
		t.SetLabel(trial.LabelEngineVersion, version)
		t.SetLabel("role", "baseline")
		return t
	}
	gs := repeat.GroupRepeats([]trial.Trial{mk("a1", "0.8", "1", 8), mk("a2", "0.8", "2", 8), mk("a3", "0.8", "3", 16),
		mk("a4", "0.9", "5", 8)}, nil)
	sel, err := repeat.ParseSelection("role=baseline")
	if err != nil {
		t.Fatal(err)
	}
	arm, err := Baseline(gs, sel, repeat.Scope{Engine: "vllm", EngineVersion: "0.9"}, false)
	if err != nil || len(arm.Groups) != 1 || arm.Groups[0].Trials[0].ID != "a4" {
		t.Errorf("Baseline(0.9) = %+v, %v; want the 0.9 repeats", arm, err)
	}
	_, err = Baseline(gs, sel, repeat.Scope{Engine: "vllm", EngineVersion: "1.0"}, false)
	var se *repeat.ScopeError
	want := "candidate and baseline were measured in different environments: engine_version 1.0 (candidate) vs 0.9 (baseline)"
	if !errors.As(err, &se) || err.Error() != want {
		t.Errorf("Baseline(1.0) error = %v; want %q", err, want)
	}
	if arm, err := Baseline(gs, sel, repeat.Scope{Engine: "vllm", EngineVersion: "1.0"}, true); err != nil || arm.Scope.EngineVersion != "0.9" {
		t.Errorf("Baseline(1.0, allowCross) = %+v, %v; want the newest scope", arm.Scope, err)
	}
}
