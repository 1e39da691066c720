package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// damagedStudy is the study the bit-flip tests damage: 60 trials of one
// source (one block), a few relabelled (their content hash is then
// content_id), one with an ID set by the caller.
const damagedStudy = "flips"

func fillDamagedStudy(t *testing.T, loc string) []trial.Trial {
	t.Helper()
	ctx := context.Background()
	s := openT(t, loc)
	ts := genTrials(0, 60)
	ts[7].ID = "given-id-7"
	if _, _, err := s.Ingest(ctx, damagedStudy, "gen", ts); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLabels(ctx, damagedStudy, []string{ts[3].ID, ts[4].ID}, map[string]string{"gate": "admitted"}); err != nil {
		t.Fatal(err)
	}
	want, err := s.Trials(ctx, damagedStudy, store.Query{})
	if err != nil {
		t.Fatalf("Trials of the sound study: %v", err)
	}
	s.Close()
	return want
}

// blobs reads the packed measurements of every trial (by ID) and the
// values of every column of the study's block, from a sound copy.
func blobs(t *testing.T, path string) (packed map[string][]byte, values map[string][]byte) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	packed, values = map[string][]byte{}, map[string][]byte{}
	rows, err := db.Query(`SELECT hash, measurements FROM trials`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var b []byte
		rows.Scan(&id, &b)
		packed[id] = b
	}
	rows.Close()
	rows, err = db.Query(`SELECT metric || dims, vals FROM block_values`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		var b []byte
		rows.Scan(&k, &b)
		values[k] = b
	}
	rows.Close()
	return packed, values
}

