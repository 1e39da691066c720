package ingest

import "testing"

// TestAIPerfDisplayNames: AIPerf JSON keyed by display name ("Time to
// First Token", June 2025 builds) is mapped to the canonical metrics (the
// fast and the decoder paths are compared on it by the golden inputs).
func TestAIPerfDisplayNames(t *testing.T) {
	const path = "testdata/synthetic/synthetic_aiperf_display_names_profile_export_aiperf.json"
	ts, err := ReadFile(path)
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d trials, %v", len(ts), err)
	}
	for _, c := range []struct {
		sel  string
		want float64
	}{{"ttft.p99", 250}, {"tpot.p50", 11.8}, {"e2el.mean", 1400}, {"output_token_throughput", 448}, {"request_throughput", 3.5}} {
		m, err := mustSelector(t, c.sel).Resolve(&ts[0])
		if err != nil || m.Value != c.want {
			t.Errorf("%s = %v, %v; want %v", c.sel, m.Value, err, c.want)
		}
	}
}
