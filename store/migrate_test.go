package store

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/trial"
)

// upgradeTrial is the trial every testdata/upgrade fixture stores.
func upgradeTrial() trial.Trial {
	return trial.Trial{
		ID:        "0123456789abcdef",
		Source:    trial.Source{Path: "old/run.json", Format: "vllm"},
		Labels:    map[string]string{"engine": "vllm", "engine_version": "0.8.5"},
		Params:    map[string]string{"tensor_parallel_size": "2"},
		Workload:  trial.Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: 16, RequestRate: math.Inf(1), Requests: 500, MeanInputTokens: math.NaN(), MeanOutputTokens: math.NaN(), AchievedConcurrency: math.NaN(), Users: math.NaN()},
		Succeeded: 499, Failed: 1,
		Warnings: []string{"old warning"},
		Measurements: []trial.Measurement{
			{Metric: "output_token_throughput", Value: 1234.5, Unit: "tokens/s", Native: "output_throughput"},
			{Metric: "ttft", Dims: trial.StatDims("p99"), Value: 87.25, Unit: "ms", Native: "p99_ttft_ms", SourceUnit: "ms"},
		},
	}
}

// TestUpgrade creates a database at every earlier schema version, stores
// that version's fixture, and opens it with the newest schema.
func TestUpgrade(t *testing.T) {
	for _, b := range backends(t) {
		dialect := b.name
		latest := SchemaVersion(dialect)
		if latest < 2 {
			t.Fatalf("%s: %d migrations", dialect, latest)
		}
		for v := 1; v < latest; v++ {
			t.Run(fmt.Sprintf("%s/from=%d", dialect, v), func(t *testing.T) {
				fixture, err := os.ReadFile(filepath.Join("testdata", "upgrade", dialect, fmt.Sprintf("%04d.sql", v)))
				if err != nil {
					t.Fatalf("every earlier schema version needs a fixture: %v", err)
				}
				ctx := context.Background()
				loc := b.fresh(t)
				old, err := openAt(ctx, loc, v)
				if err != nil {
					t.Fatal(err)
				}
				if err := execRaw(ctx, old, string(fixture)); err != nil {
					t.Fatalf("fixture: %v", err)
				}
				old.Close()
				s := openT(t, loc)
				got, err := s.Trials(ctx, "upgrade", Query{})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]trial.Trial{upgradeTrial()}, got, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
					t.Errorf("after upgrade (-want +got):\n%s", diff)
				}
				if _, _, err := s.Ingest(ctx, "upgrade", "new", genTrials(0, 3)); err != nil {
					t.Errorf("ingest after upgrade: %v", err)
				}
				// Trials with every newer field (keys, deployments) go in and
				// come out.
				all := roundTripTrials()
				newer := all[len(all)-4:]
				newer[0].Source.Key = "k/run.json"
				newer[0].ID = trial.ComputeID(&newer[0])
				if _, _, err := s.Ingest(ctx, "upgrade", "newer", newer); err != nil {
					t.Fatalf("ingest after upgrade: %v", err)
				}
				if got, err = s.Trials(ctx, "upgrade", Query{}); err != nil || len(got) != 1+3+len(newer) {
					t.Fatalf("after ingest: %d trials, %v; want %d", len(got), err, 1+3+len(newer))
				}
				if diff := cmp.Diff(newer, got[4:], cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("newer fields after upgrade (-want +got):\n%s", diff)
				}
				// The study keeps its skips (schema 8).
				skips := studySkips()
				if added, _, err := s.RecordSkips(ctx, "upgrade", skips); err != nil || added != len(skips) {
					t.Fatalf("RecordSkips after upgrade = %d, %v; want %d", added, err, len(skips))
				}
				if v >= 8 { // the fixture's skip comes first
					skips = append([]trial.Skip{{Path: "old/bad.json", Code: trial.SkipError, Reason: "bad.json:1:1: unexpected EOF"}}, skips...)
				}
				if got, err := s.Skips(ctx, "upgrade", nil); err != nil || !cmp.Equal(got, skips) {
					t.Errorf("Skips after upgrade = %v, %v; want %v", got, err, skips)
				}
				// Every stored trial and block verifies (schema 9).
				cols, err := s.Columns(ctx, "upgrade", []ColumnSpec{{Metric: "ttft", Dims: trial.StatDims("p99")}}, nil)
				if err != nil {
					t.Fatalf("Columns after upgrade: %v", err)
				}
				// Every block has its sketches (schema 13), the upgraded
				// one's computed from its trial.
				if len(cols.Sketches) != len(cols.IDs) {
					t.Fatalf("after upgrade: %d sketches of %d trials", len(cols.Sketches), len(cols.IDs))
				}
				up := upgradeTrial()
				if want := trial.SketchOf(&up, sketchKey(&up)); !cmp.Equal(cols.Sketches[0], want) || want.Key == "" {
					t.Errorf("sketch of the upgraded trial = %+v; want %+v", cols.Sketches[0], want)
				}
			})
		}
	}
}

// execRaw runs SQL on the store's database.
func execRaw(ctx context.Context, s Store, sql string) error {
	switch s := s.(type) {
	case *sqliteStore:
		_, err := s.db.ExecContext(ctx, sql)
		return err
	case *pgStore:
		_, err := s.pool.Exec(ctx, sql)
		return err
	}
	return fmt.Errorf("unknown store %T", s)
}

func TestMigrationsAreConsecutive(t *testing.T) {
	for _, d := range []string{kindSQLite, kindPostgres} {
		if _, err := migrations(d); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	if SchemaVersion(kindSQLite) != SchemaVersion(kindPostgres) {
		t.Errorf("sqlite has %d migrations, postgres %d; keep them in step", SchemaVersion(kindSQLite), SchemaVersion(kindPostgres))
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	loc := sqliteLocation(t)
	s := openT(t, loc)
	if err := execRaw(context.Background(), s, `INSERT INTO schema_migrations VALUES (999, 'future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), loc); err == nil || !strings.Contains(err.Error(), "newer than this pareto supports") {
		t.Errorf("Open(newer schema) = %v; want a clear refusal", err)
	}
}
