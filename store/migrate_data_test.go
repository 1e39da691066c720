package store

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/trial"
)

// TestUpgradePacked stores trials the way schema version 4 did (one row
// per measurement), in two studies whose row ids interleave, upgrades to
// packed measurements, and checks that every trial reads back
// identically, that Columns agrees with Trials, that re-ingesting the
// same trials adds none, and that SetLabels and new ingests work.
func TestUpgradePacked(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			old, err := openAt(ctx, loc, 4)
			if err != nil {
				t.Fatal(err)
			}
			study, other := "packed", "other"
			want := upgradeData()
			for i := range want {
				name := study
				if i%7 == 3 {
					name = other
				}
				if err := insertV4(ctx, old, name, int64(i+1), &want[i]); err != nil {
					t.Fatalf("trial %d: %v", i, err)
				}
			}
			if _, ok := old.(*pgStore); ok { // explicit ids do not advance the identity
				if err := execRaw(ctx, old, `SELECT setval(pg_get_serial_sequence('trials', 'id'), max(id)) FROM trials`); err != nil {
					t.Fatal(err)
				}
			}
			old.Close()
			s := openT(t, loc)
			want = currentWant(want, func(i int) string {
				if i%7 == 3 {
					return other
				}
				return study
			})
			if n := len(want); want[n-1].ID == trial.ComputeID(&want[n-1]) || want[n-2].ID != trial.ComputeID(&want[n-2]) {
				t.Fatal("the test data lost its legacy trials")
			}
			checkUpgraded(t, s, study, pick(want, func(i int) bool { return i%7 != 3 }))
			checkUpgraded(t, s, other, pick(want, func(i int) bool { return i%7 == 3 }))
			checkAfterUpgrade(t, s, study, pick(want, func(i int) bool { return i%7 != 3 }))
		})
	}
}

// upgradeData returns the trials of TestUpgradePacked: the Columns edge
// cases, a trial whose ID is not a hex hash, a trial with non-finite
// values and one without measurements.
func upgradeData() []trial.Trial {
	ts := columnsTrials()[290:]
	ts = append(ts, upgradeTrial())
	odd := genTrial(7000)
	odd.Measurements[0].Value = math.Inf(-1)
	odd.Measurements[1].Value = math.NaN()
	odd.Workload.Users = math.NaN()
	bare := genTrial(7001)
	bare.Measurements = nil
	ts = append(ts, odd, bare)
	for i := range ts {
		if ts[i].ID == "" {
			ts[i].ID = trial.ComputeID(&ts[i])
		}
	}
	// Trials stored by earlier versions, whose IDs are the content hashes
	// of then (legacyID): the upgrade gives them the current ones, unless
	// a trial of the study has it already (the last one: the same content
	// as the first trial, stored under the legacy ID too).
	for k, i := range []int{0, len(ts) - 1, len(ts) - 2, 0} {
		old := ts[i]
		if k < 3 {
			old.Labels = maps.Clone(old.Labels)
			old.Labels["stored_by"] = "v1"
		}
		old.ID = legacyID(&old)
		ts = append(ts, old)
	}
	return ts
}

// currentWant is what Trials returns after the upgrade for trials stored
// by insertV4 in the studies study(i): the legacy content hashes replaced
// by the v2 ones (schema version 5), then the v2 ones by the current IDs
// (schema version 6), each where no other trial of the study has the new
// ID. All the trials fit in one chunk of the conversions, so "has" is
// before each conversion.
func currentWant(ts []trial.Trial, study func(int) string) []trial.Trial {
	out := slices.Clone(ts)
	convert := func(from, to func(*trial.Trial) string) {
		before := make([]string, len(out))
		for i := range out {
			before[i] = out[i].ID
		}
		for i := range out {
			if out[i].ID != from(&out[i]) {
				continue
			}
			id, taken := to(&out[i]), false
			for j := range out {
				taken = taken || j != i && study(j) == study(i) && before[j] == id
			}
			if !taken {
				out[i].ID = id
			}
		}
	}
	convert(legacyID, contentID)
	convert(contentID, trial.ComputeID)
	return out
}

func pick(ts []trial.Trial, keep func(int) bool) []trial.Trial {
	var out []trial.Trial
	for i := range ts {
		if keep(i) {
			out = append(out, ts[i])
		}
	}
	return out
}

func checkUpgraded(t *testing.T, s Store, study string, want []trial.Trial) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Trials(ctx, study, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("%s after upgrade (-want +got):\n%s", study, diff)
	}
	selectors := []string{"ttft.p99", trial.OutputTokenThroughput, "tpot.p50"}
	specs := []ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}, {Metric: trial.OutputTokenThroughput},
		{Metric: trial.TPOT, Dims: trial.StatDims("p50")}}
	cols, err := s.Columns(ctx, study, specs, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkColumns(t, nil, selectors, got, cols)
}

