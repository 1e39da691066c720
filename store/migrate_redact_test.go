package store

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// plantedSecrets are the secrets TestUpgradeRedacts stores the way a
// store written before redaction kept them.
var plantedSecrets = []string{
	"sk-PLANTED-param-0001", "PLANTED-url-pw-0002", "hf_PLANTEDlabel0003", "PLANTED-warning-0004",
	"PLANTEDbearer0005tok", "PLANTED-config-0006", "PLANTED-cmd-0007", "PLANTED-skip-0008",
	"sk-PLANTED-twin-0009", "sk-PLANTED-named-0010", "sk-PLANTED-damaged-0011",
}

// secretTrials returns the trials of TestUpgradeRedacts, unredacted, with
// IDs as the ingest of then computed them: a trial with secret parameters,
// a URL password, a secret label and a warning quoting a command; a failed
// trial whose problem quotes a header; a clean trial; the first trial
// with another key (it redacts to the same content: it keeps its ID); a
// trial with an ID set by its caller.
func secretTrials() []trial.Trial {
	a := genTrial(8100)
	a.Params = map[string]string{"api_key": plantedSecrets[0], "target": "http://bench:" + plantedSecrets[1] + "@gpu01:8000/v1",
		"model": "llama", "cli_command": "aiperf profile --api-key " + plantedSecrets[6] + " --url x"}
	a.Labels = map[string]string{"hf_token": plantedSecrets[2], "run": "r1", "engine": "vllm"}
	a.Warnings = []string{"ran with --token " + plantedSecrets[3]}
	a.ID = trial.ComputeID(&a)
	b := genTrial(8101)
	b.Measurements = nil
	b.Problem = "request failed: Authorization: Bearer " + plantedSecrets[4]
	b.ID = trial.ComputeID(&b)
	clean := genTrial(8102)
	clean.ID = trial.ComputeID(&clean)
	twin := a
	twin.Params = maps.Clone(a.Params)
	twin.Params["api_key"] = plantedSecrets[8]
	twin.ID = trial.ComputeID(&twin)
	named := genTrial(8103)
	named.Params = map[string]string{"openai_api_key": plantedSecrets[9]}
	named.ID = "caller-set-id"
	return []trial.Trial{a, b, clean, twin, named}
}

// TestUpgradeRedacts stores trials and a skip holding secrets as schema
// version 9 kept them (rows written with SQL at versions 4 and 8, content
// hashes and checksums computed by the upgrade to version 9), upgrades,
// and checks that no secret is left anywhere in the database, that pareto
// check finds the store sound, that the redacted trials read back with
// the IDs an ingest computes now (so that ingesting them again adds none)
// and that a read-only open of the old store refuses to migrate it.
func TestUpgradeRedacts(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			const study = "secrets"
			ts := secretTrials()
			old, err := openAt(ctx, loc, 4)
			if err != nil {
				t.Fatal(err)
			}
			for i := range ts {
				if err := insertV4(ctx, old, study, int64(i+1), &ts[i]); err != nil {
					t.Fatalf("trial %d: %v", i, err)
				}
			}
			// A trial damaged before the upgrade (its request count changed
			// after its content hash was taken) loses its secret and stays
			// damaged.
			damaged := genTrial(8104)
			damaged.Params = map[string]string{"api_key": plantedSecrets[10]}
			damaged.ID = trial.ComputeID(&damaged)
			if err := insertV4(ctx, old, "damaged", int64(len(ts)+1), &damaged); err != nil {
				t.Fatal(err)
			}
			old.Close()
			if old, err = openAt(ctx, loc, 8); err != nil {
				t.Fatal(err)
			}
			config := "[[Tests]]\nid = \"t1\"\n[Tests.extra_env_vars]\nHF_TOKEN = \"" + plantedSecrets[5] + "\"\n"
			if err := execArgs(ctx, old, `UPDATE trials SET config_path = ?, config = ? WHERE id = 1`, "run/test-run.toml", []byte(config)); err != nil {
				t.Fatal(err)
			}
			if err := execArgs(ctx, old, `INSERT INTO skips (study_id, file, run, path, case_id, iteration, step, phase, code, reason, recorded_at)
				VALUES ((SELECT id FROM studies WHERE name = ?), 'r2/stdout.txt', 'r2', 'r2', 'c', 0, 0, '', 'failed', ?, '2026-01-02T03:04:05Z')`,
				study, "srun vllm serve --api-key "+plantedSecrets[7]); err != nil {
				t.Fatal(err)
			}
			old.Close()
			if old, err = openAt(ctx, loc, 9); err != nil {
				t.Fatal(err)
			}
			if err := execArgs(ctx, old, `UPDATE trials SET requests = requests + 1 WHERE id = ?`, int64(len(ts)+1)); err != nil {
				t.Fatal(err)
			}
			if found := storedSecrets(t, old, loc); len(found) != len(plantedSecrets) {
				t.Fatalf("before the upgrade the store holds %d of the %d planted secrets (%v): the test plants nothing", len(found), len(plantedSecrets), found)
			}
			// (check reads the newest schema's columns, so the damaged
			// trial is checked after the upgrade only.)
			old.Close()

			if ro, err := OpenReadOnly(ctx, loc); err == nil {
				ro.Close()
				t.Fatal("OpenReadOnly opened a store of schema version 9")
			} else if !strings.Contains(err.Error(), "pareto migrate") {
				t.Errorf("OpenReadOnly of an old store: %v; want it to say to run pareto migrate", err)
			}

			s := openT(t, loc)
			checkSound(t, s, "after the upgrade", damaged.ID)
			got, err := s.Trials(ctx, study, Query{})
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(ts)
			for i := range want {
				want[i].Labels, want[i].Params = maps.Clone(want[i].Labels), maps.Clone(want[i].Params)
				want[i].Warnings = slices.Clone(want[i].Warnings)
				want[i].Redact()
			}
			ids := make([]string, len(got))
			for i := range got {
				ids[i] = got[i].ID
			}
			wantIDs := []string{trial.ComputeID(&want[0]), trial.ComputeID(&want[1]), ts[2].ID, ts[3].ID, ts[4].ID}
			if !slices.Equal(ids, wantIDs) {
				t.Errorf("IDs after the upgrade = %v\nwant %v (renewed content hashes; the clean trial's, the twin's and the caller's kept)", ids, wantIDs)
			}
			if got[0].Params["api_key"] != trial.Redacted || got[0].Labels["hf_token"] != trial.Redacted ||
				got[0].Deployment == nil || !strings.Contains(got[0].Deployment.Config, "HF_TOKEN = \""+trial.Redacted+"\"") {
				t.Errorf("first trial after the upgrade: params %v, labels %v, deployment %+v", got[0].Params, got[0].Labels, got[0].Deployment)
			}
			fresh := slices.Clone(want[:2])
			for i := range fresh {
				fresh[i].ID = ""
			}
			if added, _, err := s.Ingest(ctx, study, "read again", fresh); err != nil || added != 0 {
				t.Errorf("ingest of the redacted trials read again = %d added, %v; want 0", added, err)
			}
			if found := storedSecrets(t, s, loc); len(found) > 0 {
				t.Errorf("after the upgrade the store still holds %v", found)
			}
		})
	}
}

