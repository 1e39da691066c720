package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/testenv"
)

// simCase is one random frontier question, as the page's simulator and
// frontier.Analyze get it.
type simCase struct {
	X, Y []float64
	Objs []simObj
	SLOs []simSLO
}

type simObj struct {
	Dir     string  `json:"dir"`
	Noise   float64 `json:"noise"`
	Improve float64 `json:"improve"`
}

type simSLO struct {
	Op     string    `json:"op"`
	Bound  float64   `json:"bound"`
	Values []float64 `json:"values"`
}

// simAnswer is what the page's ParetoFrontier.analyze returns.
type simAnswer struct {
	Status []int     `json:"status"`
	By     []int     `json:"by"`
	Tie    []int     `json:"tie"`
	Tied   [][]int32 `json:"tied"`
	Cyclic bool      `json:"cyclic"`
	Path   string    `json:"path"`
}

// randomCase draws n points: clustered within a few percent of each other
// (where noise bands matter and cycles form), or spread with duplicates;
// sometimes non-positive values (invalid under a band) and SLO columns.
func randomCase(rng *rand.Rand) simCase {
	n := 2 + rng.IntN(45)
	var c simCase
	clustered := rng.IntN(3) > 0
	tight := rng.IntN(3) == 0 // a tight cluster under cyclic bands: top cycles
	if tight {
		n = 10 + rng.IntN(30)
	}
	for range n {
		var x, y float64
		if tight {
			x, y = 1+rng.Float64()*0.08, 1+rng.Float64()*0.08
		} else if clustered {
			x, y = 1+rng.Float64()*0.2, 1+rng.Float64()*0.2
		} else {
			x, y = float64(1+rng.IntN(12)), float64(1+rng.IntN(12))
		}
		if rng.IntN(40) == 0 && !tight {
			x = 0
		}
		if rng.IntN(60) == 0 {
			y = -1
		}
		c.X, c.Y = append(c.X, x), append(c.Y, y)
	}
	for k := 1; k < n; k++ { // duplicates
		if rng.IntN(8) == 0 {
			j := rng.IntN(k)
			c.X[k], c.Y[k] = c.X[j], c.Y[j]
		}
	}
	bands := [][2]float64{{0, 0}, {0.1, 0.02}, {0.05, 0.01}, {0.05, 0.05}, {0.1, 0.1}, {0.02, 0}, {0, 0.03}, {0.15, 0.04}}
	for o := range 2 {
		b := bands[rng.IntN(len(bands))]
		if tight {
			b = bands[1+o%2]
		}
		dir := "minimize"
		if rng.IntN(2) == 0 {
			dir = "maximize"
		}
		c.Objs = append(c.Objs, simObj{Dir: dir, Noise: b[0], Improve: b[1]})
	}
	for range rng.IntN(3) {
		s := simSLO{Op: []string{"<=", "<", ">=", ">"}[rng.IntN(4)], Bound: 0.3 + rng.Float64()*0.4}
		for range n {
			s.Values = append(s.Values, math.Round(rng.Float64()*10)/10)
		}
		c.SLOs = append(c.SLOs, s)
	}
	return c
}

// analyze runs frontier.Analyze on the case.
func (c simCase) analyze(t *testing.T) (frontier.Result, []frontier.Objective) {
	t.Helper()
	p := &frontier.Problem{Values: [][]float64{c.X, c.Y}}
	for i, o := range c.Objs {
		d, _ := frontier.ParseDirection(o.Dir)
		p.Objectives = append(p.Objectives, frontier.Objective{Name: "xy"[i : i+1], Direction: d, Noise: o.Noise, MinImprove: o.Improve})
	}
	for k, s := range c.SLOs {
		slo, err := frontier.ParseSLO(fmt.Sprintf("s%d%s%v", k, s.Op, s.Bound))
		if err != nil {
			t.Fatal(err)
		}
		p.SLOs = append(p.SLOs, slo)
		p.SLOValues = append(p.SLOValues, s.Values)
	}
	res, err := frontier.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	return res, p.Objectives
}

