package report

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestPointsRoundTrip checks that the column form of the points decodes to
// the points, for repeated and distinct values, labels, workloads, none
// (-1) and set layouts and configurations, and places in files.
func TestPointsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		ps   Points
	}{
		{"none", Points{}},
		{"fixture", buildFixture(t).Points},
		{"mixed", Points{
			{ID: "a", Case: "c1", Source: "f.jsonl", Line: 3, Index: 2, Layout: -1, Config: 0, Labels: map[string]string{"engine": "vllm"},
				Workload: trial.Workload{Concurrency: 4}},
			{ID: "b", Case: "c1", Iteration: "1", Phase: "p", Source: "f.jsonl", Line: 4, Index: 3, Layout: 2, Config: -1,
				Labels: map[string]string{"engine": "sglang", "model": "m"}},
			{ID: "c", Case: "c2", Step: "2", Benchmark: "aiperf", Source: "g.json", Layout: 0, Config: 1, Workload: trial.Workload{Concurrency: 4}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.ps)
			if err != nil {
				t.Fatal(err)
			}
			var got Points
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("decoding %s: %v", b, err)
			}
			if !reflect.DeepEqual(got, tt.ps) {
				t.Errorf("round trip:\n got %+v\nwant %+v\n(%s)", got, tt.ps, b)
			}
		})
	}
	if err := json.Unmarshal([]byte(`{"n":2,"workloads":[{}],"workload":[0]}`), new(Points)); err == nil {
		t.Errorf("a workload column shorter than n decoded without an error")
	}
}

func TestFloatsInfinity(t *testing.T) {
	in := Floats{1.5, math.Inf(1), math.Inf(-1), 0.1}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `[1.5,"Infinity","-Infinity",0.1]` {
		t.Fatalf("marshal = %s, %v", b, err)
	}
	var out Floats
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Errorf("unmarshal = %v, %v; want %v", out, err, in)
	}
}
