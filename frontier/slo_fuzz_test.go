package frontier

import (
	"strings"
	"testing"
)

// FuzzParseSLO checks that any text either parses into a bound that prints
// back to an equivalent bound, or is rejected; it never panics.
func FuzzParseSLO(f *testing.F) {
	for _, s := range []string{"ttft<=200", "tps>1e3", "ttft{statistic=p99}<5", "a<", "<=", "x<=<=3", "y>=-inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slo, err := ParseSLO(s)
		if err != nil {
			return
		}
		if slo.Name == "" || strings.ContainsAny(slo.Name[len(slo.Name)-1:], "<>") {
			t.Fatalf("ParseSLO(%q) = %+v: bad name", s, slo)
		}
		again, err := ParseSLO(slo.String())
		if err != nil || again.Op != slo.Op || again.Bound != slo.Bound {
			t.Fatalf("ParseSLO(%q) = %+v does not round-trip: %+v, %v", s, slo, again, err)
		}
	})
}
