package report

import (
	"context"
	"math"
	"testing"

	"github.com/pareto-llm/pareto/compare"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
)

// compareExamplePage builds the comparison plot of
// examples/decide/compare.toml as `pareto report` does from the
// repository root.
func compareExamplePage(t *testing.T) *Page {
	t.Helper()
	t.Chdir("..")
	cfg, err := ReadConfig("examples/decide/compare.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := source.Trials(context.Background(), source.Spec{Paths: []string{
		"examples/decide/baseline-sglang-0.5.6.jsonl", "examples/decide/baseline-sglang-0.6.0.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, set.Trials, Exclusions(set.Skipped), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

func TestBuildComparison(t *testing.T) {
	page := compareExamplePage(t)
	if len(page.Comparisons) != 1 {
		t.Fatalf("%d comparisons; want 1", len(page.Comparisons))
	}
	c := page.Comparisons[0]
	p := c.Report.Pairs[0]
	if c.Plot != page.Plots[0].Name || p.A != "0.5.6" || p.B != "0.6.0" {
		t.Errorf("comparison of plot %q: %s vs %s", c.Plot, p.A, p.B)
	}
	// The page's repeats are aggregated by the median: 2 points of 5 runs
	// on each side, 0.6.0 ahead by 6.6% at TTFT 150 ms, within the bands
	// everywhere else.
	if got := c.Report.Sides[0].Runs; got != 10 {
		t.Errorf("side 0.5.6 has %d runs; want 10", got)
	}
	if p.Verdict != compare.BDominates || p.Status != compare.NoRegression {
		t.Errorf("verdict %s, %s; want b_dominates, no_regression (%v)", p.Verdict, p.Status, p.Reasons)
	}
	if b := p.Uplift.Buckets[0]; math.Abs(float64(b.Change)-(960.2/900.6-1)) > 1e-4 || !b.A.Interpolated {
		t.Errorf("bucket at 200 ms: %+v; want 960.2/900.6-1, interpolated", b)
	}
}

// crossingPage is a page of one constructed comparison: B leads A up to
// interactivity 20 and trails beyond, three repeats each.
func crossingPage(t *testing.T) (*Page, *compare.Report) {
	t.Helper()
	mk := func(name string, pts [][2]float64) *compare.Side {
		s := &compare.Side{Name: name}
		for _, q := range pts {
			p := compare.Point{ID: name, Values: []float64{q[0], q[1]}, Runs: [][]float64{{q[0], q[0], q[0]}, {q[1] * 0.99, q[1], q[1] * 1.01}}}
			s.Points = append(s.Points, p)
		}
		return s
	}
	a := mk("a", [][2]float64{{10, 100}, {20, 80}, {30, 60}, {40, 40}})
	b := mk("b", [][2]float64{{10, 120}, {20, 95}, {30, 50}, {40, 30}})
	objs := []frontier.Objective{{Name: "interactivity", Direction: frontier.Maximize, Noise: 0.02, MinImprove: 0.02},
		{Name: "tps", Direction: frontier.Maximize, Noise: 0.02, MinImprove: 0.02}}
	rep, err := compare.Run([]*compare.Side{a, b}, compare.Options{Objectives: objs, At: []float64{15, 25, 50}, Seed: 1, Aggregate: repeat.Median})
	if err != nil {
		t.Fatal(err)
	}
	page, err := ComparisonPage("pareto compare", "a vs b", rep)
	if err != nil {
		t.Fatal(err)
	}
	return page, rep
}

// TestBrowserComparison opens a comparison page alone and one after its
// plot, and checks what they draw against the reports: both frontiers'
// points, every point of the uplift curve, the buckets inside both spans,
// the crossing, and the bucket table; in light, dark and at 800 px.
func TestBrowserComparison(t *testing.T) {
	page, rep := crossingPage(t)
	path := writePage(t, page)
	for _, v := range []struct {
		name string
		view view
	}{{"compare-light", desktop}, {"compare-dark", view{width: 1400, height: 900, dark: true}}, {"compare-800", view{width: 800, height: 900}}} {
		t.Run(v.name, func(t *testing.T) {
			tb := openPage(t, path, v.view)
			type drawn struct {
				FrontA, FrontB, Curve, Buckets, Crossings int
				Verdict                                   string
			}
			got := eval[drawn](t, tb, `__pareto.compare[0].pairs[0]`)
			u := rep.Pairs[0].Uplift
			want := drawn{FrontA: 4, FrontB: 4, Curve: len(u.Curve), Buckets: 2, Crossings: 1, Verdict: "crossing"}
			if got != want {
				t.Errorf("drawn %+v; want %+v", got, want)
			}
			rows := eval[[]string](t, tb, `Array.from(document.querySelectorAll('#compare-0 table.cmp-buckets tbody tr')).map(function(r){return r.textContent;})`)
			if len(rows) != 3 || rows[2] != "50outside (above span)outside (above span)n/a–outside" {
				t.Errorf("bucket rows %q", rows)
			}
			if h := eval[string](t, tb, `document.querySelector('#compare-0 h3').textContent`); h != "a vs b: crossing — regression" {
				t.Errorf("verdict header %q", h)
			}
			if ok := eval[bool](t, tb, `document.querySelector('#compare-0 canvas.cmp-front').height > 0`); !ok {
				t.Errorf("frontier canvas not sized")
			}
			tb.screenshot(t, v.name)
			tb.finish(t)
		})
	}
	t.Run("after-plot", func(t *testing.T) {
		page := compareExamplePage(t)
		tb := openPage(t, writePage(t, page))
		if !eval[bool](t, tb, `document.querySelector('#plot-0').nextElementSibling === document.querySelector('#compare-0')`) {
			t.Errorf("the comparison does not follow its plot")
		}
		p := page.Comparisons[0].Report.Pairs[0]
		type drawn struct {
			FrontA, FrontB, Curve, Buckets int
		}
		got := eval[drawn](t, tb, `__pareto.compare[0].pairs[0]`)
		if want := (drawn{2, 2, len(p.Uplift.Curve), 2}); got != want {
			t.Errorf("drawn %+v; want %+v", got, want)
		}
		tb.screenshot(t, "compare-after-plot")
		tb.finish(t)
	})
}
