package query

import (
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestResolveReason: a selector that yields no value says why in one short
// line: the measurements it could mean when the trial has its metric, else
// that the trial measures no such metric, with names alike if any.
func TestResolveReason(t *testing.T) {
	metrics := func(names ...string) *trial.Trial {
		tr := &trial.Trial{ID: "t"}
		for _, n := range names {
			tr.Measurements = append(tr.Measurements, trial.Measurement{Metric: n, Value: 1})
		}
		return tr
	}
	p50 := &trial.Trial{ID: "t", Measurements: []trial.Measurement{{Metric: "ttft", Dims: trial.StatDims("p50"), Value: 1}}}
	var many []string
	for _, n := range []string{"duration", "e2el", "error_rate", "output_token_throughput", "request_count", "request_throughput"} {
		for _, s := range []string{"", "_a", "_b", "_c", "_d"} {
			many = append(many, n+s)
		}
	}
	for _, tt := range []struct {
		name, sel string
		tr        *trial.Trial
		want      string
	}{
		{"other statistic", "ttft.p99", p50, "ttft.p99: missing; candidates: ttft.p50"},
		{"no such metric", "ttft.p50", metrics(many...), "ttft.p50: missing; the trial measures no ttft"},
		{"misspelt", "output_token_throughput", metrics("output_token_througput", "e2el"),
			"output_token_throughput: missing; the trial measures no output_token_throughput (alike: output_token_througput)"},
		{"part of a name", "throughput", metrics("duration", "output_token_throughput", "request_throughput", "total_token_throughput", "x_throughput"),
			"throughput: missing; the trial measures no throughput (alike: output_token_throughput, request_throughput, total_token_throughput)"},
		{"unusable", "ttft.p50", &trial.Trial{ID: "t", Problem: "no successful requests"}, "ttft.p50: unusable (no successful requests)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := trial.ParseSelector(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			_, err = sel.Resolve(tt.tr)
			re, ok := err.(*trial.ResolveError)
			if !ok {
				t.Fatalf("Resolve = %v; want a ResolveError", err)
			}
			if got := resolveReason(sel, re); got != tt.want {
				t.Errorf("resolveReason = %q\nwant          %q", got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"ttft", "tpot", 2}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
