package store_test

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// TestParamRefs stores trials whose parameters are, or are nearly, the
// text of their measurements (a table's numeric cells: the store keeps
// those as references to the values, codec.ParamRefs) and reads back
// every parameter as given, in both backends, by a whole read, by ID and
// through a check; and the rows keep no text of a referenced parameter.
func TestParamRefs(t *testing.T) {
	m := func(metric, native string, v float64) trial.Measurement {
		return trial.Measurement{Metric: metric, Native: native, Value: v}
	}
	many := trial.Trial{Source: trial.Source{Path: "many.csv", Format: "table", FormatVersion: "csv"}, Params: map[string]string{}}
	for i := range 70 { // references stop at the 63rd measurement
		name := "m" + strings.Repeat("x", i)
		many.Measurements = append(many.Measurements, m(name, name, float64(i)+0.25))
		many.Params[name] = strconv.FormatFloat(float64(i)+0.25, 'g', -1, 64)
	}
	cases := map[string]trial.Trial{
		"shortest": {Params: map[string]string{"a": "0.6764556596678251", "b": "2", "note": "x"},
			Measurements: []trial.Measurement{m("a", "a", 0.6764556596678251), m("b", "b", 2)}},
		"not shortest": {Params: map[string]string{"a": "1e3", "b": "2.50", "c": "+3", "d": " 4"},
			Measurements: []trial.Measurement{m("a", "a", 1000), m("b", "b", 2.5), m("c", "c", 3), m("d", "d", 4)}},
		"metric name": {Params: map[string]string{"ttft": "12.5"},
			Measurements: []trial.Measurement{{Metric: "ttft", Value: 12.5, Unit: "ms"}}},
		"native differs": {Params: map[string]string{"ttft": "12.5", "p99_ttft_ms": "12.5"},
			Measurements: []trial.Measurement{{Metric: "ttft", Native: "p99_ttft_ms", Value: 12.5}}},
		"converted": {Params: map[string]string{"ttft_s": "0.5"},
			Measurements: []trial.Measurement{{Metric: "ttft", Native: "ttft_s", Value: 500, Unit: "ms", SourceUnit: "s"}}},
		"two of a name": {Params: map[string]string{"a": "2"},
			Measurements: []trial.Measurement{m("a", "a", 1), m("a", "a", 2)}},
		"non-finite": {Params: map[string]string{"a": "NaN", "b": "+Inf", "c": "-Inf", "z": "-0"},
			Measurements: []trial.Measurement{m("a", "a", math.NaN()), m("b", "b", math.Inf(1)), m("c", "c", math.Inf(-1)), m("z", "z", math.Copysign(0, -1))}},
		"invalid UTF-8": {Params: map[string]string{"a\xff": "1"},
			Measurements: []trial.Measurement{m("a", "a\xff", 1)}},
		"many": many,
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.location(t))
			study := studyName(t)
			var in []trial.Trial
			for name, c := range cases {
				c.Source.Path, c.Source.Format = name+".csv", "table"
				in = append(in, c)
			}
			if _, _, err := s.Ingest(ctx, study, "refs", in); err != nil {
				t.Fatal(err)
			}
			got, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(in) {
				t.Fatalf("read %d trials; want %d", len(got), len(in))
			}
			byPath := map[string]trial.Trial{}
			var ids []string
			for _, g := range got {
				byPath[g.Source.Path] = g
				ids = append(ids, g.ID)
			}
			for name, c := range cases {
				g := byPath[name+".csv"]
				want := c.Params
				if name == "invalid UTF-8" {
					want = map[string]string{"a\uFFFD": "1"}
				}
				if diff := cmp.Diff(want, g.Params, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: params (-want +got):\n%s", name, diff)
				}
			}
			byID, err := s.TrialsByID(ctx, study, ids)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, byID, cmpopts.EquateNaNs(), cmpopts.SortSlices(func(a, b trial.Trial) bool { return a.ID < b.ID })); diff != "" {
				t.Errorf("TrialsByID differs from Trials (-Trials +ByID):\n%s", diff)
			}
			checks, err := s.Check(ctx, study)
			if err != nil || len(checks) != 1 || len(checks[0].Damage) != 0 || checks[0].Trials != len(in) {
				t.Fatalf("Check = %+v, %v; want one sound study", checks, err)
			}
			kept, err := queryInt(ctx, s, `SELECT COUNT(*) FROM trials WHERE study_id = (SELECT id FROM studies WHERE name = '`+study+`')
				AND (CAST(params AS TEXT) LIKE '%0.6764556596678251%' OR CAST(params AS TEXT) LIKE '%12.5%')`)
			if err != nil || kept != 1 { // only "native differs" keeps ttft's text
				t.Errorf("rows keeping a referenced parameter's text: %d, %v; want 1 (the parameter no measurement names)", kept, err)
			}
		})
	}
}

// TestPreReleaseStore: a store of the schema version 1 of before the
// first release (no origins table) is refused by every opener, with what
// to do, and left as it is.
func TestPreReleaseStore(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			s, err := store.Open(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			// The old form kept the origin in each row: here it is the
			// table's absence that tells it.
			if err := execRaw(ctx, s, `ALTER TABLE trials DROP COLUMN origin_id; DROP TABLE origins`); err != nil {
				t.Fatal(err)
			}
			s.Close()
			for name, open := range map[string]func() error{
				"Open":         func() error { s, err := store.Open(ctx, loc); closeIf(s, err); return err },
				"OpenReadOnly": func() error { r, err := store.OpenReadOnly(ctx, loc); closeIf(r, err); return err },
				"Migrate":      func() error { _, _, err := store.Migrate(ctx, loc); return err },
			} {
				err := open()
				if !errors.Is(err, store.ErrOldSchema) || !strings.Contains(err.Error(), "pre-release") || !strings.Contains(err.Error(), "ingest its sources again") {
					t.Errorf("%s = %v; want ErrOldSchema saying to ingest again", name, err)
				}
			}
		})
	}
}

// closeIf closes what an opener returned without error.
func closeIf(c interface{ Close() error }, err error) {
	if err == nil {
		c.Close()
	}
}