// checkSound runs Check on s and fails on any damage but that of the
// trial damaged (which it must find).
func checkSound(t *testing.T, s Store, when, damaged string) {
	t.Helper()
	checks, err := s.Check(context.Background(), "")
	if err != nil {
		t.Fatalf("check %s: %v", when, err)
	}
	found := false
	for _, c := range checks {
		for _, d := range c.Damage {
			if d.Trial == damaged && c.Study == "damaged" {
				found = true
				continue
			}
			t.Errorf("check %s: %v", when, d)
		}
	}
	if !found {
		t.Errorf("check %s does not find trial %s damaged", when, damaged)
	}
}

// storedSecrets returns the planted secrets found in the store's database:
// in SQLite, in the raw bytes of the file after a checkpoint and VACUUM
// (which drop freed pages and the WAL); in PostgreSQL, in every column of
// every table, read whole.
func storedSecrets(t *testing.T, s Store, loc string) []string {
	t.Helper()
	ctx := context.Background()
	var data []byte
	switch s := s.(type) {
	case *sqliteStore:
		for _, q := range []string{`PRAGMA wal_checkpoint(TRUNCATE)`, `VACUUM`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
			if _, err := s.db.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		for _, suffix := range []string{"", "-wal", "-journal"} {
			b, err := os.ReadFile(filepath.Clean(loc) + suffix)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			data = append(data, b...)
		}
	case *pgStore:
		rows, err := s.pool.Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
			WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)
		if err != nil {
			t.Fatal(err)
		}
		type column struct{ table, name string }
		var cols []column
		for rows.Next() {
			var c column
			if err := rows.Scan(&c.table, &c.name); err != nil {
				t.Fatal(err)
			}
			cols = append(cols, c)
		}
		rows.Close()
		if len(cols) == 0 {
			t.Fatal("no columns in the PostgreSQL store")
		}
		for _, c := range cols {
			rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT %q FROM %q`, c.name, c.table))
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var v any
				if err := rows.Scan(&v); err != nil {
					t.Fatalf("%s.%s: %v", c.table, c.name, err)
				}
				if b, ok := v.([]byte); ok {
					data = append(data, b...)
				} else {
					data = fmt.Appendf(data, "%v\n", v)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
		}
	default:
		t.Fatalf("unknown store %T", s)
	}
	var found []string
	for _, secret := range plantedSecrets {
		if bytes.Contains(data, []byte(secret)) {
			found = append(found, secret)
		}
	}
	return found
}
