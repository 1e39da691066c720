package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/benchstudy"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// studyConfig is a plot of the generated study with an SLO, so that some
// points are infeasible.
const studyConfig = `[reports.pareto]
[[reports.pareto.plots]]
name = "study"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
slo = [{ metric = "tpot", match = { statistic = "p99" }, max = 500 }]
frontiers = [{ name = "All" }]

[[reports.pareto.plots]]
name = "p50"
x = { metric = "ttft", match = { statistic = "p50" } }
y = { metric = "request_throughput" }
`

// studyTrials returns n trials of the generated study (3 repeats per
// configuration) with trials that have a problem, lack an axis'
// measurement, measure one twice (ambiguous), measure NaN or +Inf, and
// one that violates the SLO.
func studyTrials(n int) []Trial {
	ts := make([]Trial, n)
	for i := range ts {
		ts[i] = benchstudy.Trial(i, benchstudy.Configs(n, 3))
	}
	ts[3].Problem = trial.ProblemNoSuccess
	ts[7].Measurements = slices.DeleteFunc(ts[7].Measurements, func(m trial.Measurement) bool { return m.Metric == trial.OutputTokenThroughput })
	ts[11].Measurements = append(ts[11].Measurements, ts[11].Measurements[1]) // two ttft p99
	for k := range ts[13].Measurements {
		if ts[13].Measurements[k].Metric == trial.OutputTokenThroughput {
			ts[13].Measurements[k].Value = math.NaN()
		}
		if ts[17].Measurements[k].Metric == trial.TTFT {
			ts[17].Measurements[k].Value = math.Inf(1)
		}
		if ts[19].Measurements[k].Metric == trial.TPOT {
			ts[19].Measurements[k].Value = 1e6
		}
	}
	return ts
}

