package benchstudy

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
)

// TestWrite writes the study to the store named by PARETO_BENCH_STORE
// (PARETO_BENCH_TRIALS trials, default 10⁶, 3 repeats), for the
// command-line measurements of docs/PERFORMANCE.md:
//
//	PARETO_BENCH_STORE=/tmp/scale.db go test ./internal/benchstudy -run TestWrite -timeout 30m
//
// Without it, it writes a small study and checks its shape.
func TestWrite(t *testing.T) {
	loc, n := os.Getenv("PARETO_BENCH_STORE"), 3_000
	if loc != "" {
		n = 1_000_000
		if v, err := strconv.Atoi(os.Getenv("PARETO_BENCH_TRIALS")); err == nil && v > 0 {
			n = v
		}
	} else {
		loc = filepath.Join(t.TempDir(), "pareto.db")
	}
	ctx := context.Background()
	s, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	added, err := Write(ctx, s, "scale", n, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: study scale: %d trials added", loc, added)
	if os.Getenv("PARETO_BENCH_STORE") != "" {
		return
	}
	ts, err := s.Trials(ctx, "scale", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != n {
		t.Fatalf("%d trials stored, want %d", len(ts), n)
	}
	keys := map[string]int{}
	for i := range ts {
		if !repeat.KnownConfig(&ts[i], nil) {
			t.Fatalf("trial %d does not record its configuration", i)
		}
		keys[repeat.Key(repeat.Config(&ts[i], nil), repeat.WorkloadOf(&ts[i]))]++
	}
	if len(keys) != Configs(n, 3) {
		t.Fatalf("%d repeat groups, want %d", len(keys), Configs(n, 3))
	}
	for k, c := range keys {
		if c != 3 {
			t.Fatalf("group %s has %d repeats, want 3", k, c)
		}
	}
}
