package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// uiPage is the fixture page with a far-away dominated point in TP8 (the
// README's hidden 123,720 ms point), a trial read from line 3 of a JSONL
// file without throughput, and a second plot.
func uiPage(t *testing.T) *Page {
	t.Helper()
	cfg, err := ParseConfig("pareto.toml", []byte(fixtureConfig))
	if err != nil {
		t.Fatal(err)
	}
	ts, excl := fixture()
	far := point("vllm.tp8", "9", 123720, 500)
	far.SetParam("max_num_seqs", "far")
	rec := point("vllm.tp8", "7", 90, 0)
	rec.Measurements = rec.Measurements[:3]
	rec.Source = trial.Source{Path: "runs/sglang.jsonl", Line: 3, Index: 2}
	page, err := Build(cfg, append(ts, far, rec), excl, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// pointXY scrolls the window so that the chart is in view and returns the
// viewport position of point i of series si of chart c.
func pointXY(t *testing.T, tb *tab, c, si, i int) (float64, float64) {
	t.Helper()
	xy := eval[[]float64](t, tb, fmt.Sprintf(`(function(){var c=__pareto.charts[%d], s=c.plot.series[%d], i=%d;
		var r=c.canvas.getBoundingClientRect(); return [r.left+c.px(s.x[i],'x'), r.top+c.px(s.y[i],'y')];})()`, c, si, i))
	return xy[0], xy[1]
}

// waitSheet waits until the details sheet is placed for the page's scroll
// position (placeSheet runs on the frame after a scroll event).
func waitSheet(t *testing.T, tb *tab) {
	t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`__pareto.sheetY === window.scrollY`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the details sheet was not placed for the scroll position: %v", err)
	}
}

func scrollTo(t *testing.T, tb *tab, js string) float64 {
	t.Helper()
	return eval[float64](t, tb, `(function(){`+js+`; return window.scrollY;})()`)
}

// TestBrowserReport loads the fixture page (with injection payloads in case
// ids, parameters, labels, TOML and reasons) in headless Chromium with the
// network disabled and exercises every interaction.
func TestBrowserReport(t *testing.T) {
	testenv.Chromium(t)
	page := uiPage(t)
	tb := openPage(t, writePage(t, page))
	name := page.Plots[0].Name

	// Frontier points drawn per series equal the engine's frontier.
	drawn := eval[map[string]map[string]int](t, tb, `window.__pareto.drawn`)
	for _, p := range page.Plots {
		for _, s := range p.Series {
			if got := drawn[p.Name][s.Name]; got != s.Frontier {
				t.Errorf("plot %q series %q: drew %d frontier points; engine frontier has %d", p.Name, s.Name, got, s.Frontier)
			}
		}
	}

	// The first view fits the visible points: the hidden 123,720 ms point
	// does not squeeze the frontier, which spans most of the width.
	view := eval[[]float64](t, tb, `__pareto.charts[0].view.x`)
	if view[1] > 1000 {
		t.Errorf("first view x = %v: fits the hidden dominated point at 123720 ms", view)
	}
	span := eval[float64](t, tb, `(function(){var c=__pareto.charts[0], xs=[]; c.plot.series.forEach(function(s){s.line.forEach(function(i){xs.push(c.px(s.x[i],'x'));});});
		return (Math.max.apply(null,xs)-Math.min.apply(null,xs))/(c.box.r-c.box.l);})()`)
	if span < 0.8 {
		t.Errorf("frontier spans %.0f%% of the plot width; want at least 80%%", span*100)
	}

	// Dominated points are per plot, hidden until the box is ticked; the
	// view then grows to fit them, and the other plot is unchanged.
	dom := eval[map[string]map[string]int](t, tb, `window.__pareto.drawnDominated`)
	if n := dom[name]["TP8"]; n != 0 {
		t.Errorf("dominated points drawn before ticking the box: %d", n)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .show-dominated`)))
	dom = eval[map[string]map[string]int](t, tb, `window.__pareto.drawnDominated`)
	for _, s := range page.Plots[0].Series {
		if got, want := dom[name][s.Name], len(s.X)-s.Frontier; got != want {
			t.Errorf("series %q: %d dominated/infeasible points drawn after ticking; want %d", s.Name, got, want)
		}
	}
	if eval[bool](t, tb, `__pareto.charts[1].showDominated || document.querySelector('#plot-1 .show-dominated').checked`) {
		t.Errorf("ticking plot 0's box showed plot 1's dominated points")
	}
	if v := eval[float64](t, tb, `(function(c){return c.untx(c.view.x[1],'x');})(__pareto.charts[0])`); v < 123720 {
		t.Errorf("view x with dominated points ends at %v; want it to include 123720", v)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .show-dominated`)))

	// Click the first TP8 frontier point on the canvas: the details show
	// it, the table row is marked, and the page does not move.
	scrollTo(t, tb, `document.querySelector('#plot-0 canvas').scrollIntoView({block:'center'})`)
	before := eval[float64](t, tb, `window.scrollY`)
	x, y := pointXY(t, tb, 0, 0, int(page.Plots[0].Series[0].Line[0]))
	tb.do(t, chromedp.MouseClickXY(x, y))
	details, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Case", "vllm.tp8", "Iteration", "ttft.p99 = 100 ms", "output_token_throughput = 1000 tokens/s", "frontier", "tie", "Concurrency", "16"} {
		if !strings.Contains(details, want) {
			t.Errorf("pinned details lack %q:\n%s", want, details)
		}
	}
	if n := eval[int](t, tb, `document.querySelectorAll('#plot-0 tbody tr.selected').length`); n != 1 {
		t.Errorf("%d highlighted table rows after the click; want 1", n)
	}
	if after := eval[float64](t, tb, `window.scrollY`); after != before {
		t.Errorf("pinning a point scrolled the window from %v to %v", before, after)
	}
	checkInView(t, tb, `#plot-0 .details`)

	// Click a table row: the page stays put and the details are in view.
	before = scrollTo(t, tb, `document.querySelector('#plot-0 .table-wrap').scrollIntoView({block:'end'})`)
	row := eval[[]float64](t, tb, `(function(){var r=document.querySelectorAll('#plot-0 tbody tr')[4].getBoundingClientRect(); return [r.left+20, r.top+r.height/2];})()`)
	tb.do(t, chromedp.MouseClickXY(row[0], row[1]))
	if after := eval[float64](t, tb, `window.scrollY`); after != before {
		t.Errorf("clicking a table row scrolled the window from %v to %v", before, after)
	}
	if pin := eval[string](t, tb, `__pareto.lastPin.from`); pin != "table" {
		t.Errorf("table click pinned from %q", pin)
	}
	checkInView(t, tb, `#plot-0 .details`)

	// Escape unpins.
	tb.do(t, chromedp.KeyEvent(kb.Escape))
	if eval[bool](t, tb, `__pareto.charts[0].selected !== null`) {
		t.Errorf("Escape left the point pinned")
	}

	// Select the payload point: details show the payloads as text and
	// nothing executes.
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[1];
		for (var i=0;i<s.p.length;i++){ if (__pareto.point(s.p[i]).case.indexOf('script')>=0) { c.select(1,i); return true; } }
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

	// Sort the measurements table by X with the mouse, then with the
	// keyboard.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 th[data-key="x"]`)))
	first := eval[string](t, tb, `document.querySelector('#plot-0 tbody tr td.x').textContent`)
	eval[bool](t, tb, `(document.querySelector('#plot-0 th[data-key="x"]').focus(), true)`)
	tb.do(t, chromedp.KeyEvent(kb.Enter))
	last := eval[string](t, tb, `document.querySelector('#plot-0 tbody tr td.x').textContent`)
	if first != "60" || last != "123720" {
		t.Errorf("sorted by x: first row %s ascending, %s descending (keyboard); want 60 and 123720", first, last)
	}

	// Exclusions: one row each, with reasons, candidates and the JSONL line.
	if n := eval[int](t, tb, `document.querySelectorAll('#exclusions tbody tr').length`); n != len(page.Exclusions) {
		t.Errorf("exclusions table has %d rows; want %d", n, len(page.Exclusions))
	}
	excl, _ := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#exclusions`)))
	for _, want := range []string{"measurement_ambiguous", "ttft.mean, ttft.p50, ttft.p99", "unusable", "run_failed", payloadImg, "runs/sglang.jsonl:3"} {
		if !strings.Contains(excl, want) {
			t.Errorf("exclusions lack %q", want)
		}
	}

	// X spans more than two decades (to 123720 ms) and no log key says
	// otherwise: it opens on a log scale; Y does not.
	if !eval[bool](t, tb, `__pareto.charts[0].log.x && !__pareto.charts[0].log.y && document.querySelector('#plot-0 .log-x').checked`) {
		t.Errorf("plot 0 opens with log axes %v; want X on a log scale, Y linear", eval[map[string]bool](t, tb, `__pareto.charts[0].log`))
	}
	// Log axes keep every frontier point drawn.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .log-y`)))
	if !eval[bool](t, tb, `__pareto.charts[0].log.x && __pareto.charts[0].log.y`) {
		t.Errorf("log toggles did not switch the axes")
	}
	drawn = eval[map[string]map[string]int](t, tb, `window.__pareto.drawn`)
	for _, s := range page.Plots[0].Series {
		if got := drawn[name][s.Name]; got != s.Frontier {
			t.Errorf("log axes: series %q drew %d frontier points; want %d", s.Name, got, s.Frontier)
		}
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .log-x`)), chromedp.Click(chromedp.CSS(`#plot-0 .log-y`)))

	// Legend entries hide and show a frontier.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="0"]`)))
	if n := eval[int](t, tb, `__pareto.drawn[__pareto.charts[0].plot.name]["TP8"]`); n != 0 {
		t.Errorf("hidden series still drew %d points", n)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="0"]`)))
	checkInert(t, tb)
	tb.screenshot(t, "report")
	tb.finish(t)
}

// checkInView fails unless the element's top part is inside the viewport.
func checkInView(t *testing.T, tb *tab, sel string) {
	t.Helper()
	r := eval[[]float64](t, tb, `(function(){var r=document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight];})()`)
	if r[0] >= r[2]-40 || r[1] <= 40 {
		t.Errorf("%s is out of view: top %v, bottom %v, viewport height %v", sel, r[0], r[1], r[2])
	}
}

// TestBrowserZoom covers box zoom, axis zoom, the wheel (which zooms only
// with Ctrl held and otherwise leaves the page to scroll), double-click
// reset, pan, and at least four tick labels on every axis at three zoom
// levels, linear and log.
func TestBrowserZoom(t *testing.T) {
	testenv.Chromium(t)
	tb := openPage(t, writePage(t, logPage(t)))
	scrollTo(t, tb, `document.querySelector('#plot-0 canvas').scrollIntoView({block:'center'})`)
	full := eval[[]float64](t, tb, `__pareto.charts[0].view.x.concat(__pareto.charts[0].view.y)`)

	// Wheel without a modifier: no zoom, the default (page scroll) is not
	// prevented. With Ctrl: zoom.
	wheel := func(ctrl bool) bool {
		return eval[bool](t, tb, `(function(){var c=__pareto.charts[0].canvas, r=c.getBoundingClientRect();
			var ev=new WheelEvent('wheel',{deltaY:-100, clientX:r.left+r.width/2, clientY:r.top+r.height/2, ctrlKey:`+strconv.FormatBool(ctrl)+`, bubbles:true, cancelable:true});
			c.dispatchEvent(ev); return ev.defaultPrevented;})()`)
	}
	if wheel(false) {
		t.Errorf("a plain wheel over the chart was captured (default prevented)")
	}
	tb.do(t, chromedp.Sleep(50*time.Millisecond))
	if v := eval[[]float64](t, tb, `__pareto.charts[0].view.x`); v[0] != full[0] || v[1] != full[1] {
		t.Errorf("a plain wheel zoomed: view x %v; want %v", v, full[:2])
	}
	if !eval[bool](t, tb, `document.querySelector('#plot-0 .hint').classList.contains('show')`) {
		t.Errorf("no hint after a plain wheel")
	}
	if !wheel(true) {
		t.Errorf("Ctrl+wheel was not handled")
	}
	if v := eval[[]float64](t, tb, `__pareto.charts[0].view.x`); v[1]-v[0] >= full[1]-full[0] {
		t.Errorf("Ctrl+wheel did not zoom in: view x %v, was %v", v, full[:2])
	}

	// Double-click resets.
	cx := eval[[]float64](t, tb, `(function(){var c=__pareto.charts[0], r=c.canvas.getBoundingClientRect(); return [r.left+(c.box.l+c.box.r)/2, r.top+(c.box.t+c.box.b)/2, r.left, r.top];})()`)
	tb.do(t, chromedp.MouseClickXY(cx[0], cx[1], chromedp.ClickCount(2)))
	if v := eval[[]float64](t, tb, `__pareto.charts[0].view.x`); v[0] != full[0] || v[1] != full[1] {
		t.Errorf("double-click did not reset: view x %v; want %v", v, full[:2])
	}

	// Box zoom: drag a rectangle; the view becomes that rectangle.
	b := eval[[]float64](t, tb, `(function(){var b=__pareto.charts[0].box; return [b.l,b.t,b.r,b.b];})()`)
	x0, y0 := cx[2]+b[0]+(b[2]-b[0])*0.25, cx[3]+b[1]+(b[3]-b[1])*0.25
	x1, y1 := cx[2]+b[0]+(b[2]-b[0])*0.5, cx[3]+b[1]+(b[3]-b[1])*0.6
	drag(t, tb, x0, y0, x1, y1, 0)
	v := eval[[]float64](t, tb, `__pareto.charts[0].view.x.concat(__pareto.charts[0].view.y)`)
	wantX0 := full[0] + (full[1]-full[0])*0.25
	wantX1 := full[0] + (full[1]-full[0])*0.5
	if !closeTo(v[0], wantX0, full[1]-full[0]) || !closeTo(v[1], wantX1, full[1]-full[0]) {
		t.Errorf("box zoom x = [%v %v]; want about [%v %v]", v[0], v[1], wantX0, wantX1)
	}
	if v[3]-v[2] >= full[3]-full[2] {
		t.Errorf("box zoom left y at %v", v[2:])
	}
	tb.do(t, chromedp.MouseClickXY(cx[0], cx[1], chromedp.ClickCount(2)))

	// Axis zoom: a drag along the X axis zooms X only.
	drag(t, tb, x0, cx[3]+b[3]+12, x1, cx[3]+b[3]+12, 0)
	v = eval[[]float64](t, tb, `__pareto.charts[0].view.x.concat(__pareto.charts[0].view.y)`)
	if v[1]-v[0] >= full[1]-full[0] || v[2] != full[2] || v[3] != full[3] {
		t.Errorf("axis zoom: view %v from %v; want x narrower, y unchanged", v, full)
	}
	tb.do(t, chromedp.MouseClickXY(cx[0], cx[1], chromedp.ClickCount(2)))

	// Shift+drag pans: the span stays, the view moves.
	drag(t, tb, cx[0], cx[1], cx[0]+60, cx[1], chromedp.ModifierShift)
	v = eval[[]float64](t, tb, `__pareto.charts[0].view.x`)
	if !closeTo(v[1]-v[0], full[1]-full[0], full[1]-full[0]) || v[0] >= full[0] {
		t.Errorf("shift+drag: view x %v from %v; want the same span moved left", v, full[:2])
	}
	tb.do(t, chromedp.MouseClickXY(cx[0], cx[1], chromedp.ClickCount(2)))

	// Ticks: at least four labels on each axis at the first view and two
	// zoom levels, with log axes off and on, in one format (no exponents).
	expo := regexp.MustCompile(`[eE][+-]?\d`)
	for _, log := range []bool{false, true} {
		for _, k := range []float64{1, 0.2, 0.02} {
			labels := eval[map[string][]string](t, tb, fmt.Sprintf(`(function(){var c=__pareto.charts[0];
				c.log.x=c.log.y=%v; c.auto=true; c.fit(); var v=c.view;
				function z(d){var m=(d[0]+d[1])/2, h=(d[1]-d[0])/2*%v; return [m-h, m+h];}
				c.view={x:z(v.x), y:z(v.y)}; c.draw(); return __pareto.ticks[c.plot.name];})()`, log, k))
			for _, ax := range []string{"x", "y"} {
				if len(labels[ax]) < 4 {
					t.Errorf("log=%v zoom %v: %s axis has %d tick labels %q; want at least 4", log, k, ax, len(labels[ax]), labels[ax])
				}
				for _, l := range labels[ax] {
					if expo.MatchString(l) {
						t.Errorf("log=%v zoom %v: %s tick %q is in exponent form", log, k, ax, l)
					}
				}
			}
		}
	}
	// Margins come from the labels: the widest Y label ends left of the
	// plot area and right of the Y title.
	if !eval[bool](t, tb, `(function(){var c=__pareto.charts[0]; c.auto=true; c.fit(); var w=0;
		__pareto.ticks[c.plot.name].y.forEach(function(l){var x=document.createElement('canvas').getContext('2d'); x.font=c.box.font; w=Math.max(w,x.measureText(l).width);});
		return c.box.l-6-w >= 18+8*c.box.yTitle.length;})()`) {
		t.Errorf("the widest Y tick label reaches the Y axis title")
	}

	// A zero on a log axis is not drawn, and the chart says so.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .log-y`)))
	note := eval[string](t, tb, `document.querySelector('#plot-0 .axis-note').textContent`)
	if !strings.Contains(note, "Not drawn on the log axis: 1 with output_token_throughput ≤ 0") || !strings.Contains(note, "on a frontier") {
		t.Errorf("zero on the log Y axis: note %q", note)
	}
	tb.finish(t)
}

