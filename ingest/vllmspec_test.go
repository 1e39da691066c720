package ingest

import (
	"strings"
	"testing"
)

// vllmSpecRecord is a vLLM bench serve result of a speculative decoding
// run, in the shape of er0080/vllm-benchmarking @ c066a05bd139b9373620a8e6a3f76f861d934fcc
// (packages/protocol/tests/fixtures/bench_serve_speculative_v0.25.1.json;
// no licence, so not copied): the spec_decode_* outcomes beside the usual
// keys, one of them a per-draft-position array.
const vllmSpecRecord = `{
  "backend": "vllm", "burstiness": 1.0, "completed": 8, "date": "20260823-012450",
  "duration": 32.5748378210119, "endpoint_type": "vllm", "failed": 0, "label": null,
  "max_concurrency": 2, "max_concurrent_requests": 4, "max_output_tokens_per_s": 46.0,
  "mean_ttft_ms": 620.0381202470453, "p99_ttft_ms": 1469.555396421929, "median_tpot_ms": 14.416801156354207,
  "model_id": "Qwen/Qwen3.8-27B-FP8", "num_prompts": 8, "output_throughput": 122.27228948568478,
  "request_rate": "inf", "request_throughput": 0.24558832937119715, "rtfx": 0.0,
  "spec_decode_acceptance_length": 3.161111111111111,
  "spec_decode_acceptance_rate": 72.03703703703704,
  "spec_decode_accepted_tokens": 2723,
  "spec_decode_draft_tokens": 3780,
  "spec_decode_num_drafts": 1260,
  "spec_decode_per_position_acceptance_rates": [0.85, 0.7166666666666667, 0.5944444444444444],
  "tokenizer_id": "Qwen/Qwen3.8-27B-FP8", "total_input_tokens": 2502, "total_output_tokens": 3983,
  "total_token_throughput": 199.0800394965267
}
`

// TestVLLMSpecDecode: vLLM's speculative decoding outcomes are
// measurements with their values, never parameters (a parameter is the
// configuration: two repeats of one speculative configuration accept
// different numbers of drafts and would not be repeats), and the
// per-position array is neither.
func TestVLLMSpecDecode(t *testing.T) {
	for _, layout := range []struct{ name, data string }{
		{"pretty", vllmSpecRecord},
		{"one line", strings.Join(strings.Fields(vllmSpecRecord), " ") + "\n"},
	} {
		t.Run(layout.name, func(t *testing.T) {
			ts, err := ReadBytes([]byte(layout.data), "bench.json")
			if err != nil || len(ts) != 1 {
				t.Fatalf("%d trials, %v", len(ts), err)
			}
			for k := range ts[0].Params {
				if strings.HasPrefix(k, "spec_decode") {
					t.Errorf("param %s=%s: an outcome, not a setting", k, ts[0].Params[k])
				}
			}
			want := map[string]float64{
				"spec_decode_acceptance_length": 3.161111111111111, "spec_decode_acceptance_rate": 72.03703703703704,
				"spec_decode_accepted_tokens": 2723, "spec_decode_draft_tokens": 3780, "spec_decode_num_drafts": 1260,
			}
			for _, m := range ts[0].Measurements {
				if strings.HasPrefix(m.Metric, "spec_decode") {
					if v, ok := want[m.Metric]; !ok || v != m.Value {
						t.Errorf("%s = %v; want %v", m.Metric, m.Value, v)
					}
					delete(want, m.Metric)
				}
			}
			if len(want) > 0 {
				t.Errorf("measurements missing: %v", want)
			}
		})
	}
}
