package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
)

// TestParetoJSONLRoundTrip exports a study as `pareto trials --format
// jsonl` does, reads the export back and ingests it into another study:
// nothing is lost, non-finite values included, and ingesting it into the
// original study adds nothing.
func TestParetoJSONLRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := store.Open(ctx, filepath.Join(dir, "pareto.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts, err := ingest.ReadFile(filepath.Join("testdata", "vllm", "surajssd_llama33-70b_tp8_qps_01.json"))
	if err != nil {
		t.Fatal(err)
	}
	edge := trial.Trial{
		Source:    trial.Source{Path: "edge/run.jsonl", Format: "sglang", FormatVersion: "1", Line: 7, Index: 3},
		Labels:    map[string]string{"engine": "sglang", "note": "quote \" and <tag> & \u2028"},
		Params:    map[string]string{"x.y": "1"},
		Workload:  trial.Workload{InputTokens: 100, RequestRate: math.Inf(1), Users: math.NaN(), Requests: 10},
		Succeeded: 0, Failed: -1,
		Problem:  trial.ProblemNoSuccess,
		Warnings: []string{"w1", "w2"},
		Measurements: []trial.Measurement{
			{Metric: "a", Value: math.NaN(), Unit: "ms"},
			{Metric: "b", Dims: trial.StatDims("p99").With(trial.DimPhase, "warmup"), Value: math.Inf(1)},
			{Metric: "c", Value: math.Inf(-1), Native: "c_native", SourceUnit: "s"},
			{Metric: "d", Value: 0.1},
		},
	}
	ts = append(ts, edge)
	if _, _, err := s.Ingest(ctx, "orig", "src", ts); err != nil {
		t.Fatal(err)
	}
	exported, err := s.Trials(ctx, "orig", store.Query{})
	if err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // as writeTrialsJSONL in internal/cli
	for i := range exported {
		if err := enc.Encode(&exported[i]); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "trials.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := ingest.Detect(buf.Bytes(), path); f != ingest.FormatParetoJSONL {
		t.Errorf("Detect(export) = %q; want %q", f, ingest.FormatParetoJSONL)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := ingest.ReadParetoJSONL(f, path)
	if err != nil {
		t.Fatal(err)
	}
	opts := cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(exported, back, opts); diff != "" {
		t.Errorf("read back (-exported +read):\n%s", diff)
	}

	if added, present, err := s.Ingest(ctx, "orig", path, back); err != nil || added != 0 || present != len(back) {
		t.Errorf("re-ingest into the same study: %d added, %d present, %v; want 0, %d", added, present, err, len(back))
	}
	if added, _, err := s.Ingest(ctx, "copy", path, back); err != nil || added != len(back) {
		t.Fatalf("ingest into a new study: %d added, %v; want %d", added, err, len(back))
	}
	copied, err := s.Trials(ctx, "copy", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(exported, copied, opts); diff != "" {
		t.Errorf("re-ingested study (-orig +copy):\n%s", diff)
	}
}

// TestParetoJSONLErrors reports a malformed line with its position.
func TestParetoJSONLErrors(t *testing.T) {
	in := `{"id":"a","source":{"path":"p","format":"vllm"},"workload":{},"succeeded":1,"failed":0,"measurements":[]}
{"id":"b","source":{"path":"p","format":"vllm"},"workload":{"request_rate":"fast"},"succeeded":1,"failed":0,"measurements":[]}
`
	ts, err := ingest.ReadParetoJSONL(bytes.NewReader([]byte(in)), "x.jsonl")
	if err == nil || len(ts) != 1 {
		t.Fatalf("got %d trials, %v; want 1 and an error", len(ts), err)
	}
	t.Log(err)
}