// flipped writes a copy of the database file src with one bit of blob
// flipped, at every place the file holds it (a row SetLabels rewrote may
// have left a copy in free space), and returns its path.
func flipped(t *testing.T, src []byte, blob []byte, bit int) string {
	t.Helper()
	b := bytes.Clone(src)
	found := 0
	for at := 0; ; {
		i := bytes.Index(src[at:], blob)
		if i < 0 {
			break
		}
		b[at+i+bit/8] ^= 1 << (bit % 8)
		at += i + len(blob)
		found++
	}
	if found == 0 {
		t.Fatalf("the blob is not stored contiguously in the file")
	}
	path := filepath.Join(t.TempDir(), "flipped.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBitFlips flips bits of a real SQLite file, in the packed
// measurements of trials and in the value columns of the study's block:
// every read that reaches a flipped bit fails naming the trial or block
// and the study, reads that do not reach it return what was stored, and
// Check reports exactly the damage. Before checksums, one flipped bit made
// half the reads return changed values (0 read as 5.06e-321).
func TestBitFlips(t *testing.T) {
	ctx := context.Background()
	loc := sqliteLocation(t)
	want := fillDamagedStudy(t, loc)
	src, err := os.ReadFile(loc)
	if err != nil {
		t.Fatal(err)
	}
	packed, values := blobs(t, loc)
	specs := []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}, {Metric: trial.OutputTokenThroughput}}
	r := rand.New(rand.NewPCG(1, 2))

	t.Run("measurements", func(t *testing.T) {
		for _, i := range []int{0, 3, 7, 31, 59} { // plain, relabelled, given ID, any, last
			id := want[i].ID
			blob := packed[id]
			for _, bit := range []int{r.IntN(8 * len(blob)), 8*len(blob) - 1 - r.IntN(64)} { // anywhere; in the last value
				path := flipped(t, src, blob, bit)
				s, err := store.OpenReadOnly(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.Trials(ctx, damagedStudy, store.Query{})
				var ie *store.IntegrityError
				if !errors.As(err, &ie) || ie.Trial != id || ie.Study != damagedStudy || !errors.Is(err, store.ErrDamaged) {
					t.Errorf("trial %d, bit %d: Trials = %v; want an IntegrityError naming trial %s of %s", i, bit, err, id, damagedStudy)
				}
				// A slim read, verified by the checksum alone, fails too.
				if _, err := s.Trials(ctx, damagedStudy, store.Query{Slim: true, Metrics: []string{trial.TTFT}}); !errors.As(err, &ie) || ie.Trial != id {
					t.Errorf("trial %d, bit %d: slim Trials = %v; want an IntegrityError naming trial %s", i, bit, err, id)
				}
				// The block is intact: the columnar read is right.
				if _, err := s.Columns(ctx, damagedStudy, specs, nil); err != nil {
					t.Errorf("trial %d, bit %d: Columns = %v; the block is intact", i, bit, err)
				}
				checks, err := s.Check(ctx, "")
				if err != nil || len(checks) != 1 || len(checks[0].Damage) != 1 || checks[0].Damage[0].Trial != id {
					t.Errorf("trial %d, bit %d: Check = %+v, %v; want trial %s damaged", i, bit, checks, err, id)
				}
				s.Close()
			}
		}
	})

	t.Run("values", func(t *testing.T) {
		for key, blob := range values {
			bit := r.IntN(8 * len(blob))
			path := flipped(t, src, blob, bit)
			s, err := store.OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			// Every column of the block is read, the flipped one included.
			var all []store.ColumnSpec
			for k := range values {
				metric, dims, _ := strings.Cut(k, "{")
				spec := store.ColumnSpec{Metric: metric}
				if dims != "" {
					if err := spec.Dims.UnmarshalJSON([]byte("{" + dims)); err != nil {
						t.Fatal(err)
					}
				}
				all = append(all, spec)
			}
			_, err = s.Columns(ctx, damagedStudy, all, nil)
			var ie *store.IntegrityError
			if !errors.As(err, &ie) || ie.Block == 0 || ie.Study != damagedStudy {
				t.Errorf("%s, bit %d: Columns = %v; want an IntegrityError naming the block and %s", key, bit, err, damagedStudy)
			}
			got, err := s.Trials(ctx, damagedStudy, store.Query{})
			if err != nil {
				t.Errorf("%s, bit %d: Trials = %v; the trials are intact", key, bit, err)
			} else if diff := cmp.Diff(want, got, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s, bit %d: Trials changed (-want +got):\n%s", key, bit, diff)
			}
			checks, err := s.Check(ctx, damagedStudy)
			if err != nil || len(checks) != 1 || len(checks[0].Damage) != 1 || checks[0].Damage[0].Block == 0 {
				t.Errorf("%s, bit %d: Check = %+v, %v; want the block damaged", key, bit, checks, err)
			}
			s.Close()
		}
	})

	t.Run("sound", func(t *testing.T) {
		s, err := store.OpenReadOnly(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		checks, err := s.Check(ctx, "")
		if err != nil || len(checks) != 1 || len(checks[0].Damage) != 0 || checks[0].Trials != 60 || checks[0].Blocks != 1 {
			t.Errorf("Check of the sound store = %+v, %v; want 60 trials, 1 block, no damage", checks, err)
		}
		if _, err := s.Check(ctx, "nope"); !errors.Is(err, store.ErrNoStudy) {
			t.Errorf("Check(missing study) = %v; want ErrNoStudy", err)
		}
	})
}

// TestDamagedRows damages stored rows through SQL, as a disk or a hand
// edit could, on both backends: values of a trial's packed measurements,
// its labels, its native names, a block's IDs and a value column. Reads
// fail naming what is damaged; Check lists it.
func TestDamagedRows(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			want := fillDamagedStudy(t, loc)
			victim := want[11]
			for _, tt := range []struct {
				name, sqlite, postgres string
				trial                  bool // Trials fails on it (else Columns)
			}{
				{"value", `UPDATE trials SET measurements = CAST(substr(measurements, 1, length(measurements) - 1) || x'41' AS BLOB) WHERE hash = '%s'`,
					`UPDATE trials SET measurements = overlay(measurements placing '\x41'::bytea from length(measurements)) WHERE hash = '%s'`, true},
				{"native", `UPDATE trials SET measurements = replace(measurements, CAST('p99_ttft_ms' AS BLOB), CAST('p99_ttfx_ms' AS BLOB)) WHERE hash = '%s'`,
					`UPDATE trials SET measurements = replace(measurements::text, encode('p99_ttft_ms'::bytea, 'hex'), encode('p99_ttfx_ms'::bytea, 'hex'))::bytea WHERE hash = '%s'`, true},
				{"labels", `UPDATE trials SET labels = replace(labels, 'vllm', 'vlmm') WHERE hash = '%s'`,
					`UPDATE trials SET labels = replace(labels::text, 'vllm', 'vlmm')::jsonb WHERE hash = '%s'`, true},
				{"block-ids", `UPDATE blocks SET ids = CAST(substr(ids, 1, 5) || x'ff' || substr(ids, 7) AS BLOB)`,
					`UPDATE blocks SET ids = overlay(ids placing '\xff'::bytea from 6)`, false},
				{"block-values", `UPDATE block_values SET vals = CAST(substr(vals, 1, 9) || x'ff' || substr(vals, 11) AS BLOB)`,
					`UPDATE block_values SET vals = overlay(vals placing '\xff'::bytea from 10)`, false},
				{"block-sketches", `UPDATE blocks SET sketches = CAST(substr(sketches, 1, 3) || x'7a' || substr(sketches, 5) AS BLOB)`,
					`UPDATE blocks SET sketches = overlay(sketches placing '\x7a'::bytea from 4)`, false},
			} {
				t.Run(tt.name, func(t *testing.T) {
					s := openT(t, loc)
					q := tt.sqlite
					if b.name == "postgres" {
						q = tt.postgres
					}
					if strings.Contains(q, "%s") {
						q = fmt.Sprintf(q, victim.ID)
					}
					damage(t, s, q, func() {
						specs := []store.ColumnSpec{{Metric: trial.TTFT, Dims: trial.StatDims("p99")}}
						_, terr := s.Trials(ctx, damagedStudy, store.Query{})
						_, cerr := s.Columns(ctx, damagedStudy, specs, nil)
						err := cerr
						if tt.trial {
							err = terr
						}
						var ie *store.IntegrityError
						if !errors.As(err, &ie) || ie.Study != damagedStudy || tt.trial && ie.Trial != victim.ID {
							t.Errorf("read = %v; want an IntegrityError naming %s", err, map[bool]string{true: "trial " + victim.ID, false: "the block"}[tt.trial])
						}
						if tt.trial && cerr != nil {
							t.Errorf("Columns = %v; the block is intact", cerr)
						}
						if tt.trial { // so does a read by ID
							if _, err := s.TrialsByID(ctx, damagedStudy, []string{victim.ID}); !errors.As(err, &ie) || ie.Trial != victim.ID {
								t.Errorf("TrialsByID = %v; want an IntegrityError naming trial %s", err, victim.ID)
							}
						}
						if tt.trial { // a streamed read verifies as Trials does
							serr := s.Scan(ctx, damagedStudy, store.Query{}, func([]trial.Trial) error { return nil })
							if !errors.As(serr, &ie) || ie.Trial != victim.ID {
								t.Errorf("Scan = %v; want an IntegrityError naming trial %s", serr, victim.ID)
							}
						}
						checks, err := s.Check(ctx, "")
						if err != nil || len(checks) != 1 || len(checks[0].Damage) == 0 {
							t.Errorf("Check = %+v, %v; want damage reported", checks, err)
						}
					})
				})
			}
			// Relabelling a damaged trial fails: SetLabels never makes it
			// look sound.
			s := openT(t, loc)
			q := fmt.Sprintf(`UPDATE trials SET problem = 'x' WHERE hash = '%s'`, victim.ID)
			damage(t, s, q, func() {
				if _, err := s.SetLabels(ctx, damagedStudy, []string{victim.ID}, map[string]string{"k": "v"}); !errors.Is(err, store.ErrDamaged) {
					t.Errorf("SetLabels of a damaged trial = %v; want ErrDamaged", err)
				}
			})
			// And the study is sound again once every damage is undone.
			checks, err := s.Check(ctx, damagedStudy)
			if err != nil || len(checks[0].Damage) != 0 {
				t.Errorf("Check after undoing = %+v, %v", checks, err)
			}
		})
	}
}

