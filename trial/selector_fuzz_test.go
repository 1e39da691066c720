package trial

import "testing"

// FuzzParseSelector checks that selector parsing never panics and that an
// accepted selector resolves against a trial without panicking.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"ttft.p99", "ttft.p99.9", "ttft{statistic=p99,phase=round_1}", "x{", "a.b{c=}", "{}", "ttft:max"} {
		f.Add(s)
	}
	tr := &Trial{Measurements: []Measurement{
		{Metric: TTFT, Dims: StatDims("p99"), Value: 1, Unit: UnitMs},
		{Metric: TTFT, Dims: StatDims("p50"), Value: 0.5, Unit: UnitMs},
	}}
	f.Fuzz(func(t *testing.T, s string) {
		if sel, err := ParseSelector(s); err == nil {
			sel.Resolve(tr)
			_ = sel.String()
		}
	})
}
