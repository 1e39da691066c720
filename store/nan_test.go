package store

import (
	"context"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestPostgresTextNaN writes a workload NaN as text, as a restored
// pg_dump does (PostgreSQL's own NaN bits, not Go's): the trial still
// verifies when read.
func TestPostgresTextNaN(t *testing.T) {
	ctx := context.Background()
	s := openT(t, freshPostgres(t))
	if _, _, err := s.Ingest(ctx, "s", "src", []trial.Trial{upgradeTrial()}); err != nil {
		t.Fatal(err)
	}
	if err := execRaw(ctx, s, `UPDATE trials SET mean_input_tokens = 'NaN', achieved_concurrency = 'NaN'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trials(ctx, "s", Query{}); err != nil {
		t.Errorf("a NaN written as text: %v", err)
	}
}
