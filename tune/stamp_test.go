package tune_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/realbench"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

var tuneLimits = ingest.Limits{}

// TestStamp: a trial recorded by a run has the run's configuration as
// its parameters whatever its file recorded; the file's parameters that
// describe the run stay, the others become tune_file.* labels, and those
// naming a parameter of the run with another value are reported.
func TestStamp(t *testing.T) {
	run := tune.Run{ID: 7, Trial: 3, Role: tune.RoleCandidate, Session: 2,
		Config: search.Config{"max_num_seqs": search.Num(128), "enable_chunked_prefill": search.Bool(true), "quant": search.Text("fp8")}}
	config := map[string]string{"max_num_seqs": "128", "enable_chunked_prefill": "true", "quant": "fp8"}
	for _, tt := range []struct {
		name       string
		file       map[string]string
		params     map[string]string // besides the run's configuration
		labels     []string          // tune_file.* labels
		mismatches []string          // Recorded=RecordedValue
	}{
		{name: "a vllm bench serve file: no server settings",
			file:   map[string]string{"date": "20250414-141743", "num_prompts": "200", "max_concurrency": "64", "backend": "vllm"},
			params: map[string]string{"date": "20250414-141743", "num_prompts": "200", "max_concurrency": "64"},
			labels: []string{"tune_file.backend"}},
		{name: "the simulator's server_args agree",
			file:   map[string]string{"server_args.max_num_seqs": "128", "server_args.enable_chunked_prefill": "true", "server_args.tensor_parallel_size": "1"},
			labels: []string{"tune_file.server_args.enable_chunked_prefill", "tune_file.server_args.max_num_seqs", "tune_file.server_args.tensor_parallel_size"}},
		{name: "a server setting that disagrees",
			file:       map[string]string{"server_args.max_num_seqs": "512", "server_info.quant": "bf16"},
			labels:     []string{"tune_file.server_args.max_num_seqs", "tune_file.server_info.quant"},
			mismatches: []string{"server_args.max_num_seqs=512", "server_info.quant=bf16"}},
		{name: "the same values written otherwise",
			file:   map[string]string{"max-num-seqs": "128.0", "enable_chunked_prefill": "True"},
			labels: []string{"tune_file.enable_chunked_prefill", "tune_file.max-num-seqs"}},
		{name: "a run parameter the run has is the run's",
			file:       map[string]string{"max_num_seqs": "64"},
			labels:     []string{"tune_file.max_num_seqs"},
			mismatches: []string{"max_num_seqs=64"}},
		{name: "a CSV's measured columns are not parameters",
			file:   map[string]string{"f1": "1.5", "f2": "2"},
			labels: []string{"tune_file.f1", "tune_file.f2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := trial.Trial{Source: trial.Source{Path: "run-7/result.json", Format: "vllm", Session: "s0"},
				Labels: map[string]string{"engine": "vllm", "gpu": "H100"}, Params: maps.Clone(tt.file),
				Workload: trial.Workload{Concurrency: 64}}
			got := tune.Stamp(&tr, run)
			want := maps.Clone(config)
			maps.Copy(want, tt.params)
			if !maps.Equal(tr.Params, want) {
				t.Errorf("params %v, want %v", tr.Params, want)
			}
			var labels []string
			for k, v := range tr.Labels {
				if strings.HasPrefix(k, tune.LabelFilePrefix) {
					labels = append(labels, k)
					if v != tt.file[strings.TrimPrefix(k, tune.LabelFilePrefix)] {
						t.Errorf("label %s=%s, the file's %q", k, v, tt.file[strings.TrimPrefix(k, tune.LabelFilePrefix)])
					}
				}
			}
			slices.Sort(labels)
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("file labels %v, want %v", labels, tt.labels)
			}
			var mm []string
			for _, m := range got {
				mm = append(mm, m.Recorded+"="+m.RecordedValue)
				if m.Path != tr.Source.Path || m.Label != tune.LabelFilePrefix+m.Recorded || m.Value != config[m.Param] {
					t.Errorf("mismatch %+v", m)
				}
			}
			slices.Sort(mm)
			if !slices.Equal(mm, tt.mismatches) {
				t.Errorf("mismatches %v, want %v", mm, tt.mismatches)
			}
			for k, v := range map[string]string{tune.LabelRun: "7", tune.LabelTrial: "3", tune.LabelRole: tune.RoleCandidate,
				tune.LabelSession: "2", "engine": "vllm", "gpu": "H100"} {
				if tr.Labels[k] != v {
					t.Errorf("label %s=%q, want %q", k, tr.Labels[k], v)
				}
			}
			if tr.Source.Session != tune.SessionName(2) || tr.Workload.Concurrency != 64 {
				t.Errorf("session %q, workload %+v: want the run's session and the file's workload", tr.Source.Session, tr.Workload)
			}
		})
	}
}

