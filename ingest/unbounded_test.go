package ingest

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestUnboundedRequestRate: every reader gives an unbounded request rate
// ("as fast as possible") as +Inf in the workload, whatever the file
// writes for it: vLLM's string "inf" (real file), SGLang's bare Infinity
// (real file), guidellm's throughput strategy (the real report with its
// first strategy made a throughput one), a generic table's "inf" or
// Infinity cell (a workload setting, no measurement), and pareto's own
// JSONL export, whose "inf" reads back as +Inf. A finite rate stays the
// number the file writes.
func TestUnboundedRequestRate(t *testing.T) {
	read := func(path string) []byte {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := func(b []byte) []byte { return bytes.SplitN(b, []byte("\n"), 2)[0] }
	guide := read("testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json")
	guide = bytes.Replace(guide, []byte(`"type_": "constant",`), []byte(`"type_": "throughput",`), 1)
	guide = bytes.Replace(guide, []byte(`"rate": 2.0,`), nil, 1)
	inf := math.Inf(1)
	for _, c := range []struct {
		name, file string
		data       []byte
		want       []float64 // request_rate of each trial
	}{
		{"vllm inf string", "qps_inf.json", read("testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json"), []float64{inf}},
		{"vllm finite", "qps_04.json", read("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json"), []float64{4}},
		{"sglang Infinity literal", "run.jsonl", first(read("testdata/sglang/datacrunch_2024-12_llama_3_3_70b_offline_output.jsonl")), []float64{inf}},
		{"guidellm throughput strategy", "report.json", guide, []float64{inf, 4}},
		{"table csv inf", "runs.csv", []byte("id,request_rate,ttft_ms\na,inf,20\nb,Infinity,21\nc,4,25\n"), []float64{inf, inf, 4}},
		{"table jsonl Infinity", "runs.jsonl", []byte(`{"id":"a","request_rate":Infinity,"ttft_ms":20}` + "\n" + `{"id":"b","request_rate":"inf","ttft_ms":21}` + "\n"), []float64{inf, inf}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ts []trial.Trial
			var err error
			if c.file == "runs.csv" || c.file == "runs.jsonl" {
				ts, err = ReadTable(c.data, c.file, TableOptions{})
			} else {
				ts, err = ReadBytes(c.data, c.file)
			}
			if err != nil || len(ts) != len(c.want) {
				t.Fatalf("%d trials, %v; want %d", len(ts), err, len(c.want))
			}
			for i, tr := range ts {
				if got := tr.Workload.RequestRate; got != c.want[i] {
					t.Errorf("trial %d: request_rate %v; want %v", i, got, c.want[i])
				}
				for _, m := range tr.Measurements {
					if m.Metric == "request_rate" && math.IsInf(m.Value, 0) {
						t.Errorf("trial %d: an unbounded rate is a measurement: %+v", i, m)
					}
				}
				// the JSON export writes "inf" and reads it back as +Inf
				b, err := json.Marshal(tr.Workload)
				if err != nil {
					t.Fatal(err)
				}
				if math.IsInf(c.want[i], 1) && !bytes.Contains(b, []byte(`"request_rate":"inf"`)) {
					t.Errorf("trial %d: workload JSON %s; want \"request_rate\":\"inf\"", i, b)
				}
				var back trial.Workload
				if err := json.Unmarshal(b, &back); err != nil || back.RequestRate != c.want[i] {
					t.Errorf("trial %d: %s reads back as %v, %v", i, b, back.RequestRate, err)
				}
			}
		})
	}
}
