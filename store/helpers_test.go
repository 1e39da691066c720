package store_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // both backends
	"github.com/pareto-llm/pareto/trial"
)

// backend is one Store implementation under test.
type backend struct {
	name string
	// location returns a store location for a test: a fresh SQLite file,
	// or the shared PostgreSQL database (studies keep tests apart).
	location func(t testing.TB) string
	// fresh returns a location of an empty database.
	fresh func(t testing.TB) string
}

// backends lists SQLite and PostgreSQL. The PostgreSQL subtests need
// PARETO_TEST_POSTGRES_URL: without it they skip with the reason, or fail
// under CI (testenv.PostgresURL).
func backends(testing.TB) []backend {
	return []backend{
		{name: "sqlite", location: sqliteLocation, fresh: sqliteLocation},
		{name: "postgres", location: testenv.PostgresURL, fresh: freshPostgres},
	}
}

func sqliteLocation(t testing.TB) string { return filepath.Join(t.TempDir(), "pareto.db") }

// freshPostgres creates an empty database for the test and drops it after.
func freshPostgres(t testing.TB) string { return testenv.PostgresDatabase(t) }

// studyName returns a study name unique to the test.
func studyName(t testing.TB) string {
	return fmt.Sprintf("%s-%d-%d", t.Name(), os.Getpid(), time.Now().UnixNano())
}

func openT(t testing.TB, loc string) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), loc)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// genTrial returns a deterministic generic trial: a vLLM-like result at
// one load point with latency percentiles and throughputs.
func genTrial(i int) trial.Trial {
	conc := float64(int(1) << (i % 9))
	tp := 1 << (i % 4)
	t := trial.Trial{
		Source:    trial.Source{Path: "gen/" + strconv.Itoa(i/100) + ".json", Format: "vllm", Index: i % 100},
		Succeeded: int64(100 + i%50), Failed: int64(i % 3),
		Workload: trial.Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: conc, Requests: 500,
			RequestRate: math.Inf(1)},
	}
	t.SetLabel(trial.LabelTool, "vllm")
	t.SetLabel(trial.LabelEngine, []string{"vllm", "sglang"}[i%2])
	t.SetLabel(trial.LabelEngineVersion, []string{"0.8.5", "0.9.0", "0.4.6"}[i%3])
	t.SetLabel(trial.LabelModel, "meta-llama/Llama-3.1-8B-Instruct")
	t.SetLabel(trial.LabelHardware, "H100")
	t.SetParam("tensor_parallel_size", strconv.Itoa(tp))
	t.SetParam("max_num_seqs", strconv.Itoa(64+i%7*32))
	t.SetParam("seed", strconv.Itoa(i))
	x := float64(i%1000) / 1000
	add := func(metric, stat string, v float64, unit string) {
		t.Measurements = append(t.Measurements, trial.Measurement{Metric: metric, Dims: trial.StatDims(stat),
			Value: v, Unit: unit, Native: stat + "_" + metric + "_ms"})
	}
	add(trial.TTFT, "p50", 20+conc*3*(1+x), trial.UnitMs)
	add(trial.TTFT, "p99", 40+conc*5*(1+x), trial.UnitMs)
	add(trial.TPOT, "p50", 5+conc/float64(tp)*(1+x), trial.UnitMs)
	add(trial.TPOT, "p99", 8+conc/float64(tp)*(1.5+x), trial.UnitMs)
	t.Measurements = append(t.Measurements,
		trial.Measurement{Metric: trial.OutputTokenThroughput, Value: conc * 100 * float64(tp) * (1 + x/3), Unit: trial.UnitTokensPerS},
		trial.Measurement{Metric: trial.RequestThroughput, Value: conc * (1 + x), Unit: trial.UnitReqPerS})
	t.Finalize()
	return t
}

// genTrials returns trials [from, from+n).
func genTrials(from, n int) []trial.Trial {
	out := make([]trial.Trial, n)
	for i := range out {
		out[i] = genTrial(from + i)
	}
	return out
}
