// Package realbench writes what a real benchmark client leaves in a run's
// folder, for the end-to-end tests of the tuning loop on real outputs:
// the result file of vllm bench serve, SGLang's bench_serving, AIPerf or
// guidellm — a real file shipped in testdata, every member as the tool
// wrote it, its numbers scaled to the simulator's model of the run's
// configuration (package simulate) — and the files those tools leave
// beside it: a server log, an nvidia-smi telemetry CSV, and for AIPerf
// its per-request profile_export.jsonl, inputs.json and log. Like the
// real files, the results hold no server settings: only the run knows
// its configuration.
//
// The numbers the tests compare on are set to the simulator's exactly
// (the output token throughput, the median TTFT, tpot and ITL, the
// median end-to-end latency, in the units of the file), the others of the
// same group scaled by the same factor, so that a tuning study on these
// files reaches the verdicts of one on pareto simulate's output with the
// same seed. A file with several benchmarks (guidellm's two request
// rates) keeps their ratios: its first benchmark gets the simulator's
// numbers.
//
// Main is the command a test's --command runs (the test binary calling
// it from TestMain): the configuration from PARETO_PARAM_* (simulate's
// parameter names), the noise seed from PARETO_SEED, the format from
// REALBENCH_FORMAT and an optional concurrency sweep from REALBENCH_SWEEP
// ("16,64": one result per concurrency, in folders c16 and c64).
package realbench

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/simulate"
)

// Formats are the result formats Write writes.
var Formats = []string{"vllm", "sglang", "aiperf", "guidellm"}

var (
	//go:embed testdata/surajssd_llama33-70b_tp8_qps_inf.json
	vllmFile []byte
	//go:embed testdata/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl
	sglangFile []byte
	//go:embed testdata/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json
	aiperfFile []byte
	//go:embed testdata/guidellm_report_v2_llm-d-benchmark-fixture_mock.json
	guidellmFile []byte
)

// ResultName returns the name, relative to the run's folder, of the
// result file Write writes in format.
func ResultName(format string) string {
	switch format {
	case "vllm":
		return "vllm-infqps-Llama-3.3-70B-Instruct-20250414-141743.json"
	case "sglang":
		return "sglang_bench_serving.jsonl"
	case "aiperf":
		return "artifacts/mock-model-openai-chat-concurrency4/profile_export_aiperf.json"
	case "guidellm":
		return "benchmarks.json"
	}
	return ""
}

// Write writes into dir what a run of cfg measured by format leaves (the
// simulator's model of cfg with the noise of seed): the result file
// (ResultName) and the files the tool leaves beside it. It returns the
// result file's path.
func Write(dir, format string, cfg simulate.Config, seed uint64) (string, error) {
	r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, seed)
	if err != nil {
		return "", err
	}
	var data []byte
	switch format {
	case "vllm":
		data, err = vllm(&r)
	case "sglang":
		data, err = sglang(&r)
	case "aiperf":
		data, err = aiperf(&r)
	case "guidellm":
		data, err = guidellm(&r)
	default:
		return "", fmt.Errorf("realbench: unknown format %q (have %s)", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, ResultName(format))
	if err := writeFile(path, data); err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(dir, "server.log"), serverLog(format, &r)); err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(dir, "nvidia-smi.csv"), telemetry(&r)); err != nil {
		return "", err
	}
	if format == "aiperf" {
		base := filepath.Dir(path)
		if err := writeFile(filepath.Join(base, "profile_export.jsonl"), records(&r)); err != nil {
			return "", err
		}
		if err := writeFile(filepath.Join(base, "inputs.json"), inputs()); err != nil {
			return "", err
		}
		if err := writeFile(filepath.Join(base, "logs", "aiperf.log"), []byte("2026-12-01 10:00:00,000 INFO     AIPerf profile complete\n")); err != nil {
			return "", err
		}
	}
	return path, nil
}

// Main is the command of a run: it writes into the working folder what
// format (REALBENCH_FORMAT) leaves for the configuration of the run's
// PARETO_PARAM_* variables measured with the noise of PARETO_SEED, once
// per concurrency of REALBENCH_SWEEP (in folders cN) when it is set. It
// returns the exit status, with the error on stderr.
func Main(getenv func(string) string, stderr io.Writer) int {
	if err := run(getenv); err != nil {
		fmt.Fprintln(stderr, "realbench:", err)
		return 1
	}
	return 0
}

