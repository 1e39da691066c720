package query

import (
	"strings"
	"testing"
)

// TestSpecErrors checks that every error of Spec.Query is a usage error naming the value at fault.
func TestSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  func() error
		want string
	}{
		{"no objective", func() error { _, err := Spec{}.Query(); return err }, "no objectives"},
		{"bad direction", func() error { _, err := Spec{Objectives: []string{"tps:up"}}.Query(); return err }, `"tps:up"`},
		{"twice", func() error { _, err := Spec{Objectives: []string{"a:min", "a:max"}}.Query(); return err }, "twice"},
		{"bad slo", func() error {
			_, err := Spec{Objectives: []string{"a:min"}, SLOs: []string{"a<=x"}}.Query()
			return err
		}, "a<=x"},
		{"bad aggregate", func() error { _, err := Spec{Objectives: []string{"a:min"}, Aggregate: "mode"}.Query(); return err }, "--aggregate"},
		{"bad baseline", func() error { _, err := Spec{Objectives: []string{"a:min"}, Baseline: "nothing"}.Query(); return err }, "--baseline"},
		{"bad ref", func() error { _, err := Spec{Objectives: []string{"a:min"}, Ref: "1,2"}.Query(); return err }, "--ref"},
		{"decide not a selector", func() error { _, _, err := DecideObjectives([]string{"ttft.p99{:min"}, nil, nil, nil); return err }, "ttft.p99{"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			if err == nil || !IsUsage(err) || !strings.Contains(UsageMessage(err), tt.want) {
				t.Errorf("error %v: want a usage error containing %q", err, tt.want)
			}
		})
	}
	q, err := Spec{Objectives: []string{"ttft.p99:min", "output_token_throughput:max"}, Noise: []string{"5%"}, Ref: "auto"}.Query()
	if err != nil || len(q.Objectives) != 2 || q.Objectives[0].Noise != 0.05 || !q.AutoReference {
		t.Errorf("Spec.Query() = %+v, %v", q, err)
	}
}