// TestRecords decides pages from records (Records, Plan) and completes
// them with the trials the plan names alone, given in another order and
// among others: byte for byte the page Build draws from the trials, for
// the repository's fixtures and for a generated study with repeats,
// exclusions, problems, an SLO and dominated points beyond the density
// bound. Within the bound the plan names every trial; beyond it fewer.
func TestRecords(t *testing.T) {
	fix, fixExcl := fixture()
	rng := rand.New(rand.NewPCG(3, 4))
	study := studyTrials(3_000)
	syn, synCfg := syntheticTrials(5_000)
	for _, tc := range []struct {
		name   string
		config string
		cfg    *Config
		trials []Trial
		excl   []Exclusion
		opts   Options
		thin   bool // the plan names fewer trials than recorded
	}{
		{name: "fixture", config: fixtureConfig, trials: fix, excl: fixExcl},
		{name: "fixture/aggregate=none", config: fixtureConfig, trials: fix, excl: fixExcl, opts: Options{Aggregate: repeat.None}},
		{name: "repeats", config: repeatsConfig, trials: repeatsFixture()},
		{name: "repeats/config-key", config: repeatsConfig, trials: repeatsFixture(), opts: Options{ConfigKeys: []string{"tensor_parallel_size"}}},
		{name: "study", config: studyConfig, trials: study},
		{name: "study/aggregate=mean", config: studyConfig, trials: study, opts: Options{Aggregate: repeat.Mean, DensityBound: 100}, thin: true},
		{name: "study/aggregate=none/bound=200", config: studyConfig, trials: study, opts: Options{Aggregate: repeat.None, DensityBound: 200}, thin: true},
		{name: "study/bound=100", config: studyConfig, trials: study, excl: fixExcl, opts: Options{DensityBound: 100}, thin: true},
		{name: "synthetic/bound=500", cfg: synCfg, trials: syn, opts: Options{DensityBound: 500}, thin: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if cfg == nil {
				var err error
				if cfg, err = ParseConfig("pareto.toml", []byte(tc.config)); err != nil {
					t.Fatal(err)
				}
			}
			if !Recordable(cfg, tc.opts) {
				t.Fatal("the configuration is not Recordable")
			}
			full, err := Build(cfg, tc.trials, tc.excl, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			want, err := MarshalData(full, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, columns := range []bool{false, true} {
				t.Run(fmt.Sprintf("columns=%v", columns), func(t *testing.T) {
					testPlan(t, recordsOf(cfg, tc.trials, tc.opts, columns), tc.trials, tc.excl, tc.thin, want, rng)
				})
			}
		})
	}
}

// recordsOf records the trials, with columns as a columnar read gives
// them (AddSketch: the measurement with exactly the column's metric and
// dimensions) but those on which a column has none or several (Add).
func recordsOf(cfg *Config, ts []Trial, opts Options, columns bool) *Records {
	r := NewRecords(cfg, opts)
	var names repeat.WorkloadNames
	for i := range ts {
		t := &ts[i]
		if !columns {
			r.Add(t)
			continue
		}
		var values []float64
		exact := true
		for _, a := range r.Columns() {
			var vs []float64
			for _, m := range t.Measurements {
				if m.Metric == a.Metric && slices.Equal(m.Dims, a.Match) {
					vs = append(vs, m.Value)
				}
			}
			exact = exact && len(vs) == 1
			if len(vs) == 1 {
				values = append(values, vs[0])
			}
		}
		if exact || t.Problem != "" {
			sk := trial.SketchOf(t, repeatKey(t, opts.ConfigKeys, &names))
			r.AddSketch(t.ID, &sk, t.Problem, values)
		} else {
			r.Add(t)
		}
	}
	return r
}

// repeatKey is repeat.RepeatKey, "" for a trial that repeats no other.
func repeatKey(t *Trial, keys []string, names *repeat.WorkloadNames) string {
	k, _ := repeat.RepeatKey(t, keys, names.Render)
	return k
}

// testPlan plans the page of the records r of ts and completes it with
// the trials the plan names, and some other, in another order: want.
func testPlan(t *testing.T, r *Records, ts []Trial, excl []Exclusion, thin bool, want []byte, rng *rand.Rand) {
	t.Helper()
	p, err := r.Plan(excl)
	if err != nil {
		t.Fatal(err)
	}
	ids := p.IDs()
	if thinned := len(ids) < len(ts); thinned != thin || len(ids) == 0 {
		t.Errorf("the plan names %d of the %d trials; want fewer: %v", len(ids), len(ts), thin)
	}
	named := map[string]bool{}
	for _, id := range ids {
		named[id] = true
	}
	// The trials named, and one not named, in another order.
	var fetched []Trial
	extra := false
	for _, i := range rng.Perm(len(ts)) {
		if named[ts[i].ID] || !extra {
			extra = extra || !named[ts[i].ID]
			fetched = append(fetched, ts[i])
		}
	}
	pg, err := p.Page(fetched)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MarshalData(pg, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the page decided from records differs:\n%.1500s\nwant\n%.1500s", got, want)
	}
}

// TestRecordsMissingTrial completes a plan without one of the trials it
// names: an error naming it.
func TestRecordsMissingTrial(t *testing.T) {
	cfg, err := ParseConfig("pareto.toml", []byte(fixtureConfig))
	if err != nil {
		t.Fatal(err)
	}
	ts, excl := fixture()
	r := NewRecords(cfg, Options{})
	for i := range ts {
		r.Add(&ts[i])
	}
	p, err := r.Plan(excl)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Page(ts[1:])
	if want := "trial " + ts[0].ID + " is no longer in the study"; err == nil || err.Error() != want {
		t.Errorf("Page without %s: %v; want %s", ts[0].ID, err, want)
	}
}

// TestRecordable lists what Records cannot decide a page by, and the
// columns a columnar read cannot fill (Exact).
func TestRecordable(t *testing.T) {
	base := baselineSel(t, "role=baseline")
	for _, tc := range []struct {
		name, plot string
		opts       Options
		want       bool
		exact      bool // Records.Exact
	}{
		{"axes", ``, Options{}, true, true},
		{"cases", `frontiers = [{ name = "A", cases = ["a"] }]`, Options{Aggregate: repeat.None, ConfigKeys: []string{"k"}}, true, true},
		{"slo-phase", `slo = [{ metric = "tpot", match = { statistic = "p99", phase = "round_1" }, max = 50 }]`, Options{}, true, false},
		{"baseline", ``, Options{Baseline: base}, false, true},
		{"group_by", `group_by = "engine"`, Options{}, false, true},
		{"match", `frontiers = [{ name = "r1", match = { phase = "round_1" } }]`, Options{}, false, true},
		{"compare", `frontiers = [{ name = "A", cases = ["a"] }, { name = "B", cases = ["b"] }]
compare = ["A", "B"]`, Options{}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "p"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
`+tc.plot+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if got := Recordable(cfg, tc.opts); got != tc.want {
				t.Errorf("Recordable = %v; want %v", got, tc.want)
			}
			if got := NewRecords(cfg, tc.opts).Exact(); got != tc.exact {
				t.Errorf("Exact = %v; want %v", got, tc.exact)
			}
		})
	}
}

// BenchmarkRecords records a generated study with repeats, from its
// trials (Add) or from its columns and sketches (AddSketch), and plans its
// page (the density layer drawn), as pareto report --study does between
// its two reads.
func BenchmarkRecords(b *testing.B) {
	cfg, err := ParseConfig("pareto.toml", []byte(strings.SplitN(studyConfig, "\n[[reports.pareto.plots]]\nname = \"p50\"", 2)[0]))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100_000, 300_000} {
		ts := make([]Trial, n)
		for i := range ts {
			ts[i] = benchstudy.Trial(i, benchstudy.Configs(n, 3))
		}
		var names repeat.WorkloadNames
		sketches := make([]trial.Sketch, n)
		cols := NewRecords(cfg, Options{}).Columns()
		values := make([]float64, n*len(cols))
		for i := range ts {
			sketches[i] = trial.SketchOf(&ts[i], repeatKey(&ts[i], nil, &names))
			for c, a := range cols {
				m, err := resolve(a, &ts[i])
				if err != nil {
					b.Fatal(err)
				}
				values[i*len(cols)+c] = m.Value
			}
		}
		for _, fill := range []string{"trial", "sketch"} {
			b.Run(fmt.Sprintf("trials=%d/fill=%s/aggregate=median", n, fill), func(b *testing.B) {
				for b.Loop() {
					r := NewRecords(cfg, Options{})
					r.Grow(n)
					for i := range ts {
						if fill == "trial" {
							r.Add(&ts[i])
						} else {
							r.AddSketch(ts[i].ID, &sketches[i], "", values[i*len(cols):(i+1)*len(cols)])
						}
					}
					p, err := r.Plan(nil)
					if err != nil {
						b.Fatal(err)
					}
					if len(p.IDs()) >= n {
						b.Fatal("no density layer")
					}
				}
			})
		}
	}
}
