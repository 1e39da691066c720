package report

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
)

// examplePage builds the worked example of examples/noise as
// `pareto report examples/noise/runs --config examples/noise/pareto.toml
// --baseline tag=baseline` does, from the repository root.
func examplePage(t *testing.T) *Page {
	t.Helper()
	t.Chdir("..")
	cfg, err := ReadConfig("examples/noise/pareto.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := source.Trials(context.Background(), source.Spec{Paths: []string{"examples/noise/runs"}})
	if err != nil {
		t.Fatal(err)
	}
	sel, err := repeat.ParseSelection("tag=baseline")
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, set.Trials, Exclusions(set.Skipped), Options{Baseline: &sel})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestBrowserExample opens the worked example in light and dark at
// 1400 px and at 800 px, takes screenshots (t.ArtifactDir, and
// $PARETO_SHOTS when set), and checks what examples/noise/README.md says:
// the noise-aware frontier keeps A, D1 and D2 where the raw one keeps six
// points, and the simulator at σ = δ = 0 is the raw frontier.
func TestBrowserExample(t *testing.T) {
	testenv.Chromium(t)
	page := examplePage(t)
	path := writePage(t, page)
	for _, v := range []struct {
		name string
		view view
	}{{"example-light", desktop}, {"example-dark", view{width: 1400, height: 900, dark: true}}, {"example-800", view{width: 800, height: 900}}} {
		t.Run(v.name, func(t *testing.T) {
			tb := openPage(t, path, v.view)
			names := eval[[]string](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0];
				return s.line.map(function(i){return __pareto.point(s.p[i]).case.split('/').pop();});})()`)
			if got := strings.Join(names, " "); got != "a-ttft-6pct.jsonl d1-drift.jsonl d2-drift.jsonl" {
				t.Errorf("noise-aware frontier of plot 1 = %s; want A, D1 and D2", got)
			}
			// Open the simulator with the report's bands and move them to zero:
			// the raw frontier, six points.
			eval[bool](t, tb, `(document.querySelector('#plot-0 details.sim').open = true)`)
			for _, k := range []string{"sx", "dx", "sy", "dy"} {
				eval[bool](t, tb, `(function(){var i=document.querySelector('#plot-0 input.sim-`+k+`'); i.value='0'; i.dispatchEvent(new Event('input',{bubbles:true})); return true;})()`)
			}
			if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`__pareto.charts[0].sim && __pareto.charts[0].sim.series[0].frontier === 6`)); err != nil {
				t.Errorf("the simulator at σ = δ = 0 does not give the raw frontier of six points: %v", err)
			}
			// d3 (242 ms), outside the report's view, is now a frontier point:
			// the view follows.
			if !eval[bool](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0], b=c.box;
				return c.sim.series[0].line.every(function(i){var x=c.px(s.x[i],'x'); return x>=b.l && x<=b.r;});})()`) {
				t.Errorf("a simulated frontier point is outside the view")
			}
			// Back to the report's bands for the pictures (the baseline pinned,
			// dominated points shown): the whole page, and the window as it is
			// with the chart in view.
			eval[bool](t, tb, `(document.querySelector('#plot-0 .sim-reset').click(), true)`)
			eval[bool](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0]; c.setShowDominated(true);
				for (var i=0;i<s.p.length;i++){ if (__pareto.point(s.p[i]).case.indexOf('x0-')>=0) { c.select(0,i); } } return true;})()`)
			scrollTo(t, tb, `window.scrollTo(0,0)`)
			tb.screenshot(t, v.name)
			scrollTo(t, tb, `document.querySelector('#plot-0 h2').scrollIntoView()`)
			tb.windowShot(t, v.name+"-window")
			tb.finish(t)
		})
	}
}
