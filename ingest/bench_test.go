package ingest

import (
	"runtime/debug"

	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/trial"
)

var sink []trial.Trial

// BenchmarkRead measures each reader on a representative file (MB/s).
func BenchmarkRead(b *testing.B) {
	for _, c := range []struct{ format, path string }{
		{"vllm", "testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json"},
		{"sglang", "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl"},
		{"aiperf-json", "testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json"},
		{"genai-perf-json", "testdata/synthetic/synthetic_genai_perf_nested_profile_export_genai_perf.json"},
		{"aiperf-csv", "testdata/synthetic/synthetic_profile_export_aiperf.csv"},
		{"genai-perf-analyze", "testdata/unseen/genai-perf_perf-analyzer_analyze_export_genai_perf.csv"},
		{"inference-perf", "testdata/other/inference-perf_kubecon-na-2025_vllm-batch_size_stage_0_lifecycle_metrics.json"},
		{"guidellm", "testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json"},
		{"aiperf-json-14kb", ""},
	} {
		if c.path == "" { // generated realistic AIPerf file, as in BenchmarkReadDir
			c.path = filepath.Join(b.TempDir(), "profile_export_aiperf.json")
			if err := os.WriteFile(c.path, aiperfFile(b, 1), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		fi, err := os.Stat(c.path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("format="+c.format, func(b *testing.B) {
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				sink, _ = ReadFile(c.path)
			}
			if cpu := cpuTime() - cpu; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
			}
		})
	}
}

// BenchmarkReadLargeVLLM reads a generated vLLM file with ~8 MB of
// per-request arrays; B/op shows the arrays are not held in memory.
func BenchmarkReadLargeVLLM(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.json")
	var sb strings.Builder
	sb.WriteString(`{"date": "20250414-141743", "backend": "vllm", "model_id": "m", "num_prompts": 200000, "request_rate": "inf", "completed": 200000, "duration": 100.0, "mean_ttft_ms": 1.5, "p99_ttft_ms": 3.0, "ttfts": [`)
	for i := range 200000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatFloat(0.2484128090000013+float64(i)*1e-9, 'g', -1, 64))
	}
	sb.WriteString(`], "generated_texts": [`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(`"? It\u2019s a great resource for entrepreneurs and business owners who want..."`)
	}
	sb.WriteString(`], "output_throughput": 1780.35}`)
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("size_mb=%d", sb.Len()>>20), func(b *testing.B) {
		b.SetBytes(int64(sb.Len()))
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = ReadFile(path)
		}
	})
}

// aiperfFile builds a realistic ~14 KB AIPerf JSON file (indented like
// AIPerf's own output) from the real fixture plus the streaming metric
// blocks, a warmup block, a longer input_config and GPU telemetry for two
// GPUs, with values varied by i.
func aiperfFile(b testing.TB, i int) []byte { return aiperfFileWithout(b, i, "") }

