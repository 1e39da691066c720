package report

import "testing"

// FuzzParseConfig checks that any TOML text is either accepted or rejected
// with an error, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("[reports.pareto]\nenable = true\n[[reports.pareto.plots]]\nname = \"a\"\nx = { metric = \"ttft\", match = { statistic = \"p99\" } }\ny = { metric = \"output_token_throughput\" }\n"))
	f.Add([]byte("[[Tests]]\nid = \"t1\"\ntest_name = \"x\"\n[reports.pareto]\nenable = true\n"))
	f.Add([]byte("[reports.pareto\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("fuzz.toml", data)
		if err == nil && cfg == nil {
			t.Fatal("nil config without an error")
		}
	})
}
