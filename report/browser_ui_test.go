package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestBrowserReport loads the fixture page (with injection payloads in case
// ids, parameters, labels, TOML and reasons) in headless Chromium with the
// network disabled and exercises every interaction.
func TestBrowserReport(t *testing.T) {
	testenv.Chromium(t)
	page := buildFixture(t)
	tb := openPage(t, writePage(t, page))

	// Frontier points drawn per series equal the engine's frontier.
	drawn := eval[map[string]map[string]int](t, tb, `window.__pareto.drawn`)
	for _, p := range page.Plots {
		for _, s := range p.Series {
			if got := drawn[p.Name][s.Name]; got != s.Frontier {
				t.Errorf("plot %q series %q: drew %d frontier points; engine frontier has %d", p.Name, s.Name, got, s.Frontier)
			}
		}
	}
	// Dominated points are hidden until the box is ticked.
	dom := eval[map[string]map[string]int](t, tb, `window.__pareto.drawnDominated`)
	if n := dom[page.Plots[0].Name]["TP8"]; n != 0 {
		t.Errorf("dominated points drawn before ticking the box: %d", n)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .show-dominated`)))
	dom = eval[map[string]map[string]int](t, tb, `window.__pareto.drawnDominated`)
	for _, s := range page.Plots[0].Series {
		if got, want := dom[page.Plots[0].Name][s.Name], len(s.X)-s.Frontier; got != want {
			t.Errorf("series %q: %d dominated/infeasible points drawn after ticking; want %d", s.Name, got, want)
		}
	}

	// Click the first TP8 frontier point on the canvas and read the details.
	xy := eval[[]float64](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0], i=s.line[0], r=c.canvas.getBoundingClientRect();
		c.canvas.scrollIntoView(); r=c.canvas.getBoundingClientRect(); return [r.left+c.px(s.x[i],'x'), r.top+c.px(s.y[i],'y')];})()`)
	tb.do(t, chromedp.MouseClickXY(xy[0], xy[1]))
	details, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Case", "vllm.tp8", "Iteration", "ttft.p99 = 100 ms", "output_token_throughput = 1000", "frontier", "tie", "Concurrency", "16"} {
		if !strings.Contains(details, want) {
			t.Errorf("pinned details lack %q:\n%s", want, details)
		}
	}
	if n := eval[int](t, tb, `document.querySelectorAll('#plot-0 tbody tr.selected').length`); n != 1 {
		t.Errorf("%d highlighted table rows after the click; want 1", n)
	}

	// Select the payload point: details show the payloads as text and
	// nothing executes.
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[1];
		for (var i=0;i<s.p.length;i++){ if (__pareto.data.points[s.p[i]].case.indexOf('script')>=0) { c.select(1,i); return true; } }
		throw new Error('payload point not found');})()`)
	details, _ = chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	for _, want := range []string{payloadScript, payloadURL, "TP=8", "Serving", "1 instance(s)"} {
		if !strings.Contains(details, want) {
			t.Errorf("details lack %q:\n%s", want, details)
		}
	}
	checkInert(t, tb)

	// Copy the executed TOML.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .details button.copy`)))
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`document.querySelector('#plot-0 .copy-status').textContent === 'Copied'`)); err != nil {
		t.Errorf("copy status never said Copied: %v", err)
	}
	if got := eval[string](t, tb, `window.__pareto.lastCopied`); !strings.Contains(got, payloadScript) {
		t.Errorf("copied text = %q; want the executed TOML", got)
	}

	// Sort the measurements table by X, ascending then descending.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 th[data-key="x"]`)))
	first := eval[string](t, tb, `document.querySelector('#plot-0 tbody tr td.x').textContent`)
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 th[data-key="x"]`)))
	last := eval[string](t, tb, `document.querySelector('#plot-0 tbody tr td.x').textContent`)
	if first != "60" || last != "500" {
		t.Errorf("sorted by x: first row %s ascending, %s descending; want 60 and 500", first, last)
	}

	// Exclusions: one row each, with reasons and candidates.
	if n := eval[int](t, tb, `document.querySelectorAll('#exclusions tbody tr').length`); n != len(page.Exclusions) {
		t.Errorf("exclusions table has %d rows; want %d", n, len(page.Exclusions))
	}
	excl, _ := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#exclusions`)))
	for _, want := range []string{"measurement_ambiguous", "ttft.mean, ttft.p50, ttft.p99", "unusable", "run_failed", payloadImg} {
		if !strings.Contains(excl, want) {
			t.Errorf("exclusions lack %q", want)
		}
	}

	// Log axes keep every frontier point drawn.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .log-x`)), chromedp.Click(chromedp.CSS(`#plot-0 .log-y`)))
	if !eval[bool](t, tb, `__pareto.charts[0].log.x && __pareto.charts[0].log.y`) {
		t.Errorf("log toggles did not switch the axes")
	}
	drawn = eval[map[string]map[string]int](t, tb, `window.__pareto.drawn`)
	for _, s := range page.Plots[0].Series {
		if got := drawn[page.Plots[0].Name][s.Name]; got != s.Frontier {
			t.Errorf("log axes: series %q drew %d frontier points; want %d", s.Name, got, s.Frontier)
		}
	}

	// Legend entries hide and show a frontier.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="0"]`)))
	if n := eval[int](t, tb, `__pareto.drawn[__pareto.charts[0].plot.name]["TP8"]`); n != 0 {
		t.Errorf("hidden series still drew %d points", n)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="0"]`)))

	// Zoom with the wheel, then reset.
	before := eval[[]float64](t, tb, `__pareto.charts[0].view.x`)
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0].canvas, r=c.getBoundingClientRect();
		c.dispatchEvent(new WheelEvent('wheel',{deltaY:-100, clientX:r.left+r.width/2, clientY:r.top+r.height/2, bubbles:true, cancelable:true})); return true;})()`)
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`__pareto.charts[0].view.x[1]-__pareto.charts[0].view.x[0] < `+fmtF(before[1]-before[0]))); err != nil {
		t.Errorf("wheel did not zoom in: %v", err)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 button.reset`)))
	after := eval[[]float64](t, tb, `__pareto.charts[0].view.x`)
	if after[0] != before[0] || after[1] != before[1] {
		t.Errorf("reset view x = %v; want %v", after, before)
	}

	// SVG export is built from the data and escapes user strings.
	svg := eval[string](t, tb, `__pareto.svg(0)`)
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, `class="frontier"`) != page.Plots[0].Series[0].Frontier+page.Plots[0].Series[1].Frontier {
		t.Errorf("svg export: %.200s", svg)
	}
	if strings.Contains(svg, "<script") {
		t.Errorf("svg export contains an unescaped payload")
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 button.export-svg`)))
	checkInert(t, tb)
	tb.screenshot(t, "report")
	tb.finish(t)
}

// checkInert asserts that no payload ran and no payload markup exists.
func checkInert(t *testing.T, tb *tab) {
	t.Helper()
	if eval[bool](t, tb, `typeof window.__pwned !== 'undefined'`) {
		t.Errorf("an injection payload executed")
	}
	if n := eval[int](t, tb, `document.querySelectorAll('img, script:not(#pareto-data), a[href^="javascript"], [onerror]').length`); n != 1 {
		t.Errorf("%d img/script/javascript:/onerror nodes; want only the report script", n)
	}
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