// checkAfterUpgrade re-ingests the study's trials, labels them and adds
// new ones.
func checkAfterUpgrade(t *testing.T, s Store, study string, ts []trial.Trial) {
	t.Helper()
	ctx := context.Background()
	added, present, err := s.Ingest(ctx, study, "again", ts)
	if err != nil || added != 0 || present != len(ts) {
		t.Errorf("re-ingest after upgrade = %d added, %d present, %v; want 0, %d", added, present, err, len(ts))
	}
	// The same results read again (IDs computed anew) are present too,
	// whatever version stored them.
	fresh := slices.Clone(ts)
	for i := range fresh {
		fresh[i].ID = ""
	}
	if added, _, err := s.Ingest(ctx, study, "read again", fresh[len(fresh)-3:]); err != nil || added != 0 {
		t.Errorf("ingest of the last trials read again = %d added, %v; want 0", added, err)
	}
	ids := []string{ts[0].ID, ts[len(ts)-1].ID}
	if n, err := s.SetLabels(ctx, study, ids, map[string]string{"gate": "admitted"}); err != nil || n != 2 {
		t.Errorf("SetLabels after upgrade = %d, %v; want 2", n, err)
	}
	if added, _, err := s.Ingest(ctx, study, "new", genTrials(9000, 5)); err != nil || added != 5 {
		t.Errorf("ingest after upgrade = %d added, %v; want 5", added, err)
	}
	got, err := s.Trials(ctx, study, Query{})
	if err != nil || len(got) != len(ts)+5 {
		t.Errorf("after new ingest: %d trials, %v; want %d", len(got), err, len(ts)+5)
	}
}

// insertV4 writes t as schema version 4 stores it, under row id.
func insertV4(ctx context.Context, s Store, study string, row int64, t *trial.Trial) error {
	pg := false
	if _, ok := s.(*pgStore); ok {
		pg = true
	}
	if err := execArgs(ctx, s, `INSERT INTO studies (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
		study, "2026-01-02T03:04:05Z"); err != nil {
		return err
	}
	var enc jsonEncoder
	labels := enc.mapString(t.Labels)
	params := (&jsonEncoder{}).mapString(t.Params)
	w := &t.Workload
	e := env(t)
	jsonb, ts, overriding := "", "'2026-01-02T03:04:06Z'", ""
	if pg {
		jsonb, ts, overriding = "::jsonb", "now()", "OVERRIDING SYSTEM VALUE"
	}
	q := fmt.Sprintf(`INSERT INTO trials (id, study_id, hash, source_path, source_format, source_format_version, source_line,
		source_index, labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens, concurrency,
		achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
		engine, engine_version, cuda, driver, gpu, host, ingested_at) %s
		VALUES (?, (SELECT id FROM studies WHERE name = ?), ?, ?, ?, ?, ?, ?, ?%s, ?%s, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?%s,
		?, ?, ?, ?, ?, ?, %s)`, overriding, jsonb, jsonb, jsonb, ts)
	err := execArgs(ctx, s, q, row, study, t.ID, t.Source.Path, t.Source.Format, t.Source.FormatVersion,
		int64(t.Source.Line), int64(t.Source.Index), labels, params, nullable(w.InputTokens), nullable(w.OutputTokens),
		nullable(w.MeanInputTokens), nullable(w.MeanOutputTokens), nullable(w.Concurrency),
		nullable(w.AchievedConcurrency), nullable(w.RequestRate), nullable(w.Users), w.Requests, t.Succeeded, t.Failed,
		t.Problem, encodeList(t.Warnings), e[0], e[1], e[2], e[3], e[4], e[5])
	if err != nil {
		return err
	}
	for j, m := range t.Measurements {
		err := execArgs(ctx, s, `INSERT INTO measurements (trial_id, seq, metric, dims, value, unit, native, source_unit)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, row, int64(j), m.Metric, encodeDims(m.Dims), nullable(m.Value),
			m.Unit, m.Native, m.SourceUnit)
		if err != nil {
			return err
		}
	}
	return nil
}

// execArgs runs a statement with '?' placeholders on the store's database.
func execArgs(ctx context.Context, s Store, query string, args ...any) error {
	switch s := s.(type) {
	case *sqliteStore:
		_, err := s.db.ExecContext(ctx, query, args...)
		return err
	case *pgStore:
		_, err := s.pool.Exec(ctx, numberPlaceholders(query), args...)
		return err
	}
	return fmt.Errorf("unknown store %T", s)
}
