package repeat

import (
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestScopeDynamoVersion: the Dynamo release (label dynamo_version, from a
// CloudAI Dynamo run's runtime image) is a scope field like the engine
// version: it is part of ScopeOf, its rendering and its differences, and
// repeats of one configuration under two releases are two groups.
func TestScopeDynamoVersion(t *testing.T) {
	if len(trial.ScopeLabels) != scopeFields {
		t.Fatalf("trial.ScopeLabels has %d fields, Scope %d", len(trial.ScopeLabels), scopeFields)
	}
	run := func(id, dynamo string) trial.Trial {
		tr := mk(id, "0.10.1", map[string]string{"max_num_seqs": "64", "date": id}, 8)
		if dynamo != "" {
			tr.SetLabel(trial.LabelDynamoVersion, dynamo)
		}
		return tr
	}
	a1, a2, b, none := run("a1", "1.1.1"), run("a2", "1.1.1"), run("b", "1.3.1"), run("c", "")
	tests := []struct {
		name string
		t    trial.Trial
		want string
	}{
		{"release", a1, "engine=vllm engine_version=0.10.1 dynamo_version=1.1.1"},
		{"other release", b, "engine=vllm engine_version=0.10.1 dynamo_version=1.3.1"},
		{"no release", none, "engine=vllm engine_version=0.10.1"},
	}
	for _, tt := range tests {
		if got := ScopeOf(&tt.t).String(); got != tt.want {
			t.Errorf("%s: ScopeOf = %q; want %q", tt.name, got, tt.want)
		}
	}
	d := ScopeOf(&a1).Diff(ScopeOf(&b))
	if len(d) != 1 || d[0] != (ScopeDiff{"dynamo_version", "1.1.1", "1.3.1"}) {
		t.Errorf("Diff = %+v; want dynamo_version 1.1.1 vs 1.3.1 only", d)
	}
	se := &ScopeError{A: "candidate", B: "baseline", Diffs: d}
	if got, want := se.Error(), "candidate and baseline were measured in different environments: dynamo_version 1.1.1 (candidate) vs 1.3.1 (baseline)"; got != want {
		t.Errorf("ScopeError = %q; want %q", got, want)
	}
	gs := GroupRepeats([]trial.Trial{a1, a2, b, none}, nil)
	sizes := map[string]int{}
	for _, g := range gs {
		sizes[g.Scope.DynamoVersion] += len(g.Trials)
		if len(g.Trials) == 2 && g.Scope.DynamoVersion != "1.1.1" {
			t.Errorf("group %s of 2 trials has release %q", g.Key, g.Scope.DynamoVersion)
		}
	}
	if len(gs) != 3 || sizes["1.1.1"] != 2 || sizes["1.3.1"] != 1 || sizes[""] != 1 {
		t.Errorf("%d groups, trials per release %v; want 3 groups: 1.1.1 ×2, 1.3.1 and none", len(gs), sizes)
	}
	if Config(&a1, nil) == Config(&b, nil) || Config(&a1, nil) == Config(&none, nil) {
		t.Error("the configuration key does not tell the Dynamo releases apart")
	}
}
