// Package benchstudy generates, reproducibly, the large stored studies the
// scale benchmarks and the 10⁶-trial figures of docs/PERFORMANCE.md run
// on: vLLM-like trials of configurations measured several times each
// (repeats), ingested into a store sweep after sweep as a tuning campaign
// would be.
//
// Trial i of a study of n trials with r repeats is repeat i / c of
// configuration i % c, where c = ⌈n / r⌉: the configurations are swept once
// per repeat, each sweep ingested in sources of Source trials. A
// configuration is a tensor-parallel size, max_num_seqs, GPU memory
// utilisation and max_num_batched_tokens (parameters that
// repeat.KnownConfig recognises) under one concurrency (the workload); the
// repeats differ in their seed and run number (repeat.RunParams) and in
// their measured values (a few percent of run-to-run noise). The values
// depend on the configuration so that the frontier is a real trade-off of
// latency against throughput, not a handful of points.
package benchstudy

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// Source is the number of trials per ingested source.
const Source = 10_000

// Configs returns the number of configurations of a study of n trials
// with r repeats each.
func Configs(n, r int) int { return (n + r - 1) / r }

// Trial returns trial i of a study whose configurations number configs.
func Trial(i, configs int) trial.Trial {
	c, rep := i%configs, i/configs
	tp := 1 << (c % 4)
	seqs := 32 * (1 + c/4%16)
	mem := 0.80 + 0.03*float64(c/64%5)
	conc := float64(int(1) << (c / 320 % 9))
	batched := 2048 + 256*(c/2880)
	rng := rand.New(rand.NewPCG(uint64(i), 0x9e3779b97f4a7c15))
	noise := func() float64 { return 1 + 0.04*rng.NormFloat64() }
	t := trial.Trial{
		Source: trial.Source{Path: fmt.Sprintf("sweep%d/batch%04d.jsonl", rep, c/Source), Format: "vllm",
			Line: c%Source + 1},
		Succeeded: 500, Failed: int64(i % 3),
		Workload: trial.Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: conc, Requests: 500,
			RequestRate: math.Inf(1)},
	}
	t.SetLabel(trial.LabelTool, "vllm")
	t.SetLabel(trial.LabelEngine, "vllm")
	t.SetLabel(trial.LabelEngineVersion, "0.8.5")
	t.SetLabel(trial.LabelModel, "meta-llama/Llama-3.1-8B-Instruct")
	t.SetLabel(trial.LabelHardware, "H100")
	t.SetParam("tensor_parallel_size", strconv.Itoa(tp))
	t.SetParam("max_num_seqs", strconv.Itoa(seqs))
	t.SetParam("gpu_memory_utilization", strconv.FormatFloat(mem, 'f', 2, 64))
	t.SetParam("max_num_batched_tokens", strconv.Itoa(batched))
	t.SetParam("seed", strconv.Itoa(i))
	t.SetParam("run_number", strconv.Itoa(rep))
	// Throughput grows with concurrency, parallelism and batching, and so
	// does latency; the configuration's own factor (its hash) spreads the
	// points so that the frontier has many members.
	h := rand.New(rand.NewPCG(uint64(c), 7))
	eff := 0.6 + 0.4*h.Float64()
	busy := math.Min(conc, float64(seqs)) / float64(seqs)
	tps := conc * 90 * float64(tp) * eff * (1 + float64(batched-2048)/60000) * (1 - 0.3*busy)
	ttft := (25 + conc*4/float64(tp)) * (2 - eff) * (1 + float64(batched-2048)/40000) / (mem + 0.2)
	tpot := (6 + conc/float64(tp)) * (2 - eff)
	add := func(metric, stat string, v float64, unit string) {
		t.Measurements = append(t.Measurements, trial.Measurement{Metric: metric, Dims: trial.StatDims(stat),
			Value: v, Unit: unit, Native: stat + "_" + metric + "_ms"})
	}
	add(trial.TTFT, "p50", ttft*noise(), trial.UnitMs)
	add(trial.TTFT, "p99", 1.8*ttft*noise(), trial.UnitMs)
	add(trial.TPOT, "p50", tpot*noise(), trial.UnitMs)
	add(trial.TPOT, "p99", 1.5*tpot*noise(), trial.UnitMs)
	t.Measurements = append(t.Measurements,
		trial.Measurement{Metric: trial.OutputTokenThroughput, Value: tps * noise(), Unit: trial.UnitTokensPerS},
		trial.Measurement{Metric: trial.RequestThroughput, Value: tps / 128 * noise(), Unit: trial.UnitReqPerS})
	t.Finalize()
	return t
}

// Write ingests trials [0, n) of a study with r repeats per configuration
// into the study of s, Source trials per source, and returns how many were
// added (fewer when the study already holds some of them).
func Write(ctx context.Context, s store.Store, study string, n, r int) (int, error) {
	configs := Configs(n, r)
	added := 0
	batch := make([]trial.Trial, 0, Source)
	for from := 0; from < n; from += Source {
		batch = batch[:0]
		for i := from; i < min(from+Source, n); i++ {
			batch = append(batch, Trial(i, configs))
		}
		a, _, err := s.Ingest(ctx, study, "gen"+strconv.Itoa(from), batch)
		if err != nil {
			return added, err
		}
		added += a
	}
	return added, nil
}