// drag presses at (x0, y0), moves to (x1, y1) and releases there.
func drag(t *testing.T, tb *tab, x0, y0, x1, y1 float64, mod chromedp.Modifier) {
	t.Helper()
	opts := []chromedp.MouseOption{chromedp.ButtonLeft, chromedp.ButtonModifiers(mod)}
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MouseMoved, x0, y0), chromedp.MouseEvent(chromedp.MousePressed, x0, y0, append(opts, chromedp.ClickCount(1))...)}
	for k := 1; k <= 5; k++ {
		f := float64(k) / 5
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, append(opts, func(p *input.DispatchMouseEventParams) { p.Buttons = 1 })...))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, append(opts, chromedp.ClickCount(1))...), chromedp.Sleep(50*time.Millisecond))
	tb.do(t, steps...)
}

func closeTo(a, b, span float64) bool { return a-b < span*0.02 && b-a < span*0.02 }

// logPage is a plot over three decades of TTFT whose frontier has a point
// with zero throughput, for ticks and log axes.
func logPage(t *testing.T) *Page {
	t.Helper()
	var ts []Trial
	for i, v := range [][2]float64{{12, 0}, {40, 900}, {95, 2500}, {300, 61000}, {1200, 540000}, {7000, 1200000}, {500, 3000}} {
		p := point("c"+strconv.Itoa(i), "0", v[0], v[1])
		ts = append(ts, p)
	}
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "Decades"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "All" }]
`))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestBrowserKeyboard pins a point with the keyboard only: Tab into the
// chart, arrows to move, Enter to pin, Escape to unpin.
func TestBrowserKeyboard(t *testing.T) {
	testenv.Chromium(t)
	page := uiPage(t)
	tb := openPage(t, writePage(t, page))
	// Tab from the last toolbar control of plot 0 into its legend, then the
	// chart: focus the control before the canvas and press Tab.
	eval[bool](t, tb, `(function(){var b=document.querySelectorAll('#plot-0 .legend button'); b[b.length-1].focus(); return true;})()`)
	tb.do(t, chromedp.KeyEvent(kb.Tab))
	if !eval[bool](t, tb, `document.activeElement === __pareto.charts[0].canvas`) {
		t.Fatalf("Tab did not reach the chart (focus on %s)", eval[string](t, tb, `document.activeElement.outerHTML.slice(0,80)`))
	}
	before := eval[float64](t, tb, `window.scrollY`)
	tb.do(t, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	cur := eval[[]int](t, tb, `[__pareto.charts[0].cursor.s, __pareto.charts[0].cursor.i]`)
	if tip := eval[string](t, tb, `__pareto.charts[0].tip.textContent`); !strings.Contains(tip, "ttft.p99 = ") {
		t.Errorf("the keyboard cursor shows no tooltip: %q", tip)
	}
	tb.do(t, chromedp.KeyEvent(kb.Enter))
	pin := eval[map[string]any](t, tb, `__pareto.lastPin`)
	if pin == nil || pin["from"] != "keyboard" || int(pin["s"].(float64)) != cur[0] || int(pin["i"].(float64)) != cur[1] {
		t.Errorf("Enter pinned %v; want the cursor %v from the keyboard", pin, cur)
	}
	details, _ := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	if !strings.Contains(details, "Point details") {
		t.Errorf("keyboard pin shows no details: %q", details)
	}
	if after := eval[float64](t, tb, `window.scrollY`); after != before {
		t.Errorf("keyboard pin scrolled the page from %v to %v", before, after)
	}
	tb.do(t, chromedp.KeyEvent(kb.Escape))
	if eval[bool](t, tb, `__pareto.charts[0].selected !== null`) {
		t.Errorf("Escape did not unpin")
	}
	// A table row pins with Enter too.
	eval[bool](t, tb, `(document.querySelectorAll('#plot-0 tbody tr')[2].focus({preventScroll:true}), true)`)
	tb.do(t, chromedp.KeyEvent(kb.Enter))
	if eval[string](t, tb, `__pareto.lastPin.from`) != "table" {
		t.Errorf("Enter on a table row did not pin it")
	}
	tb.finish(t)
}

// TestBrowserMarkersAndSVG checks the colour-blind encoding (a distinct
// marker shape and colour per series in chart, legend and SVG; dominated
// points hollow and neutral), overlapping series named in the tooltip, and
// that the SVG export draws what the chart draws.
func TestBrowserMarkersAndSVG(t *testing.T) {
	testenv.Chromium(t)
	page := seriesPage(t)
	tb := openPage(t, writePage(t, page))
	type mark struct {
		Shape     string `json:"shape"`
		Color     string `json:"color"`
		Frontier  int    `json:"frontier"`
		Dominated int    `json:"dominated"`
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .show-dominated`)))
	marks := eval[[]mark](t, tb, `__pareto.markers[__pareto.charts[0].plot.name]`)
	seen := map[string]bool{}
	for i, m := range marks[:8] {
		if seen[m.Shape+m.Color] {
			t.Errorf("series %d repeats marker %s %s", i, m.Shape, m.Color)
		}
		seen[m.Shape+m.Color] = true
		if seen[m.Shape] {
			t.Errorf("series %d shares shape %s with an earlier series", i, m.Shape)
		}
		seen[m.Shape] = true
	}
	legend := eval[[]string](t, tb, `Array.from(document.querySelectorAll('#plot-0 .legend button svg')).map(function(s){return s.getAttribute('data-shape');})`)
	for i, m := range marks {
		if i < len(legend) && legend[i] != m.Shape {
			t.Errorf("legend swatch %d is a %s; the chart draws %s", i, legend[i], m.Shape)
		}
	}
	// Hide series 2; the export must leave it out of the legend and draw
	// every other series with the chart's shapes and counts.
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="2"]`)))
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .log-x`)))
	marks = eval[[]mark](t, tb, `__pareto.markers[__pareto.charts[0].plot.name]`)
	svg := eval[string](t, tb, `__pareto.svg(0)`)
	for i, m := range marks {
		frontier := regexp.MustCompile(`class="marker frontier (ring )?series-` + strconv.Itoa(i) + `" data-shape="` + m.Shape + `"`)
		dominated := regexp.MustCompile(`class="marker (dominated|infeasible) series-` + strconv.Itoa(i) + `" data-shape="` + m.Shape + `" fill="none"`)
		if got := len(frontier.FindAllString(svg, -1)); got != m.Frontier {
			t.Errorf("svg series %d: %d %s frontier markers; the chart drew %d", i, got, m.Shape, m.Frontier)
		}
		if got := len(dominated.FindAllString(svg, -1)); got != m.Dominated {
			t.Errorf("svg series %d: %d hollow %s dominated markers; the chart drew %d", i, got, m.Shape, m.Dominated)
		}
		inLegend := strings.Contains(svg, `class="legend-text" x=`) && strings.Contains(svg, ">"+esc(page.Plots[0].Series[i].Name)+" (")
		if inLegend == (i == 2) {
			t.Errorf("svg legend lists series %d: %v; want it only for visible series", i, inLegend)
		}
	}
	if !strings.Contains(svg, "log scale") {
		t.Errorf("svg axis titles lack the log scale")
	}
	long := page.Plots[0].Series[7].Name
	for _, word := range strings.Fields(long) {
		if !strings.Contains(svg, word) {
			t.Errorf("svg legend cut the long name at %q", word)
		}
	}
	// Dominated markers are neutral (one grey, whatever the series).
	if c := regexp.MustCompile(`class="marker dominated series-\d+" data-shape="[a-z-]+" fill="none" stroke="([^"]+)"`).FindAllStringSubmatch(svg, -1); len(c) == 0 || c[0][1] != c[len(c)-1][1] {
		t.Errorf("dominated markers are not one neutral colour: %v", c)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .legend button[data-series="2"]`)), chromedp.Click(chromedp.CSS(`#plot-0 .log-x`)))

	// "All" repeats series 0's points: hovering one names both series.
	scrollTo(t, tb, `document.querySelector('#plot-0 canvas').scrollIntoView({block:'center'})`)
	x, y := pointXY(t, tb, 0, 0, int(page.Plots[0].Series[0].Line[0]))
	tb.do(t, chromedp.MouseEvent(chromedp.MouseMoved, x, y))
	tip := eval[string](t, tb, `__pareto.charts[0].tip.textContent`)
	if !strings.Contains(tip, "also in: All") && !strings.Contains(tip, "(also in: c0") {
		t.Errorf("tooltip over a point of two series names one: %q", tip)
	}
	for _, want := range []string{" ms", " tokens/s"} {
		if !strings.Contains(tip, want) {
			t.Errorf("tooltip lacks the unit %q: %q", want, tip)
		}
	}
	// A dominated point's tooltip says what beats it and by how much.
	hit := eval[[]float64](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0]; for (var i=0;i<s.s.length;i++){ if (s.s[i]===1) {
		var r=c.canvas.getBoundingClientRect(); return [r.left+c.px(s.x[i],'x'), r.top+c.px(s.y[i],'y')]; } } return [];})()`)
	tb.do(t, chromedp.MouseEvent(chromedp.MouseMoved, hit[0], hit[1]))
	if tip := eval[string](t, tb, `__pareto.charts[0].tip.textContent`); !regexp.MustCompile(`beaten by .*: X [−+]\d.*\((better|worse|equal)\), Y`).MatchString(tip) {
		t.Errorf("dominated tooltip does not say what beats it: %q", tip)
	}
	tb.finish(t)
}

// seriesPage has nine frontiers (eight cases and All), each case with a
// dominated point; the last case has a long name.
func seriesPage(t *testing.T) *Page {
	t.Helper()
	var ts []Trial
	var fronts []string
	long := "a configuration with a deliberately long name that an SVG legend must wrap rather than cut"
	for c := range 8 {
		name := "c" + strconv.Itoa(c)
		if c == 7 {
			name = long
		}
		fronts = append(fronts, fmt.Sprintf(`{ name = %q, cases = [%q] }`, name, name))
		for k := range 3 {
			x, y := 50+float64(c)*10+float64(k)*30, 1000-float64(c)*40+float64(k)*150
			ts = append(ts, point(name, strconv.Itoa(k), x, y))
		}
		ts = append(ts, point(name, "9", 200+float64(c)*10, 700))
	}
	fronts = append(fronts, `{ name = "All" }`)
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "Eight frontiers"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [`+strings.Join(fronts, ", ")+`]
`))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestBrowserNarrow opens the fixture at 800 px: nothing overflows the
// window, every table fits its box, and a pinned point's details show
// without moving the page.
func TestBrowserNarrow(t *testing.T) {
	testenv.Chromium(t)
	page := uiPage(t)
	tb := openPage(t, writePage(t, page), view{width: 800, height: 900})
	if w := eval[[]float64](t, tb, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		t.Errorf("page is %v px wide in an %v px window", w[0], w[1])
	}
	fits := eval[[]string](t, tb, `Array.from(document.querySelectorAll('.table-wrap')).filter(function(w){return w.scrollWidth > w.clientWidth + 1;}).map(function(w){
		return (w.closest('section')||{}).id + ': ' + w.scrollWidth + ' > ' + w.clientWidth;})`)
	if len(fits) > 0 {
		t.Errorf("tables wider than their box at 800 px: %q", fits)
	}
	scrollTo(t, tb, `document.querySelector('#plot-0 canvas').scrollIntoView({block:'start'})`)
	before := eval[float64](t, tb, `window.scrollY`)
	x, y := pointXY(t, tb, 0, 0, int(page.Plots[0].Series[0].Line[0]))
	tb.do(t, chromedp.MouseClickXY(x, y))
	if after := eval[float64](t, tb, `window.scrollY`); after != before {
		t.Errorf("pin at 800 px scrolled from %v to %v", before, after)
	}
	checkInView(t, tb, `#plot-0 .details`)
	// The sheet leaves the chart's legend, its top quarter and its X axis
	// (the canvas's bottom 40 px) in view, with the chart at the top, the
	// middle and the bottom of the window: it is placed once the page has
	// scrolled (placeSheet, on the next frame), which the test waits for.
	for _, at := range []string{"start", "center", "end"} {
		scrollTo(t, tb, `document.querySelector('#plot-0 canvas').scrollIntoView({block:'`+at+`'})`)
		waitSheet(t, tb)
		bands := eval[[][]float64](t, tb, `(function(){var c=document.querySelector('#plot-0 canvas').getBoundingClientRect(),
			l=document.querySelector('#plot-0 .legend').getBoundingClientRect(); return [[l.top, l.bottom], [c.top, c.top+c.height/4], [c.bottom-40, c.bottom]];})()`)
		d := eval[[]float64](t, tb, `(function(){var d=document.querySelector('#plot-0 .details').getBoundingClientRect(); return [d.top, d.bottom, innerHeight];})()`)
		for k, what := range []string{"legend", "top quarter of the plot", "X axis band"} {
			a0, a1 := max(bands[k][0], 0), min(bands[k][1], d[2])
			if a1 > a0 && min(a1, d[1]) > max(a0, d[0]) {
				t.Errorf("chart at %s: the details sheet (%v–%v px) covers the %s (%v–%v px)", at, d[0], d[1], what, bands[k][0], bands[k][1])
			}
		}
	}
	tb.screenshot(t, "narrow-pinned")
	before = scrollTo(t, tb, `document.querySelector('#plot-0 .table-wrap').scrollIntoView({block:'center'})`)
	row := eval[[]float64](t, tb, `(function(){var r=document.querySelectorAll('#plot-0 tbody tr')[1].getBoundingClientRect(); return [r.left+20, r.top+r.height/2];})()`)
	tb.do(t, chromedp.MouseClickXY(row[0], row[1]))
	if after := eval[float64](t, tb, `window.scrollY`); after != before {
		t.Errorf("table pin at 800 px scrolled from %v to %v", before, after)
	}
	checkInView(t, tb, `#plot-0 .details`)
	tb.screenshot(t, "narrow")
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

// esc escapes s as the page's SVG export does.
func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}
