package decide

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/field"
)

// TestPickSpecErrors checks that every error of PickSpec.Request is a
// *field.Error on the field at fault, in no command-line words.
func TestPickSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spec  PickSpec
		field string
		want  string
	}{
		{"no objective", PickSpec{}, "maximize", "maximize or minimize is required"},
		{"bad relax", PickSpec{Maximize: []string{"output_token_throughput"}, Relax: "-3%"}, "relax", `relax "-3%": want a positive percentage`},
		{"bad slo", PickSpec{Maximize: []string{"output_token_throughput"}, SLOs: []string{"ttft.p99<=x"}}, "slo", "ttft.p99<=x"},
		{"bad aggregate", PickSpec{Maximize: []string{"output_token_throughput"}, Aggregate: "mode"}, "aggregate", `"mode"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.spec.Request()
			fe, ok := field.As(err)
			if !ok || fe.Field != tt.field || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "--") {
				t.Errorf("PickSpec.Request() error %v: want a *field.Error on %s containing %q", err, tt.field, tt.want)
			}
		})
	}
}