// TestBrowserSimulatorMatchesEngine runs the page's frontier relation
// (ParetoFrontier, what the simulator computes with) and frontier.Analyze
// on 300 random cases, cycles included, and two large cyclic ones, and compares every answer: which
// rows are invalid, infeasible, dominated or on the frontier, the exact
// ties, the noise-tied groups (top cycles), whether the parameters are
// cyclic; and that every beater the page names does beat its point.
func TestBrowserSimulatorMatchesEngine(t *testing.T) {
	testenv.Chromium(t)
	tb := openPage(t, writePage(t, logPage(t)))
	rng := rand.New(rand.NewPCG(14, 200))
	cases := make([]simCase, 300)
	for i := range cases {
		cases[i] = randomCase(rng)
	}
	// Large cases under cyclic bands where every point is beaten, so that
	// more points than the explicit graph takes (2048) remain and the page
	// runs the engine's rounds: a small cycle near the best corner above a
	// dense trade-off line whose points all beat their neighbours, and the
	// line alone (whose top cycle is the whole line).
	for _, withCycle := range []bool{true, false} {
		c := simCase{Objs: []simObj{{Dir: "minimize", Noise: 0.1, Improve: 0.01}, {Dir: "minimize", Noise: 0.1, Improve: 0.01}}}
		if withCycle { // a 2-cycle: each beats the other by 5% on one axis, within 10% on the other
			c.X, c.Y = []float64{1, 1.05}, []float64{1.05, 1}
		}
		for k := range 2400 {
			f := float64(k) / 2400
			c.X, c.Y = append(c.X, 2+f+rng.Float64()*1e-3), append(c.Y, 3-f+rng.Float64()*1e-3)
		}
		cases = append(cases, c)
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	out := eval[[]simAnswer](t, tb, `(function(cases){ return cases.map(function(c){
		var r = ParetoFrontier.analyze({x: c.X, y: c.Y, objs: c.Objs, slos: (c.SLOs||[]).map(function(s){return {op: s.op, bound: s.bound, values: s.values};})});
		return {status: Array.from(r.status), by: Array.from(r.by), tie: Array.from(r.tie), tied: r.tied, cyclic: r.cyclic, path: r.path};
	});})(`+string(in)+`)`)
	cyclic, withCycles, dominated := 0, 0, 0
	paths := map[string]int{}
	for k, c := range cases {
		res, objs := c.analyze(t)
		got := out[k]
		n := len(c.X)
		want := make([]int, n)
		for _, m := range res.Dominated {
			want[m.Row] = 1
		}
		for _, m := range res.Infeasible {
			want[m.Row] = 2
		}
		for _, m := range res.Invalid {
			want[m.Row] = 3
		}
		var tied [][]int32
		ties := make([]int, n)
		seen := map[int32]bool{}
		for _, m := range res.Frontier {
			if len(m.Ties) > 0 {
				ties[m.Row] |= 1
			}
			if len(m.NoiseTied) > 0 {
				ties[m.Row] |= 2
				if !seen[m.Row] {
					g := append([]int32{m.Row}, m.NoiseTied...)
					slices.Sort(g)
					for _, r := range g {
						seen[r] = true
					}
					tied = append(tied, g)
				}
			}
		}
		slices.SortFunc(tied, func(a, b []int32) int { return int(a[0] - b[0]) })
		if got.Tied == nil {
			got.Tied = [][]int32{}
		}
		if tied == nil {
			tied = [][]int32{}
		}
		desc := fmt.Sprintf("case %d (n=%d, objs %+v, %d SLOs)", k, n, c.Objs, len(c.SLOs))
		if !slices.Equal(got.Status, want) {
			t.Errorf("%s: page statuses %v; engine %v\nx=%v\ny=%v", desc, got.Status, want, c.X, c.Y)
			continue
		}
		if !slices.Equal(got.Tie, ties) {
			t.Errorf("%s: page tie flags %v; engine %v", desc, got.Tie, ties)
		}
		if fmt.Sprint(got.Tied) != fmt.Sprint(tied) {
			t.Errorf("%s: page noise-tied groups %v; engine %v", desc, got.Tied, tied)
		}
		if got.Cyclic != res.Cyclic {
			t.Errorf("%s: page cyclic %v; engine %v", desc, got.Cyclic, res.Cyclic)
		}
		for i, s := range got.Status {
			if s != 1 {
				continue
			}
			dominated++
			b := got.By[i]
			if b < 0 || b >= n || got.Status[b] == 2 || got.Status[b] == 3 || !frontier.Beats([]float64{c.X[b], c.Y[b]}, []float64{c.X[i], c.Y[i]}, objs) {
				t.Errorf("%s: the page says %d beats %d, which it does not", desc, b, i)
			}
		}
		if res.Cyclic {
			cyclic++
		}
		paths[strings.Fields(got.Path + " -")[0]]++
		if len(tied) > 0 {
			withCycles++
		}
	}
	t.Logf("%d cases: %d with cyclic parameters, %d with noise-tied groups, %d dominated points checked; paths %v", len(cases), cyclic, withCycles, dominated, paths)
	if paths["rounds"] < 2 || paths["explicit"] == 0 || paths["strict"] == 0 || paths["noise"] == 0 {
		t.Errorf("the cases do not take every path of the page's algorithm: %v", paths)
	}
	if cyclic < 60 || withCycles < 20 {
		t.Errorf("the random cases exercise too few cycles: %d cyclic, %d with noise-tied groups", cyclic, withCycles)
	}
	tb.finish(t)
}

// TestBrowserSimulator drives the simulator's controls: opened, it shows
// the report's frontier; a wider noise band and a smaller minimum
// improvement change the frontier live, warn about cycles and tie the
// points of a cycle; an SLO bound makes points infeasible; the baseline
// verdicts follow; closing it restores the report's frontier.
func TestBrowserSimulator(t *testing.T) {
	testenv.Chromium(t)
	page := repeatsPage(t)
	tb := openPage(t, writePage(t, page))
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 details.sim summary`)))
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`__pareto.charts[0].sim !== null`, chromedp.WithPollingTimeout(2*time.Second))); err != nil {
		t.Fatalf("opening the simulator did not apply it")
	}
	diff := eval[[]string](t, tb, `(function(){var c=__pareto.charts[0], out=[]; c.plot.series.forEach(function(s,si){
		var a=Array.from(c.sim.series[si].s).join(), b=Array.from(s.s).join(); if (a!==b) { out.push(s.name+': simulated '+a+', report '+b); }}); return out;})()`)
	if len(diff) > 0 {
		t.Errorf("the simulator at the report's parameters disagrees with the report's frontier: %q", diff)
	}
	set := func(cls string, v float64) {
		eval[bool](t, tb, fmt.Sprintf(`(function(){var i=document.querySelector('#plot-0 input.sim-%s'); i.value='%v'; i.dispatchEvent(new Event('input',{bubbles:true})); return true;})()`, cls, v))
		if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`!__pareto.charts[0].simulator.pending`)); err != nil {
			t.Fatal(err)
		}
	}
	// tp4 (85 ms, 1250) beats tp8 (110 ms, 1000) and tp2 (200, 700): with a
	// 30% minimum improvement on both axes nothing wins by that much.
	set("dx", 30)
	set("dy", 30)
	out := eval[string](t, tb, `document.querySelector('#plot-0 .sim-out').textContent`)
	// tp8 (110 ms, 1000) is now within δ of tp4 (85 ms, 1250): kept; tp2
	// (200 ms, 700) is still beaten by more than 30% on TTFT.
	if !strings.Contains(out, "All: 2 on the noise-aware frontier (raw Pareto 1, the report 1)") || !strings.Contains(out, "Kept although raw-dominated (the margin is within δ): vllm.tp8") {
		t.Errorf("with δ = 30%% the simulator says %q", out)
	}
	if n := eval[int](t, tb, `__pareto.drawn[__pareto.charts[0].plot.name]["All"]`); n != 2 {
		t.Errorf("the chart draws %d simulated frontier points; want 2", n)
	}
	if !eval[bool](t, tb, `/frontier-line series-0/.test(__pareto.svg(0)) && __pareto.charts[0].sim.raw[0].line.length === 1`) {
		t.Errorf("the simulated frontier line or the raw frontier is missing")
	}
	// The view follows: every simulated and raw frontier point is in it.
	if out := eval[[]string](t, tb, `(function(){var c=__pareto.charts[0], b=c.box, out=[]; c.plot.series.forEach(function(s,si){
		c.sim.series[si].line.concat(c.sim.raw[si].line).forEach(function(i){var x=c.px(s.x[i],'x'), y=c.px(s.y[i],'y');
			if (!(x>=b.l && x<=b.r && y>=b.t && y<=b.b)) { out.push(s.name+' '+i); }});}); return out;})()`); len(out) > 0 {
		t.Errorf("simulated or raw frontier points outside the view: %q", out)
	}
	// A wide noise band with a small minimum improvement allows cycles.
	set("dx", 1)
	set("dy", 1)
	set("sx", 30)
	set("sy", 30)
	out = eval[string](t, tb, `document.querySelector('#plot-0 .sim-out').textContent`)
	if !strings.Contains(out, "allow dominance cycles") {
		t.Errorf("cyclic parameters without the warning: %q", out)
	}
	// An SLO bound on X: points beyond it become infeasible.
	eval[bool](t, tb, `(function(){var b=document.querySelector('#plot-0 input.sim-axis-x-on'); b.checked=true; b.dispatchEvent(new Event('change',{bubbles:true})); return true;})()`)
	set("axis-x-value", 100)
	out = eval[string](t, tb, `document.querySelector('#plot-0 .sim-out').textContent`)
	if !strings.Contains(out, "Infeasible: vllm.tp8") || !strings.Contains(out, "want <= 100") {
		t.Errorf("an X bound of 100 ms does not make tp8 (110 ms) infeasible: %q", out)
	}
	// Baseline verdicts at these thresholds.
	if !strings.Contains(out, "vs baseline at these thresholds") {
		t.Errorf("no baseline comparison in the simulator: %q", out)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 details.sim summary`)))
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`__pareto.charts[0].sim === null`, chromedp.WithPollingTimeout(2*time.Second))); err != nil {
		t.Errorf("closing the simulator left its frontier on the chart")
	}
	tb.screenshot(t, "simulator")
	tb.finish(t)

	// Two configurations that beat each other at σ = 10 %, δ = 4 %: one
	// noise-tied group, linked on the chart and named.
	tied := openPage(t, writePage(t, tiedPage(t)))
	eval[bool](t, tied, `(function(){var d=document.querySelector('#plot-0 details.sim'); d.open=true; var m=__pareto.charts[0].simulator;
		m.p={sx:0.1,dx:0.04,sy:0.1,dy:0.04}; m.update(); return true;})()`)
	out = eval[string](t, tied, `document.querySelector('#plot-0 .sim-out').textContent`)
	if !strings.Contains(out, "1 noise-tied group(s)") || !strings.Contains(out, "Noise-tied: a · iter 0, b · iter 0") || !strings.Contains(out, "allow dominance cycles") {
		t.Errorf("a 2-cycle is not reported as noise-tied: %q", out)
	}
	if !eval[bool](t, tied, `/class="noise-tied series-0"/.test(__pareto.svg(0))`) {
		t.Errorf("the noise-tied group is not drawn")
	}
	tied.finish(t)
}

// tiedPage has a = (100 ms, 1000 tokens/s) and b = (105 ms, 1050 tokens/s):
// at σ = 10 %, δ = 4 % each beats the other.
func tiedPage(t *testing.T) *Page {
	t.Helper()
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "2-cycle"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
`))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, []Trial{point("a", "0", 100, 1000), point("b", "0", 105, 1050)}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}