func run(getenv func(string) string) error {
	cfg, err := Config(getenv)
	if err != nil {
		return err
	}
	seed, err := strconv.ParseUint(getenv("PARETO_SEED"), 10, 64)
	if err != nil {
		return fmt.Errorf("PARETO_SEED %q: %w", getenv("PARETO_SEED"), err)
	}
	format := getenv("REALBENCH_FORMAT")
	sweep := getenv("REALBENCH_SWEEP")
	if sweep == "" {
		_, err := Write(".", format, cfg, seed)
		return err
	}
	for _, s := range strings.Split(sweep, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || c < 1 {
			return fmt.Errorf("REALBENCH_SWEEP %q: want concurrencies such as 16,64", sweep)
		}
		at := cfg
		at.MaxConcurrency = c
		if _, err := Write("c"+strconv.Itoa(c), format, at, seed); err != nil {
			return err
		}
	}
	return nil
}

// Config returns simulate.DefaultConfig with every parameter of
// simulate.Settings that getenv has as PARETO_PARAM_<NAME> set.
func Config(getenv func(string) string) (simulate.Config, error) {
	cfg := simulate.DefaultConfig
	for _, s := range simulate.Settings {
		if v := getenv("PARETO_PARAM_" + executor.EnvName(s.Name)); v != "" {
			if err := cfg.Set(s.Name, v); err != nil {
				return cfg, err
			}
		}
	}
	return cfg, nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// doc is a decoded JSON document whose numbers are json.Number.
type doc = map[string]any

func decode(data []byte) (doc, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m doc
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// num returns the number at path in m.
func num(m doc, path ...string) (float64, error) {
	v, err := at(m, path)
	if err != nil {
		return 0, err
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s is not a number", strings.Join(path, "."))
	}
	return n.Float64()
}

func at(m doc, path []string) (any, error) {
	var v any = m
	for _, k := range path {
		o, ok := v.(doc)
		if !ok {
			return nil, fmt.Errorf("%s: not an object", strings.Join(path, "."))
		}
		if v, ok = o[k]; !ok {
			return nil, fmt.Errorf("%s: missing", strings.Join(path, "."))
		}
	}
	return v, nil
}

// set sets the number at path in m to x.
func set(m doc, x float64, path ...string) error {
	parent, err := at(m, path[:len(path)-1])
	if err != nil {
		return err
	}
	o, ok := parent.(doc)
	if !ok {
		return fmt.Errorf("%s: not an object", strings.Join(path, "."))
	}
	o[path[len(path)-1]] = number(x)
	return nil
}

func number(x float64) json.Number { return json.Number(strconv.FormatFloat(x, 'g', -1, 64)) }

// scale multiplies every number under v by f (a variance by f²), but
// counts.
func scale(v any, f float64) any {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Float64()
		if err != nil {
			return x
		}
		return number(n * f)
	case []any:
		for i := range x {
			x[i] = scale(x[i], f)
		}
	case doc:
		for k, e := range x {
			switch k {
			case "count", "unit":
			case "variance":
				x[k] = scale(e, f*f)
			default:
				x[k] = scale(e, f)
			}
		}
	}
	return v
}

// vllm is the vllm bench serve file with the model's throughputs and
// TTFT, TPOT and ITL statistics, its per-request TTFTs and ITLs scaled,
// and the client's concurrency.
func vllm(r *simulate.Result) ([]byte, error) {
	m, err := decodeTimed(vllmFile, r)
	if err != nil {
		return nil, err
	}
	for k, x := range map[string]float64{"request_throughput": r.RequestThroughput, "output_throughput": r.OutputThroughput,
		"total_token_throughput": r.TotalThroughput} {
		m[k] = number(x)
	}
	for _, g := range []struct {
		name, perRequest string
		s                simulate.Stats
	}{{"ttft", "ttfts", r.TTFT}, {"tpot", "", r.TPOT}, {"itl", "itls", r.ITL}} {
		median, err := num(m, "median_"+g.name+"_ms")
		if err != nil {
			return nil, err
		}
		if g.perRequest != "" {
			m[g.perRequest] = scale(m[g.perRequest], g.s.Median/median)
		}
		for k, x := range map[string]float64{"mean": g.s.Mean, "median": g.s.Median, "std": g.s.Std, "p99": g.s.P99} {
			m[k+"_"+g.name+"_ms"] = number(x)
		}
	}
	m["max_concurrency"] = json.Number(strconv.Itoa(r.Config.MaxConcurrency))
	return encode(m)
}

// decodeTimed decodes a captured vLLM or SGLang result whose
// output_throughput the model's replaces, its duration scaled to match.
func decodeTimed(data []byte, r *simulate.Result) (doc, error) {
	m, err := decode(data)
	if err != nil {
		return nil, err
	}
	thr, err := num(m, "output_throughput")
	if err != nil {
		return nil, err
	}
	m["duration"] = scale(m["duration"], thr/r.OutputThroughput)
	return m, nil
}

// sglang is the first line of the bench_serving JSONL with the model's
// output throughput and latencies and the client's concurrency.
func sglang(r *simulate.Result) ([]byte, error) {
	line, _, _ := bytes.Cut(sglangFile, []byte("\n"))
	m, err := decodeTimed(line, r)
	if err != nil {
		return nil, err
	}
	for k, x := range map[string]float64{"output_throughput": r.OutputThroughput, "median_ttft_ms": r.TTFT.Median,
		"median_itl_ms": r.ITL.Median, "mean_e2e_latency_ms": r.E2EL.Mean, "median_e2e_latency_ms": r.E2EL.Median} {
		m[k] = number(x)
	}
	m["max_concurrency"] = json.Number(strconv.Itoa(r.Config.MaxConcurrency))
	b, err := encode(m)
	if err != nil {
		return nil, err
	}
	return b, nil // one line, as bench_serving appends it
}

// aiperf is profile_export_aiperf.json with the model's throughputs and
// request latencies (the mock run it comes from streams nothing: no
// TTFT) and the client's concurrency.
func aiperf(r *simulate.Result) ([]byte, error) {
	m, err := decode(aiperfFile)
	if err != nil {
		return nil, err
	}
	thr, err := num(m, "output_token_throughput", "avg")
	if err != nil {
		return nil, err
	}
	p50, err := num(m, "request_latency", "p50")
	if err != nil {
		return nil, err
	}
	m["benchmark_duration"] = scale(m["benchmark_duration"], thr/r.OutputThroughput)
	m["request_latency"] = scale(m["request_latency"], r.E2EL.Median/p50)
	for _, s := range []struct {
		x    float64
		path []string
	}{
		{r.OutputThroughput, []string{"output_token_throughput", "avg"}},
		{r.RequestThroughput, []string{"request_throughput", "avg"}},
		{r.TotalThroughput, []string{"total_token_throughput", "avg"}},
		{r.E2EL.Median, []string{"request_latency", "p50"}},
		{r.E2EL.Mean, []string{"request_latency", "avg"}},
	} {
		if err := set(m, s.x, s.path...); err != nil {
			return nil, err
		}
	}
	phases, err := at(m, []string{"input_config", "phases"})
	if err != nil {
		return nil, err
	}
	if list, ok := phases.([]any); ok && len(list) > 0 {
		if p, ok := list[0].(doc); ok {
			p["concurrency"] = json.Number(strconv.Itoa(r.Config.MaxConcurrency))
		}
	}
	return encode(m)
}

// guidellm is the report with each benchmark's throughputs and
// latencies scaled so that the first one has the model's output
// throughput, median TTFT, TPOT, ITL and request latency.
func guidellm(r *simulate.Result) ([]byte, error) {
	m, err := decode(guidellmFile)
	if err != nil {
		return nil, err
	}
	list, ok := m["benchmarks"].([]any)
	if !ok || len(list) == 0 {
		return nil, errors.New("guidellm: no benchmarks")
	}
	first, ok := list[0].(doc)
	if !ok {
		return nil, errors.New("guidellm: a benchmark is not an object")
	}
	groups := []struct {
		metrics []string
		anchor  string // the successful median, or mean for throughput
		x       float64
	}{
		{[]string{"output_tokens_per_second", "tokens_per_second", "requests_per_second", "prompt_tokens_per_second"}, "mean", r.OutputThroughput},
		{[]string{"time_to_first_token_ms", "time_to_first_output_token_ms"}, "median", r.TTFT.Median},
		{[]string{"time_per_output_token_ms"}, "median", r.TPOT.Median},
		{[]string{"inter_token_latency_ms"}, "median", r.ITL.Median},
		{[]string{"request_latency"}, "median", r.E2EL.Median / 1e3}, // seconds
	}
	for _, g := range groups {
		was, err := num(first, "metrics", g.metrics[0], "successful", g.anchor)
		if err != nil {
			return nil, err
		}
		f := g.x / was
		for _, b := range list {
			bm, ok := b.(doc)
			if !ok {
				return nil, errors.New("guidellm: a benchmark is not an object")
			}
			metrics, ok := bm["metrics"].(doc)
			if !ok {
				return nil, errors.New("guidellm: a benchmark has no metrics")
			}
			for _, name := range g.metrics {
				if v, ok := metrics[name]; ok {
					metrics[name] = scale(v, f)
				}
			}
		}
		// The first benchmark's anchor is the model's number exactly
		// (its median is also its p50).
		if err := set(first, g.x, "metrics", g.metrics[0], "successful", g.anchor); err != nil {
			return nil, err
		}
		if g.anchor == "median" {
			if err := set(first, g.x, "metrics", g.metrics[0], "successful", "percentiles", "p50"); err != nil {
				return nil, err
			}
		}
	}
	return encode(m)
}

// serverLog is a few lines of the server's log (no result).
func serverLog(format string, r *simulate.Result) []byte {
	var b strings.Builder
	c := &r.Config
	switch format {
	case "sglang":
		fmt.Fprintf(&b, "[2026-12-01 10:00:00] server_args=ServerArgs(model_path='%s', tp_size=%d, max_running_requests=%d, chunked_prefill_size=%d)\n",
			simulate.Models[c.Model].ID, c.TP, c.MaxNumSeqs, c.MaxNumBatchedTokens)
		b.WriteString("[2026-12-01 10:00:05] The server is fired up and ready to roll!\n")
		fmt.Fprintf(&b, "[2026-12-01 10:01:00] Decode batch. #running-req: %d, gen throughput (token/s): %.2f\n", c.MaxConcurrency, r.OutputThroughput)
	default:
		fmt.Fprintf(&b, "INFO 12-01 10:00:00 [api_server.py:1090] vLLM API server version 0.9.0\n")
		fmt.Fprintf(&b, "INFO 12-01 10:00:00 [api_server.py:1091] args: Namespace(model='%s', tensor_parallel_size=%d, max_num_seqs=%d, max_num_batched_tokens=%d, enable_chunked_prefill=%t)\n",
			simulate.Models[c.Model].ID, c.TP, c.MaxNumSeqs, c.MaxNumBatchedTokens, c.ChunkedPrefill)
		b.WriteString("INFO 12-01 10:00:30 [launcher.py:28] Available routes are: /v1/completions, /v1/chat/completions\n")
		fmt.Fprintf(&b, "INFO 12-01 10:01:00 [loggers.py:116] Engine 000: Avg generation throughput: %.1f tokens/s, Running: %d reqs\n",
			r.OutputThroughput, c.MaxConcurrency)
	}
	return []byte(b.String())
}

// telemetry is nvidia-smi --query-gpu=... --format=csv -l 1 output.
func telemetry(r *simulate.Result) []byte {
	var b strings.Builder
	b.WriteString("timestamp, name, pci.bus_id, utilization.gpu [%], memory.used [MiB], power.draw [W]\n")
	for s := range 3 {
		for g := range r.Config.GPUs() {
			fmt.Fprintf(&b, "2026/12/01 10:00:%02d.000, NVIDIA H100 80GB HBM3, 00000000:%02X:00.0, %d %%, %d MiB, %.2f W\n",
				s, 0x18+g, 90+s, 70000+100*s, 650.5+float64(s))
		}
	}
	return []byte(b.String())
}

// records is AIPerf's per-request profile_export.jsonl.
func records(r *simulate.Result) []byte {
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, `{"metadata": {"session_num": %d, "x_request_id": "req-%d", "benchmark_phase": "profiling", "was_cancelled": false}, `+
			`"metrics": {"request_latency": {"value": %g, "unit": "ms"}, "output_sequence_length": {"value": %d, "unit": "tokens"}}, "error": null}`+"\n",
			i, i, r.E2EL.Median*(0.9+0.05*float64(i)), r.Config.OutputLen)
	}
	return []byte(b.String())
}

// inputs is AIPerf's inputs.json.
func inputs() []byte {
	return []byte(`{"data": [{"session_id": "session_000000", "payloads": [{"messages": [{"role": "user", "content": "a prompt"}], "model": "mock-model", "stream": false}]}]}` + "\n")
}
