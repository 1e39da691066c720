package report

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/pareto-llm/pareto/internal/benchstudy"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
	"github.com/pareto-llm/pareto/trial"
)

// TestSlimmer builds the page of a study with repeats from its trials and
// from the slim trials pareto report --study keeps: byte for byte the
// same, repeats aggregated or not, grouped by a parameter, with a trial
// on which an axis does not resolve, and within the density bound or not.
func TestSlimmer(t *testing.T) {
	const n = 3_000
	ts := make([]trial.Trial, n)
	for i := range ts {
		ts[i] = benchstudy.Trial(i, benchstudy.Configs(n, 3))
	}
	ts[7].Measurements = ts[7].Measurements[1:] // no ttft.p50: listed with every candidate
	for _, tc := range []struct {
		name, groupBy string
		opts          Options
	}{
		{"median", "", Options{}},
		{"none", "", Options{Aggregate: repeat.None}},
		{"grouped-thinned", `group_by = "tensor_parallel_size"`, Options{DensityBound: 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "study"
x = { metric = "ttft", match = { statistic = "p50" } }
y = { metric = "output_token_throughput" }
`+tc.groupBy+`
frontiers = [{ name = "All" }]
`))
			if err != nil {
				t.Fatal(err)
			}
			want := page(t, cfg, ts, tc.opts)
			s := NewSlimmer(cfg, tc.opts)
			slim := make([]trial.Trial, len(ts))
			for i := range ts {
				slim[i] = s.Slim(&ts[i])
			}
			if got := page(t, cfg, slim, tc.opts); !bytes.Equal(got, want) {
				t.Errorf("the page of the slim trials differs:\n%.1500s\nwant\n%.1500s", got, want)
			}
			if m := s.Metrics(); len(m) != 4 {
				t.Errorf("Metrics() = %q; want the 4 metrics of the trials", m)
			}
		})
	}
}

// TestSlimmerScan builds the page as pareto report --study does, from the
// slim trials of a store's Scan (whose trials share their label maps),
// from the records of a Scan completed with the trials its plan names,
// and from the trials Trials returns: byte for byte the same.
func TestSlimmerScan(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := benchstudy.Write(ctx, s, "scale", 3_000, 3); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "study"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "All" }]
`))
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Trials(ctx, "scale", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{}, {DensityBound: 100}} {
		sl := NewSlimmer(cfg, opts)
		var slim []trial.Trial
		if err := s.Scan(ctx, "scale", store.Query{}, func(ts []trial.Trial) error {
			for i := range ts {
				slim = append(slim, sl.Slim(&ts[i]))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		want := page(t, cfg, all, opts)
		if got := page(t, cfg, slim, opts); len(slim) != 3_000 || !bytes.Equal(got, want) {
			t.Errorf("%+v: the page of %d scanned slim trials differs from that of the %d trials:\n%.1500s\nwant\n%.1500s",
				opts, len(slim), len(all), got, want)
		}
		recs := NewRecords(cfg, opts)
		if err := s.Scan(ctx, "scale", store.Query{}, func(ts []trial.Trial) error {
			for i := range ts {
				recs.Add(&ts[i])
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		p, err := recs.Plan(nil)
		if err != nil {
			t.Fatal(err)
		}
		pg, err := p.Page(all)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalData(pg, false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: the page decided from the records of %d scanned trials differs from that of the %d trials:\n%.1500s\nwant\n%.1500s",
				opts, recs.Len(), len(all), got, want)
		}
	}
}

func page(t *testing.T, cfg *Config, ts []trial.Trial, opts Options) []byte {
	t.Helper()
	p, err := Build(cfg, ts, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MarshalData(p, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
