package query

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/field"
)

// TestSpecErrors checks that every error of Spec.Query is a *field.Error
// on the field at fault, whose message names the value.
func TestSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		err   func() error
		field string // the field at fault
		want  string // in the message
	}{
		{"no objective", func() error { _, err := Spec{}.Query(); return err }, "objectives", "objectives is required"},
		{"bad direction", func() error { _, err := Spec{Objectives: []string{"tps:up"}}.Query(); return err }, "objective", `"tps:up"`},
		{"twice", func() error { _, err := Spec{Objectives: []string{"a:min", "a:max"}}.Query(); return err }, "objective", "twice"},
		{"bad slo", func() error {
			_, err := Spec{Objectives: []string{"a:min"}, SLOs: []string{"a<=x"}}.Query()
			return err
		}, "slo", "a<=x"},
		{"bad noise", func() error {
			_, err := Spec{Objectives: []string{"a:min"}, Noise: []string{"b=5%"}}.Query()
			return err
		}, "noise", `noise "b=5%": "b" is not an objective (have a)`},
		{"bad aggregate", func() error { _, err := Spec{Objectives: []string{"a:min"}, Aggregate: "mode"}.Query(); return err }, "aggregate", `"mode"`},
		{"bad baseline", func() error { _, err := Spec{Objectives: []string{"a:min"}, Baseline: "nothing"}.Query(); return err }, "baseline", `"nothing"`},
		{"bad ref", func() error { _, err := Spec{Objectives: []string{"a:min"}, Ref: "1,2"}.Query(); return err }, "ref", "ref has 2 values for 1 objectives"},
		{"decide not a selector", func() error { _, _, err := DecideObjectives([]string{"ttft.p99{:min"}, nil, nil, nil); return err }, "objective", "ttft.p99{"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			fe, ok := field.As(err)
			if !ok || fe.Field != tt.field || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v: want a *field.Error on %s containing %q", err, tt.field, tt.want)
			}
			if strings.Contains(err.Error(), "--") {
				t.Errorf("error %q names a command-line flag", err)
			}
		})
	}
	q, err := Spec{Objectives: []string{"ttft.p99:min", "output_token_throughput:max"}, Noise: []string{"5%"}, Ref: "auto"}.Query()
	if err != nil || len(q.Objectives) != 2 || q.Objectives[0].Noise != 0.05 || !q.AutoReference {
		t.Errorf("Spec.Query() = %+v, %v", q, err)
	}
}
