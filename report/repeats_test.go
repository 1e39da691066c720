package report

import (
	"math"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// repeatTrial builds run iter of the configuration of caseID: every run of a
// case has the same parameters, so runs of one case are repeats.
func repeatTrial(caseID, iter string, ttft, tput float64) Trial {
	t := point(caseID, iter, ttft, tput)
	t.SetParam("max_num_seqs", "64")
	t.SetLabel(trial.LabelEngineVersion, "0.9")
	return t
}

// repeatsFixture has a baseline configuration (tp8, three runs), a faster
// one (tp4, three runs plus one without TTFT p99) and a single run
// (tp2). tp4 also reports request throughput, which the baseline lacks.
func repeatsFixture() []Trial {
	ts := []Trial{
		repeatTrial("vllm.tp8", "0", 100, 1000), repeatTrial("vllm.tp8", "1", 110, 1100), repeatTrial("vllm.tp8", "2", 150, 900),
		repeatTrial("vllm.tp4", "0", 80, 1200), repeatTrial("vllm.tp4", "1", 90, 1300), repeatTrial("vllm.tp4", "2", 85, 1250),
		repeatTrial("vllm.tp4", "3", 70, 0),
		repeatTrial("vllm.tp2", "0", 200, 700),
	}
	for i := range 3 {
		ts[i].SetLabel("role", "baseline")
	}
	ts[6].Measurements = ts[6].Measurements[:3] // no ttft.p99: excluded on its own
	for i := 3; i < 6; i++ {
		ts[i].Measurements = append(ts[i].Measurements, trial.Measurement{Metric: trial.RequestThroughput, Value: float64(i)})
	}
	return ts
}

const repeatsConfig = `[reports.pareto]
[[reports.pareto.plots]]
name = "TTFT vs throughput"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "All" }, { name = "TP2", cases = ["vllm.tp2"] }]

[[reports.pareto.plots]]
name = "TTFT vs requests"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "request_throughput" }
`

func buildRepeats(t testing.TB, ts []Trial, opts Options) (*Page, error) {
	t.Helper()
	cfg, err := ParseConfig("pareto.toml", []byte(repeatsConfig))
	if err != nil {
		t.Fatal(err)
	}
	return Build(cfg, ts, nil, opts)
}

func baselineSel(t testing.TB, s string) *repeat.Selection {
	sel, err := repeat.ParseSelection(s)
	if err != nil {
		t.Fatal(err)
	}
	return &sel
}

func repeatsPage(t testing.TB) *Page {
	page, err := buildRepeats(t, repeatsFixture(), Options{Baseline: baselineSel(t, "role=baseline")})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

func TestRepeatsGolden(t *testing.T) {
	data, err := MarshalData(repeatsPage(t), true)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "build_repeats.json", append(data, '\n'))
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRepeatsMedian(t *testing.T) {
	page := repeatsPage(t)
	all := page.Plots[0].Series[0]
	if len(all.X) != 3 {
		t.Fatalf("All has %d points; want 3 configurations", len(all.X))
	}
	// tp8: median of 100, 110, 150 and of 1000, 1100, 900.
	r := all.R[0]
	if all.X[0] != 110 || all.Y[0] != 1000 || len(r.M) != 3 || r.X != (Spread{Min: 100, Q1: 105, Q3: 130, Max: 150}) {
		t.Errorf("tp8 point = (%v, %v) repeats %+v", all.X[0], all.Y[0], r)
	}
	// tp4: the run without ttft.p99 is excluded on its own; n=3.
	if len(all.R[1].M) != 3 || all.X[1] != 85 || all.Y[1] != 1250 {
		t.Errorf("tp4 point = (%v, %v) repeats %+v", all.X[1], all.Y[1], all.R[1])
	}
	if _, ok := all.R[2]; ok {
		t.Errorf("tp2 is a single run; has repeats %+v", all.R[2])
	}
	missing := 0
	for _, e := range page.Exclusions {
		if e.Code == ExcludeMissing && e.Iteration == "3" && e.Plot == page.Plots[0].Name {
			missing++
		}
	}
	if missing != 1 {
		t.Errorf("%d exclusions of tp4 iteration 3 in plot 1; want 1", missing)
	}
	b := all.Base
	if b == nil || len(b.Bases) != 1 || b.Bases[0].Row != 0 || b.B[1] != 0 {
		t.Fatalf("baseline = %+v", b)
	}
	if !near(*b.DX[1], (85.0-110)/110) || !near(*b.DY[1], 0.25) || *b.DX[0] != 0 {
		t.Errorf("tp4 deltas = %v, %v; want -22.7%% and +25%%", *b.DX[1], *b.DY[1])
	}
	if tp2 := page.Plots[0].Series[1].Base; tp2.Note == "" || tp2.B[0] != -1 {
		t.Errorf("TP2 frontier has no baseline; got %+v", tp2)
	}
	// The baseline reports no request throughput: no Y delta, and why.
	req := page.Plots[1].Series[0].Base
	if req.Bases[0].Y != nil || !strings.Contains(req.Bases[0].NoteY, "no request_throughput value") || req.DY[0] != nil || req.DX[0] == nil || req.Bases[0].Row != -1 {
		t.Errorf("request plot baseline = %+v", req.Bases[0])
	}
}

func TestRepeatsMeanAndNone(t *testing.T) {
	page, err := buildRepeats(t, repeatsFixture(), Options{Aggregate: repeat.Mean})
	if err != nil {
		t.Fatal(err)
	}
	if s := page.Plots[0].Series[0]; s.X[0] != 120 || page.Aggregate != "mean" || s.Base != nil {
		t.Errorf("mean: tp8 x = %v (want 120), aggregate %q, base %v", s.X[0], page.Aggregate, s.Base)
	}
	page, err = buildRepeats(t, repeatsFixture(), Options{Aggregate: repeat.None, Baseline: baselineSel(t, "role=baseline")})
	if err != nil {
		t.Fatal(err)
	}
	s := page.Plots[0].Series[0]
	if len(s.X) != 7 || len(s.R) != 0 {
		t.Errorf("none: %d points, %d aggregated; want 7 single runs", len(s.X), len(s.R))
	}
	// With none the baseline is its newest run, tp8 iteration 2.
	if bv := s.Base.Bases[0]; *bv.X != 150 || bv.Row != 2 {
		t.Errorf("none: baseline = %+v; want the newest run", bv)
	}
}

func TestRepeatsConfigKeys(t *testing.T) {
	page, err := buildRepeats(t, repeatsFixture(), Options{ConfigKeys: []string{"max_num_seqs"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(page.Plots[0].Series[0].X); n != 1 {
		t.Errorf("keyed by max_num_seqs alone: %d points; want 1", n)
	}
}

func TestRepeatsBaselineErrors(t *testing.T) {
	ts := repeatsFixture()
	ts[7].SetLabel(trial.LabelEngineVersion, "0.10")
	// A point measured only in another environment than the baseline gets
	// no delta and says why; the others keep theirs.
	page, err := buildRepeats(t, ts, Options{Baseline: baselineSel(t, "role=baseline")})
	if err != nil {
		t.Fatalf("a baseline from another environment than one point: %v; want the page with that point annotated", err)
	}
	all := page.Plots[0].Series[0]
	want := "engine_version 0.10 (candidate) vs 0.9 (baseline)"
	grounded := 0
	for j := range all.X {
		switch {
		case all.P[j] == 7 && (all.Base.B[j] != -1 || !strings.Contains(all.Base.Why[int32(j)], want)):
			t.Errorf("tp2 point: baseline %d, why %q; want none and %q", all.Base.B[j], all.Base.Why[int32(j)], want)
		case all.P[j] != 7 && all.Base.B[j] >= 0:
			grounded++
		}
	}
	if grounded != 2 {
		t.Errorf("%d points of All have a delta; want tp8 and tp4", grounded)
	}
	page, err = buildRepeats(t, ts, Options{Baseline: baselineSel(t, "role=baseline"), AllowCrossScope: true})
	if err != nil || len(page.Warnings) == 0 || !strings.Contains(page.Warnings[0], "engine_version=0.10") {
		t.Errorf("allowed cross-scope: err %v, warnings %q", err, page.Warnings)
	}
	_, err = buildRepeats(t, repeatsFixture(), Options{Baseline: baselineSel(t, "role=nope")})
	if err == nil || !strings.Contains(err.Error(), `baseline "role=nope" matches no usable trial`) {
		t.Errorf("unmatched baseline error = %v", err)
	}
}
