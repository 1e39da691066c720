package simulate

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

func write(t *testing.T, params []string, seed uint64, noise Noise) []byte {
	t.Helper()
	c, err := ParseParams(params)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(c, DefaultHardware, noise, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteVLLM(&b, &r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDeterministic: a configuration and a seed give the same bytes; a
// different seed different numbers; zero noise the model itself.
func TestDeterministic(t *testing.T) {
	params := []string{"tp=2", "max_num_seqs=64", "concurrency=32"}
	a, b := write(t, params, 7, DefaultNoise), write(t, params, 7, DefaultNoise)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs with seed 7 differ:\n%s\n%s", a, b)
	}
	if c := write(t, params, 8, DefaultNoise); bytes.Equal(a, c) {
		t.Fatalf("seeds 7 and 8 give the same result")
	}
	c, _ := ParseParams(params)
	r, _ := Run(c, DefaultHardware, Noise{}, 3)
	if r2, _ := Run(c, DefaultHardware, Noise{}, 4); r2.TTFT != r.TTFT || r2.OutputThroughput != r.OutputThroughput {
		t.Fatalf("without noise, seeds 3 and 4 differ")
	}
	if got, want := r.TTFT.P99, 1e3*r.Steady.TTFT.P99(); got != want {
		t.Errorf("noise-free p99 TTFT = %g ms; want the model's %g ms", got, want)
	}
}

// TestNoiseCV: over many seeds each metric's coefficient of variation
// is the configured one.
func TestNoiseCV(t *testing.T) {
	noise := Noise{Throughput: 0.015, TTFT: 0.10, TPOT: 0.02, ITL: 0.05, E2EL: 0.03}
	c := DefaultConfig
	const n = 4000
	series := map[string][]float64{}
	for seed := range uint64(n) {
		r, err := Run(c, DefaultHardware, noise, seed)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]float64{"output_throughput": r.OutputThroughput, "request_throughput": r.RequestThroughput,
			"p99_ttft": r.TTFT.P99, "median_ttft": r.TTFT.Median, "mean_tpot": r.TPOT.Mean, "p99_itl": r.ITL.P99, "mean_e2el": r.E2EL.Mean} {
			series[name] = append(series[name], v)
		}
	}
	want := map[string]float64{"output_throughput": 0.015, "request_throughput": 0.015, "p99_ttft": 0.10, "median_ttft": 0.10,
		"mean_tpot": 0.02, "p99_itl": 0.05, "mean_e2el": 0.03}
	for name, vs := range series {
		got := cv(vs)
		// The sample CV's relative standard error is about 1/sqrt(2n) = 1.1 %.
		if math.Abs(got/want[name]-1) > 0.05 {
			t.Errorf("%s: CV over %d seeds = %.4f; want %.4f ± 5 %%", name, n, got, want[name])
		}
	}
}

func cv(vs []float64) float64 {
	var sum, sq float64
	for _, v := range vs {
		sum += v
	}
	mean := sum / float64(len(vs))
	for _, v := range vs {
		sq += (v - mean) * (v - mean)
	}
	return math.Sqrt(sq/float64(len(vs)-1)) / mean
}

// TestReadBack: pareto's vLLM reader reads the file as a vLLM trial with
// every server setting as a parameter, the load as the workload and the
// numbers as written; repeats of one configuration (seeds) group
// together, another configuration does not.
func TestReadBack(t *testing.T) {
	params := []string{"tp=2", "max_num_seqs=64", "enable_chunked_prefill=false", "max_num_batched_tokens=4096", "concurrency=32", "gpu_memory_utilization=0.85"}
	data := write(t, params, 5, DefaultNoise)
	ts, err := ingest.ReadBytes(data, "sim.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		t.Fatalf("read %d trials; want 1", len(ts))
	}
	tr := ts[0]
	if tr.Source.Format != string(ingest.FormatVLLM) || tr.Problem != "" {
		t.Fatalf("format %q, problem %q; want a vllm trial without a problem", tr.Source.Format, tr.Problem)
	}
	for k, want := range map[string]string{
		"server_args.tensor_parallel_size": "2", "server_args.max_num_seqs": "64", "server_args.enable_chunked_prefill": "false",
		"server_args.max_num_batched_tokens": "4096", "server_args.gpu_memory_utilization": "0.85",
		"server_args.pipeline_parallel_size": "1", "server_args.data_parallel_size": "1",
		"simulator": ModelVersion, "model_id": "simulated/llama-3.1-8b", "seed": "5",
	} {
		if got := tr.Params[k]; got != want {
			t.Errorf("param %s = %q; want %q", k, got, want)
		}
	}
	if tr.Workload.Concurrency != 32 || tr.Workload.Requests != 1000 {
		t.Errorf("workload %+v; want concurrency 32 and 1000 requests", tr.Workload)
	}
	if !repeat.KnownConfig(&tr, nil) {
		t.Errorf("repeat.KnownConfig = false: repeats of a simulated configuration would not be recognised")
	}
	c, _ := ParseParams(params)
	r, _ := Run(c, DefaultHardware, DefaultNoise, 5)
	for _, m := range []struct {
		sel  string
		want float64
	}{{"output_token_throughput", r.OutputThroughput}, {"ttft.p99", r.TTFT.P99}, {"tpot.p50", r.TPOT.Median}, {"itl.mean", r.ITL.Mean}, {"e2el.p99", r.E2EL.P99}} {
		s, err := trial.ParseSelector(m.sel)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Resolve(&tr)
		if err != nil || got.Value != m.want {
			t.Errorf("%s = %v (%v); want %v", m.sel, got.Value, err, m.want)
		}
	}

	var all []trial.Trial
	for seed := range uint64(3) {
		for i, p := range [][]string{params, append(params[:len(params):len(params)], "max_num_seqs=128")} {
			got, err := ingest.ReadBytes(write(t, p, seed, DefaultNoise), fmt.Sprintf("c%d-s%d.json", i, seed))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, got...)
		}
	}
	groups := repeat.GroupRepeats(all, nil)
	if len(groups) != 2 || len(groups[0].Trials) != 3 || len(groups[1].Trials) != 3 {
		t.Fatalf("%d groups; want 2 configurations of 3 repeats each", len(groups))
	}
}