// aiperfFileWithout is aiperfFile without the extra metric block drop, a
// second layout.
func aiperfFileWithout(b testing.TB, i int, drop string) []byte {
	base, err := os.ReadFile("testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json")
	if err != nil {
		b.Fatal(err)
	}
	var extra bytes.Buffer
	for k, tag := range []string{"time_to_first_token", "time_to_second_token", "inter_token_latency", "inter_chunk_latency", "output_token_throughput_per_user", "http_req_waiting"} {
		if tag == drop {
			continue
		}
		extra.WriteString(`  "` + tag + `": `)
		statBlock(&extra, "  ", "ms", float64(i%97)+float64(k)*1.25)
		extra.WriteString(",\n")
	}
	out := bytes.Replace(base, []byte("{\n"), append([]byte("{\n"), extra.Bytes()...), 1)
	out = bytes.Replace(out, []byte(`"random_seed": 42
  },`), []byte(`"random_seed": 42,
    "loadgen": {
      "arrival_pattern": "concurrency_burst",
      "benchmark_grace_period": 30.0,
      "request_cancellation_rate": 0.0
    },
    "output": {
      "artifact_directory": "/aiperf-output/mock-model-openai-chat-concurrency`+strconv.Itoa(i)+`",
      "slice_duration": null
    }
  },`), 1)
	var tel bytes.Buffer
	tel.WriteString(",\n  \"warmup_metrics\": {\n    \"time_to_first_token\": ")
	statBlock(&tel, "    ", "ms", 40+float64(i%11))
	tel.WriteString(",\n    \"request_latency\": ")
	statBlock(&tel, "    ", "ms", 900+float64(i%11))
	tel.WriteString("\n  }")
	tel.WriteString(",\n  \"telemetry_data\": {\n    \"summary\": {\n      \"endpoints_configured\": [\"http://localhost:9400/metrics\"],\n" +
		"      \"endpoints_successful\": [\"http://localhost:9400/metrics\"]\n    },\n" +
		"    \"endpoints\": {\n      \"localhost:9400\": {\n        \"gpus\": {\n")
	for g := range 2 {
		fmt.Fprintf(&tel, "          \"gpu_%d\": {\n            \"gpu_index\": %d,\n            \"gpu_name\": \"NVIDIA H100 80GB HBM3\",\n"+
			"            \"gpu_uuid\": \"GPU-4c0a5e1f-%04d-%d\",\n            \"hostname\": \"node-%d\",\n            \"metrics\": {\n", g, g, i, g, i%8)
		for k, m := range []struct{ name, unit string }{{"gpu_power_usage", "W"}, {"gpu_utilization", "%"}, {"gpu_memory_used", "GB"}} {
			if k > 0 {
				tel.WriteString(",\n")
			}
			tel.WriteString(`              "` + m.name + `": `)
			statBlock(&tel, "              ", m.unit, 100+float64(i%13)+float64(g*10+k))
		}
		tel.WriteString("\n            }\n          }")
		if g == 0 {
			tel.WriteString(",")
		}
		tel.WriteString("\n")
	}
	tel.WriteString("        }\n      }\n    }\n  }\n}\n")
	end := bytes.LastIndexByte(out, '}')
	return append(bytes.TrimRight(out[:end], " \n"), tel.Bytes()...)
}

// statBlock writes an indented AIPerf metric block around mean m.
func statBlock(w *bytes.Buffer, indent, unit string, m float64) {
	w.WriteString("{\n" + indent + `  "unit": "` + unit + `"`)
	for k, s := range []string{"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "min", "max", "std"} {
		v := m * (0.61 + float64(k)*0.0731)
		w.WriteString(",\n" + indent + `  "` + s + `": ` + strconv.FormatFloat(v, 'g', -1, 64))
	}
	w.WriteString("\n" + indent + "}")
}