// restoreRows undoes what TestDamagedRows damages, from the saved copies.
const restoreRows = `UPDATE trials AS t SET measurements = v.measurements, labels = v.labels, problem = v.problem
	FROM saved_trials AS v WHERE t.id = v.id;
UPDATE blocks AS b SET ids = v.ids, sketches = v.sketches FROM saved_blocks AS v WHERE b.id = v.id;
UPDATE block_values AS b SET vals = v.vals FROM saved_values AS v
	WHERE b.block_id = v.block_id AND b.metric = v.metric AND b.dims = v.dims;`

// damage saves the rows of the store's tables, runs q, calls fn, and
// restores the rows.
func damage(t *testing.T, s store.Store, q string, fn func()) {
	t.Helper()
	ctx := context.Background()
	var undo func()
	switch s := s.(type) {
	case sqliteDB:
		conn, err := s.DB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Save the rows, damage them, and restore them after fn.
		if _, err := conn.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS saved_trials AS SELECT * FROM trials WHERE 0;
			CREATE TEMP TABLE IF NOT EXISTS saved_blocks AS SELECT * FROM blocks WHERE 0;
			CREATE TEMP TABLE IF NOT EXISTS saved_values AS SELECT * FROM block_values WHERE 0;
			DELETE FROM saved_trials; DELETE FROM saved_blocks; DELETE FROM saved_values;
			INSERT INTO saved_trials SELECT * FROM trials; INSERT INTO saved_blocks SELECT * FROM blocks;
			INSERT INTO saved_values SELECT * FROM block_values;`); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		undo = func() {
			if _, err := conn.ExecContext(ctx, restoreRows); err != nil {
				t.Fatal(err)
			}
			conn.Close()
		}
	case pgPool:
		if _, err := s.Pool().Exec(ctx, `CREATE TABLE IF NOT EXISTS saved_trials AS SELECT * FROM trials WHERE false;
			CREATE TABLE IF NOT EXISTS saved_blocks AS SELECT * FROM blocks WHERE false;
			CREATE TABLE IF NOT EXISTS saved_values AS SELECT * FROM block_values WHERE false;
			TRUNCATE saved_trials, saved_blocks, saved_values;
			INSERT INTO saved_trials SELECT * FROM trials; INSERT INTO saved_blocks SELECT * FROM blocks;
			INSERT INTO saved_values SELECT * FROM block_values;`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Pool().Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		undo = func() {
			if _, err := s.Pool().Exec(ctx, restoreRows); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer undo()
	fn()
}

// TestVerifiedRoundTrip stores trials whose values the store cannot keep
// exactly as given (-0 and NaNs of other bits in the workload, invalid
// UTF-8 in labels) and trials with awkward fields: each reads back
// verified, and re-ingesting finds every one present.
func TestVerifiedRoundTrip(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			ts := roundTripTrials()
			odd := genTrial(1000)
			odd.Workload.MeanInputTokens = math.Copysign(0, -1)
			odd.Workload.Users = math.Float64frombits(0x7ff8000000000123) // a NaN of other bits
			odd.Measurements[0].Value = math.Float64frombits(0x7ff8000000000456)
			odd.Finalize()
			ts = append(ts, odd)
			if b.name == "sqlite" { // PostgreSQL refuses invalid UTF-8 in text
				bad := genTrial(1001)
				bad.SetLabel("note", "caf\xe9")
				bad.Finalize()
				ts = append(ts, bad)
			}
			if _, _, err := s.Ingest(ctx, study, "odd", ts); err != nil {
				t.Fatal(err)
			}
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatalf("Trials: %v", err)
			}
			if len(got) != len(ts) {
				t.Fatalf("%d trials; want %d", len(got), len(ts))
			}
			if added, present, err := s.Ingest(ctx, study, "odd", ts); err != nil || added != 0 || present != len(ts) {
				t.Errorf("re-ingest = %d added, %d present, %v; want 0, %d", added, present, err, len(ts))
			}
			if checks, err := s.Check(ctx, study); err != nil || len(checks[0].Damage) != 0 {
				t.Errorf("Check = %+v, %v; want sound", checks, err)
			}
		})
	}
}

// TestTrialsByID reads trials by ID: those of the study, verified, in
// ingest order, whatever the order and repetitions of the IDs asked, and
// none of another study or unknown.
func TestTrialsByID(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.fresh(t))
			all := genTrials(0, 1200)
			if _, _, err := s.Ingest(ctx, "a", "x", all[:1000]); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Ingest(ctx, "b", "y", all[1000:]); err != nil {
				t.Fatal(err)
			}
			stored, err := s.Trials(ctx, "a", store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			var want []trial.Trial
			for i := len(stored) - 1; i >= 0; i -= 3 { // backwards, past one batch
				ids = append(ids, stored[i].ID, stored[i].ID)
			}
			for i := range stored {
				if (len(stored)-1-i)%3 == 0 {
					want = append(want, stored[i])
				}
			}
			ids = append(ids, all[1100].ID, "0123456789abcdef", "")
			got, err := s.TrialsByID(ctx, "a", ids)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("TrialsByID (-want +got):\n%s", diff)
			}
			if _, err := s.TrialsByID(ctx, "nope", ids); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("TrialsByID of no study = %v; want ErrNoStudy", err)
			}
		})
	}
}