// TestReadRun: a run's folder is read as pareto ingest reads a folder
// (only benchmark results are trials), or exactly the files --result
// names; a run that left no result is a *NoResultError listing, within
// bounds, what it left.
func TestReadRun(t *testing.T) {
	ctx := context.Background()
	write := func(t *testing.T, dir string, files map[string]string) {
		for name, text := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	real := func(t *testing.T, format string) string {
		dir := t.TempDir()
		if _, err := realbench.Write(dir, format, simulate.DefaultConfig, 1); err != nil {
			t.Fatal(err)
		}
		write(t, dir, map[string]string{"stdout.log": "{\"not\": \"read\"}\n", "stderr.log": ""})
		return dir
	}
	t.Run("real outputs", func(t *testing.T) {
		for _, format := range realbench.Formats {
			dir := real(t, format)
			ts, err := tune.ReadRun(ctx, dir, nil, tuneLimits)
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			want := 1
			if format == "guidellm" {
				want = 2 // its two benchmarks
			}
			if len(ts) != want {
				t.Errorf("%s: %d trials, want %d", format, len(ts), want)
			}
			for _, tr := range ts {
				if filepath.Base(tr.Source.Path) != filepath.Base(realbench.ResultName(format)) {
					t.Errorf("%s: a trial read from %s", format, tr.Source.Path)
				}
			}
		}
	})
	t.Run("--result names the results", func(t *testing.T) {
		dir := real(t, "vllm")
		write(t, dir, map[string]string{"sweep/c8/table.csv": "concurrency,output_token_throughput\n8,100\n"})
		ts, err := tune.ReadRun(ctx, dir, []string{"sweep/*/table.csv"}, tuneLimits)
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 1 || !strings.HasSuffix(ts[0].Source.Path, "table.csv") {
			t.Fatalf("trials %v: want the table's row alone", ts)
		}
		_, err = tune.ReadRun(ctx, dir, []string{"out/*.json"}, tuneLimits)
		var nr *tune.NoResultError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), "matching result out/*.json") {
			t.Errorf("a pattern matching nothing: %v", err)
		}
		if nr != nil && !strings.Contains(nr.Phrase(func(f string) string { return "--" + f }), "matching --result out/*.json") {
			t.Errorf("phrased with flags: %s", nr.Phrase(func(f string) string { return "--" + f }))
		}
		if _, err := tune.ReadRun(ctx, dir, []string{"../*.json"}, tuneLimits); err == nil {
			t.Error("a pattern outside the run's folder was taken")
		}
	})
	t.Run("no result", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{"server.log": "INFO started\n", "nvidia-smi.csv": "timestamp, name\n2026/12/01, H100\n",
			"inputs.json": `{"data": [{"session_id": "s0", "payloads": [{"model": "m"}]}]}`, "stderr.log": "done\n"}
		for i := range 20 {
			files[fmt.Sprintf("trace/part-%02d.log", i)] = "x\n"
		}
		write(t, dir, files)
		_, err := tune.ReadRun(ctx, dir, nil, tuneLimits)
		var nr *tune.NoResultError
		if !errors.As(err, &nr) {
			t.Fatalf("error %v, want a *NoResultError", err)
		}
		if len(nr.Left) != tune.MaxLeftListed || nr.More != len(files)-tune.MaxLeftListed {
			t.Errorf("listed %d and %d more, want %d and %d", len(nr.Left), nr.More, tune.MaxLeftListed, len(files)-tune.MaxLeftListed)
		}
		msg := err.Error()
		for _, w := range []string{"no benchmark result in " + dir, "inputs.json (", "nvidia-smi.csv", "server.log", "and 12 more", "with result GLOB"} {
			if !strings.Contains(msg, w) {
				t.Errorf("%q lacks %q", msg, w)
			}
		}
		if flags := nr.Phrase(func(f string) string { return "--" + f }); !strings.Contains(flags, "with --result GLOB") {
			t.Errorf("phrased with flags: %q lacks --result GLOB", flags)
		}
	})
	t.Run("unreadable result", func(t *testing.T) {
		dir := real(t, "vllm")
		p := filepath.Join(dir, realbench.ResultName("vllm"))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := tune.ReadRun(ctx, dir, nil, tuneLimits); err == nil || !strings.Contains(err.Error(), "could not be read") {
			t.Errorf("a truncated result: %v", err)
		}
	})
}

// BenchmarkStamp stamps a trial whose file recorded n parameters (a
// guidellm report records over a hundred) with a run of 4.
func BenchmarkStamp(b *testing.B) {
	run := tune.Run{ID: 7, Trial: 3, Role: tune.RoleCandidate, Session: 2, Config: search.Config{"a": search.Num(1), "b": search.Num(2),
		"c": search.Bool(true), "max_num_seqs": search.Num(128)}}
	for _, n := range []int{8, 128} {
		file := map[string]string{"server_args.max_num_seqs": "128", "max_concurrency": "64"}
		for i := len(file); i < n; i++ {
			file[fmt.Sprintf("benchmark.p%d", i)] = "x"
		}
		b.Run(fmt.Sprintf("params=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tr := trial.Trial{Params: maps.Clone(file)}
				tune.Stamp(&tr, run)
			}
		})
	}
}

// BenchmarkReadRun reads a run's folder as pareto tune does: a result
// among the files a real client leaves beside it.
func BenchmarkReadRun(b *testing.B) {
	for _, format := range []string{"vllm", "aiperf"} {
		dir := b.TempDir()
		if _, err := realbench.Write(dir, format, simulate.DefaultConfig, 1); err != nil {
			b.Fatal(err)
		}
		b.Run("format="+format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tune.ReadRun(context.Background(), dir, nil, tuneLimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