// BenchmarkReadDir reads a directory of 10,000 generated ~14 KB AIPerf JSON
// files with ReadFiles (GOMAXPROCS workers) and reports files/s; it also
// times a plain Python json.load loop over the same files (python_files/s).
// gc=default runs with the test binary's garbage collector settings,
// gc=batch with the GOGC of the pareto command (internal/gcpolicy).
// layouts=1 reads files of one layout (one tool version and
// configuration: what the readers' per-layout memos speed up); layouts=2
// alternates two layouts, so that no file repeats the previous one's.
// On a shared machine the wall-clock rates depend on the load; cpu_files/s
// and python_cpu_files/s divide by the CPU time used instead (for the Go
// side, of the whole process, garbage collector included).
//
// With PARETO_BENCH_AIPERF_DIR set, the files are written to (and left in)
// that directory, to time the pareto command on the same files.
func BenchmarkReadDir(b *testing.B) {
	const n = 10000
	dir := os.Getenv("PARETO_BENCH_AIPERF_DIR")
	if dir == "" {
		dir = b.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	paths := make([]string, n)
	size := 0
	for i := range n {
		paths[i] = filepath.Join(dir, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i))
		data := aiperfFile(b, i)
		size = len(data)
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// The same files, every other one in a second layout (one metric block
	// fewer): no two consecutive files share their layout.
	mixed := make([]string, n)
	mdir := b.TempDir()
	for i := range n {
		mixed[i] = paths[i]
		if i%2 == 1 {
			mixed[i] = filepath.Join(mdir, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i))
			if err := os.WriteFile(mixed[i], aiperfFileWithout(b, i, "time_to_second_token"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	pyRate, pyCPURate, pyErr := pythonFilesPerSec(dir)
	if pyErr != nil {
		b.Logf("no python_files/s reference: %v", pyErr)
	}
	for _, c := range []struct {
		layouts int
		gc      string
	}{{1, "default"}, {1, "batch"}, {2, "batch"}} {
		gc, paths := c.gc, paths
		if c.layouts == 2 {
			paths = mixed
		}
		b.Run(fmt.Sprintf("files=%d/kb=%d/layouts=%d/gc=%s", n, (size+512)>>10, c.layouts, gc), func(b *testing.B) {
			if gc == "batch" { // as the pareto command runs (gcpolicy.Batch)
				defer debug.SetGCPercent(debug.SetGCPercent(gcpolicy.Percent))
			}
			var errs int
			cpu := cpuTime()
			for b.Loop() {
				ReadFiles(paths, 0, func(_ int, _ []trial.Trial, err error) {
					if err != nil {
						errs++
					}
				})
			}
			cpu = cpuTime() - cpu
			if errs > 0 {
				b.Fatalf("%d read errors", errs)
			}
			files := float64(n) * float64(b.N)
			b.ReportMetric(files/b.Elapsed().Seconds(), "files/s")
			if cpu > 0 {
				b.ReportMetric(files/cpu.Seconds(), "cpu_files/s")
			}
			if pyRate > 0 {
				b.ReportMetric(pyRate, "python_files/s")
				b.ReportMetric(pyCPURate, "python_cpu_files/s")
			}
		})
	}
}

// pythonFilesPerSec times `json.load` over every file of dir (warm cache,
// second pass) and returns files per second of wall-clock and of CPU time,
// or why it could not (no python3, a timeout, unexpected output).
func pythonFilesPerSec(dir string) (wall, cpu float64, err error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return 0, 0, err
	}
	script := `import json,os,sys,time
d=sys.argv[1]; fs=[os.path.join(d,f) for f in os.listdir(d)]
for f in fs: json.load(open(f))
t=time.perf_counter(); c=time.process_time()
for f in fs:
    with open(f) as h: json.load(h)
print(len(fs)/(time.perf_counter()-t), len(fs)/(time.process_time()-c))`
	ctx := exec.Command(py, "-c", script, dir)
	done := make(chan struct{})
	var out []byte
	go func() { out, err = ctx.Output(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		ctx.Process.Kill()
		<-done
		return 0, 0, fmt.Errorf("%s took over 2 minutes", py)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", py, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%s printed %q", py, out)
	}
	wall, _ = strconv.ParseFloat(f[0], 64)
	cpu, _ = strconv.ParseFloat(f[1], 64)
	return wall, cpu, nil
}

// BenchmarkLoad measures Load on a directory of 10 000 AIPerf JSON files
// of one layout (as BenchmarkReadDir's layouts=1), with the garbage
// collector set as the pareto command sets it: what `pareto ingest DIR`
// does before counting or storing, file keys (trial.Source.Key) and IDs
// included. Each is set, as the command sets it, so no trial is kept.
func BenchmarkLoad(b *testing.B) {
	const n = 10000
	dir := filepath.Join(b.TempDir(), "runs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i)), aiperfFile(b, i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(gcpolicy.Percent))
	cpu := cpuTime()
	for b.Loop() {
		got := 0
		d, err := Load([]string{dir}, LoadOptions{Each: func(ts []trial.Trial, _ *cloudai.Run) error {
			got += len(ts)
			return nil
		}})
		if err != nil || got != n || len(d.Skipped) > 0 {
			b.Fatalf("Load = %d trials, %d skipped, %v; want %d", got, len(d.Skipped), err, n)
		}
	}
	cpu = cpuTime() - cpu
	files := float64(n) * float64(b.N)
	b.ReportMetric(files/b.Elapsed().Seconds(), "files/s")
	if cpu > 0 {
		b.ReportMetric(files/cpu.Seconds(), "cpu_files/s")
	}
}

// BenchmarkReadJSONL100k reads 100,000 JSONL records, SGLang bench_serving
// lines and vLLM --append-result objects (the lines of the real datacrunch
// and synthetic files, repeated): reading is linear in the records (it was
// quadratic, each record's line counted from byte 0), with the pareto
// command's garbage collector setting.
func BenchmarkReadJSONL100k(b *testing.B) {
	for _, c := range []struct{ format, path string }{
		{"sglang", "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl"},
		{"vllm-append", "testdata/synthetic/synthetic_vllm_bench_serve_append.json"},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			b.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
		var buf bytes.Buffer
		for i := 0; i < 100_000; i++ {
			buf.Write(bytes.TrimSpace(lines[i%len(lines)]))
			buf.WriteByte('\n')
		}
		p := filepath.Join(b.TempDir(), "records.jsonl")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run("format="+c.format, func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(gcpolicy.Percent)) // as the pareto command runs
			b.SetBytes(int64(buf.Len()))
			cpu := cpuTime()
			for b.Loop() {
				ts, err := ReadFile(p)
				if err != nil || len(ts) != 100_000 {
					b.Fatalf("%d trials, %v; want 100000", len(ts), err)
				}
				sink = ts
			}
			if cpu := cpuTime() - cpu; cpu > 0 {
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

// BenchmarkLoadRecords reads, through Load with Each as `pareto ingest`
// does (no store), one file of 100 000 records (SGLang bench_serving
// lines, vLLM --append-result objects: the lines of the real datacrunch
// and synthetic files repeated) and a directory of 2 000 generated ~14 KB
// AIPerf JSON files (aiperfFile). The records of a file are handed on in
// batches and none is kept. python-cpu-ms is the CPU time of the Python
// anchor of issue 27 on the same input (testdata/perf/anchor.py: a
// json.loads loop extracting the fields the readers map, run once before
// the loop with /usr/bin/python3), cpu-ratio cpu-ms over it. as=library
// is a library caller's options (Batches alone); as=ingest the command's
// without a store: Transient too, and NoIDs, since it keeps nothing.
func BenchmarkLoadRecords(b *testing.B) {
	for _, c := range []struct{ format, path string }{
		{"sglang", "testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl"},
		{"vllm-append", "testdata/synthetic/synthetic_vllm_bench_serve_append.json"},
		{"aiperf", ""},
	} {
		input, mode, n, unit := filepath.Join(b.TempDir(), "records.jsonl"), "jsonl", 100_000, "records"
		size := 0
		if c.path == "" {
			input, mode, n, unit = filepath.Join(b.TempDir(), "runs"), "aiperf", 2000, "files"
			if err := os.Mkdir(input, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				data := aiperfFile(b, i)
				size += len(data)
				if err := os.WriteFile(filepath.Join(input, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i)), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		} else {
			data, err := os.ReadFile(c.path)
			if err != nil {
				b.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			var buf bytes.Buffer
			for i := range n {
				buf.Write(bytes.TrimSpace(lines[i%len(lines)]))
				buf.WriteByte('\n')
			}
			size = buf.Len()
			if err := os.WriteFile(input, buf.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		pyCPU, pyErr := pythonAnchorCPU(mode, input)
		for _, as := range []string{"library", "ingest"} {
			b.Run(fmt.Sprintf("format=%s/%s=%d/as=%s", c.format, unit, n, as), func(b *testing.B) {
				defer debug.SetGCPercent(debug.SetGCPercent(gcpolicy.Percent)) // as the pareto command runs
				b.SetBytes(int64(size))
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					got := 0
					opts := LoadOptions{Batches: true, Each: func(ts []trial.Trial, _ *cloudai.Run) error {
						got += len(ts)
						return nil
					}}
					if as == "ingest" {
						opts.Transient, opts.NoIDs = true, true
					}
					d, err := Load([]string{input}, opts)
					if err != nil || got != n || len(d.Skipped) > 0 {
						b.Fatalf("Load = %d trials, %v, skipped %v; want %d", got, err, d.Skipped, n)
					}
				}
				cpu = (cpuTime() - cpu) / time.Duration(b.N)
				b.ReportMetric(float64(cpu.Microseconds())/1e3, "cpu-ms/op")
				if pyErr != nil {
					b.Logf("no Python anchor: %v", pyErr)
					return
				}
				b.ReportMetric(float64(pyCPU.Microseconds())/1e3, "python-cpu-ms")
				b.ReportMetric(cpu.Seconds()/pyCPU.Seconds(), "cpu-ratio")
			})
		}
	}
}

// pythonAnchorCPU runs testdata/perf/anchor.py (mode jsonl or aiperf) on
// input with /usr/bin/python3 and returns its CPU time (user + system).
func pythonAnchorCPU(mode, input string) (time.Duration, error) {
	cmd := exec.Command("/usr/bin/python3", "testdata/perf/anchor.py", mode, input)
	timer := time.AfterFunc(2*time.Minute, func() {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	defer timer.Stop()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}
