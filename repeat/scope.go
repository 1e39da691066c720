package repeat

import (
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Scope is the environment a trial was measured in. Comparisons across
// scopes mix an engine, runtime or driver upgrade with a tuning change.
type Scope struct {
	Engine        string `json:"engine,omitempty"`
	EngineVersion string `json:"engine_version,omitempty"`
	CUDA          string `json:"cuda,omitempty"`
	Driver        string `json:"driver,omitempty"`
	GPU           string `json:"gpu,omitempty"`
	// DynamoVersion is the NVIDIA Dynamo release that served the trial
	// (a CloudAI Dynamo run's runtime image).
	DynamoVersion string `json:"dynamo_version,omitempty"`
}

// scopeFields is the number of Scope's fields: trial.ScopeLabels.
const scopeFields = 6

// ScopeOf returns the environment scope recorded in t's labels: the
// fields of trial.ScopeLabels.
func ScopeOf(t *trial.Trial) Scope {
	var v [scopeFields]string
	for i, e := range trial.ScopeLabels[:scopeFields] {
		for _, l := range e.Labels {
			if x := t.Labels[l]; x != "" {
				v[i] = x
				break
			}
		}
	}
	return Scope{v[0], v[1], v[2], v[3], v[4], v[5]}
}

func (s Scope) fields() [scopeFields]string {
	return [scopeFields]string{s.Engine, s.EngineVersion, s.CUDA, s.Driver, s.GPU, s.DynamoVersion}
}

// String renders the scope as "engine=vllm engine_version=0.9", or
// "(no environment labels)" when nothing is known.
func (s Scope) String() string {
	var parts []string
	for i, v := range s.fields() {
		if v != "" {
			parts = append(parts, trial.ScopeLabels[i].Column+"="+v)
		}
	}
	if len(parts) == 0 {
		return "(no environment labels)"
	}
	return strings.Join(parts, " ")
}

// ScopeDiff is one environment field on which two scopes differ.
type ScopeDiff struct {
	Field string `json:"field"`
	A     string `json:"a"`
	B     string `json:"b"`
}

// Diff lists the fields on which s and o differ, in Scope order.
func (s Scope) Diff(o Scope) []ScopeDiff {
	a, b := s.fields(), o.fields()
	var out []ScopeDiff
	for i := range a {
		if a[i] != b[i] {
			out = append(out, ScopeDiff{trial.ScopeLabels[i].Column, a[i], b[i]})
		}
	}
	return out
}

// ScopeError refuses a comparison across environment scopes.
type ScopeError struct {
	// A and B name the two sides, e.g. "candidate" and "baseline".
	A, B  string
	Diffs []ScopeDiff
}

// Error renders "candidate and baseline were measured in different
// environments: engine_version 0.9 (candidate) vs 0.8 (baseline)".
func (e *ScopeError) Error() string {
	parts := make([]string, len(e.Diffs))
	for i, d := range e.Diffs {
		parts[i] = fmt.Sprintf("%s %s (%s) vs %s (%s)", d.Field, orNone(d.A), e.A, orNone(d.B), e.B)
	}
	return fmt.Sprintf("%s and %s were measured in different environments: %s", e.A, e.B, strings.Join(parts, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Workload is the configured load of a trial: what must be equal for two
// runs to be comparable. Zero means unknown.
type Workload struct {
	Dataset      string  `json:"dataset,omitempty"`
	InputTokens  float64 `json:"input_tokens,omitempty"`
	OutputTokens float64 `json:"output_tokens,omitempty"`
	Concurrency  float64 `json:"concurrency,omitempty"`
	RequestRate  float64 `json:"request_rate,omitempty"`
	Users        float64 `json:"users,omitempty"`
}

// WorkloadOf returns the configured workload of t.
func WorkloadOf(t *trial.Trial) Workload {
	w := t.Workload
	return Workload{t.Labels[trial.LabelDataset], w.InputTokens, w.OutputTokens, w.Concurrency, w.RequestRate, w.Users}
}

// String renders the workload as "concurrency=8 input_tokens=1024", or
// "default" when nothing is known.
func (w Workload) String() string {
	var bb [128]byte
	b := bb[:0]
	if w.Dataset != "" {
		b = append(append(b, "dataset="...), w.Dataset...)
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"input_tokens", w.InputTokens}, {"output_tokens", w.OutputTokens}, {"concurrency", w.Concurrency},
		{"request_rate", w.RequestRate}, {"users", w.Users}} {
		if f.v != 0 {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = trial.AppendFloat(append(append(b, f.name...), '='), f.v)
		}
	}
	if len(b) == 0 {
		return "default"
	}
	return string(b)
}
