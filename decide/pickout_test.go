package decide

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/query"
)

// TestPickSpecErrors checks that every error of PickSpec.Request is a
// usage error naming the value at fault.
func TestPickSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		spec PickSpec
		want string
	}{
		{"no objective", PickSpec{}, "no objective"},
		{"bad relax", PickSpec{Maximize: []string{"output_token_throughput"}, Relax: "-3%"}, "--relax"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.spec.Request()
			if err == nil || !query.IsUsage(err) || !strings.Contains(query.UsageMessage(err), tt.want) {
				t.Errorf("PickSpec.Request() error %v: want a usage error containing %q", err, tt.want)
			}
		})
	}
}
