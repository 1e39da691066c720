package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// benchTrials is the study size of the ingest and frontier benchmarks;
// PARETO_BENCH_TRIALS overrides it (the CI smoke run uses a small one).
func benchTrials() int {
	if n, err := strconv.Atoi(os.Getenv("PARETO_BENCH_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

const benchSource = 10_000 // trials per ingested source

// benchBackends lists the backends to benchmark: a fresh SQLite file and
// a fresh PostgreSQL database (skipped, or failed under CI, without
// PARETO_TEST_POSTGRES_URL).
func benchBackends(*testing.B) []backend {
	return []backend{{name: "sqlite", location: sqliteLocation}, {name: "postgres", location: freshPostgres}}
}

// ingestGenerated ingests n generated trials in sources of benchSource;
// generating them is not timed.
func ingestGenerated(b *testing.B, s store.Store, study string, n int) {
	for from := 0; from < n; from += benchSource {
		b.StopTimer()
		ts := genTrials(from, min(benchSource, n-from))
		b.StartTimer()
		if _, _, err := s.Ingest(context.Background(), study, "gen"+strconv.Itoa(from), ts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIngest(b *testing.B) {
	n := benchTrials()
	for _, be := range benchBackends(b) {
		b.Run(fmt.Sprintf("store=%s/trials=%d", be.name, n), func(b *testing.B) {
			s := openT(b, be.location(b))
			i := 0
			for b.Loop() {
				i++
				ingestGenerated(b, s, "bench"+strconv.Itoa(i), n)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
		})
	}
}

// BenchmarkFrontier measures a frontier query end to end: open the store,
// read the objectives of every trial with Columns, and analyse.
func BenchmarkFrontier(b *testing.B) {
	benchFrontier(b, frontierQuery)
}

// BenchmarkFrontierWhere is BenchmarkFrontier restricted to one engine,
// a condition on an environment column that Columns applies in SQL.
func BenchmarkFrontierWhere(b *testing.B) {
	benchFrontier(b, func(b *testing.B, loc, study string) frontier.Result {
		return frontierQueryWhere(b, loc, study, []trial.Condition{{Key: "engine", Op: trial.OpEq, Value: "vllm"}})
	})
}

// BenchmarkFrontierTrials is BenchmarkFrontier through Trials and
// per-trial selector resolution, the path before Columns.
func BenchmarkFrontierTrials(b *testing.B) {
	benchFrontier(b, frontierQueryTrials)
}

func benchFrontier(b *testing.B, query func(b *testing.B, loc, study string) frontier.Result) {
	n := benchTrials()
	for _, be := range benchBackends(b) {
		b.Run(fmt.Sprintf("store=%s/trials=%d", be.name, n), func(b *testing.B) {
			loc := be.location(b)
			s := openT(b, loc)
			b.StopTimer()
			ingestGenerated(b, s, "bench", n)
			b.StartTimer()
			for b.Loop() {
				res := query(b, loc, "bench")
				if len(res.Frontier) == 0 {
					b.Fatal("empty frontier")
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/query")
		})
	}
}

// frontierProblem is what `pareto front --store` asks: p99 TTFT against
// output throughput with an SLO, strict (noise is the frontier package's
// cost: see its benchmarks).
func frontierProblem() *frontier.Problem {
	return &frontier.Problem{
		Objectives: []frontier.Objective{{Name: "ttft.p99"}, {Name: trial.OutputTokenThroughput, Direction: frontier.Maximize}},
		SLOs:       []frontier.SLO{{Name: "ttft.p99", Op: frontier.LE, Bound: 1000}},
	}
}

// frontierQuery reads the objective and SLO columns with Columns, the
// selectors resolved to exact (metric, dims) pairs.
func frontierQuery(b *testing.B, loc, study string) frontier.Result {
	return frontierQueryWhere(b, loc, study, nil)
}

// frontierQueryWhere is frontierQuery over the trials that satisfy where.
func frontierQueryWhere(b *testing.B, loc, study string, where []store.Condition) frontier.Result {
	ctx := context.Background()
	s, err := store.Open(ctx, loc)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	specs := []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}, {Metric: trial.OutputTokenThroughput},
		{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}
	cols, err := s.Columns(ctx, study, specs, where)
	if err != nil {
		b.Fatal(err)
	}
	p := frontierProblem()
	p.Values = cols.Values[:2]
	p.SLOValues = cols.Values[2:]
	res, err := frontier.Analyze(p)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// frontierQueryTrials reads slim trials and resolves the selectors.
func frontierQueryTrials(b *testing.B, loc, study string) frontier.Result {
	ctx := context.Background()
	s, err := store.Open(ctx, loc)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ts, err := s.Trials(ctx, study, store.Query{Metrics: []string{trial.TTFT, trial.OutputTokenThroughput}, Slim: true})
	if err != nil {
		b.Fatal(err)
	}
	p := frontierProblem()
	for _, name := range []string{"ttft.p99", trial.OutputTokenThroughput, "ttft.p99"} {
		sel, err := trial.ParseSelector(name)
		if err != nil {
			b.Fatal(err)
		}
		col := make([]float64, len(ts))
		for i := range ts {
			m, err := sel.Resolve(&ts[i])
			col[i] = m.Value
			if err != nil {
				col[i] = frontier.Missing
			}
		}
		if len(p.Values) < 2 {
			p.Values = append(p.Values, col)
		} else {
			p.SLOValues = append(p.SLOValues, col)
		}
	}
	res, err := frontier.Analyze(p)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkIngestFiles reads 10,000 small vLLM result files with the
// ingest package and stores each in its own transaction.
func BenchmarkIngestFiles(b *testing.B) {
	const files = 10_000
	paths := writeResultFiles(b, files)
	for _, be := range benchBackends(b) {
		b.Run(fmt.Sprintf("store=%s/files=%d", be.name, files), func(b *testing.B) {
			s := openT(b, be.location(b))
			i := 0
			for b.Loop() {
				i++
				study := "files" + strconv.Itoa(i)
				for _, p := range paths {
					ts, err := ingest.ReadFile(p)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, err := s.Ingest(context.Background(), study, p, ts); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
}

// writeResultFiles writes n variants of a vLLM bench_serving result, its
// per-request arrays dropped, each with its own date.
func writeResultFiles(b *testing.B, n int) []string {
	raw, err := os.ReadFile(filepath.Join("..", "ingest", "testdata", "vllm", "surajssd_llama33-70b_tp8_qps_01.json"))
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	for k, v := range doc {
		if _, list := v.([]any); list {
			delete(doc, k)
		}
	}
	dir := b.TempDir()
	paths := make([]string, n)
	for i := range paths {
		doc["date"] = fmt.Sprintf("20250414-%06d", i)
		data, _ := json.Marshal(doc)
		paths[i] = filepath.Join(dir, fmt.Sprintf("run%05d.json", i))
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return paths
}

// BenchmarkSketches measures what a block's sketches cost: packing them
// at ingest (the repeat key of each trial, then the packing) and
// unpacking them in Columns, for one full block.
func BenchmarkSketches(b *testing.B) {
	ts := genTrials(0, columnar.BlockTrials)
	b.Run(fmt.Sprintf("op=pack/trials=%d", len(ts)), func(b *testing.B) {
		for b.Loop() {
			var sk columnar.Sketcher
			var names codec.WorkloadNames
			for i := range ts {
				sk.Add(&ts[i], names.Key(&ts[i]))
			}
		}
	})
	var sk columnar.Sketcher
	for i := range ts {
		sk.Add(&ts[i], codec.SketchKey(&ts[i]))
	}
	b.Run(fmt.Sprintf("op=unpack/trials=%d", len(ts)), func(b *testing.B) {
		out := make([]trial.Sketch, 0, len(ts))
		for b.Loop() {
			var err error
			if out, err = columnar.UnpackSketches(sk.Buf, len(ts), out[:0]); err != nil || len(out) != len(ts) {
				b.Fatal(len(out), err)
			}
		}
	})
}
