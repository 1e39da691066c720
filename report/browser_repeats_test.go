package report

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestBrowserRepeats loads a page whose points aggregate repeats and carry
// deltas to a baseline: error bars are drawn for every visible point with
// n>1, the baseline is marked, and the details, table and SVG show n and Δ.
func TestBrowserRepeats(t *testing.T) {
	testenv.Chromium(t)
	page := repeatsPage(t)
	page.Baseline = "role=" + payloadImg // shown as text only
	tb := openPage(t, writePage(t, page))
	name := page.Plots[0].Name

	// visibleRepeats counts the points with n>1 that are drawn.
	visibleRepeats := func(dominated bool) int {
		n := 0
		for _, s := range page.Plots[0].Series {
			for j, r := range s.R {
				if len(r.M) > 1 && (dominated || s.S[j] == StatusFrontier) {
					n++
				}
			}
		}
		return n
	}
	if got, want := eval[int](t, tb, `__pareto.errorBars[`+jsString(name)+`]`), visibleRepeats(false); got != want || want == 0 {
		t.Errorf("drew %d error bars; want %d (frontier points with n>1)", got, want)
	}
	if got := eval[int](t, tb, `__pareto.baselineDrawn[`+jsString(name)+`]`); got != 1 {
		t.Errorf("drew %d baseline markers; want 1", got)
	}
	tb.do(t, chromedp.Click(chromedp.CSS(`#plot-0 .show-dominated`)))
	if got, want := eval[int](t, tb, `__pareto.errorBars[`+jsString(name)+`]`), visibleRepeats(true); got != want {
		t.Errorf("with dominated points: drew %d error bars; want %d", got, want)
	}
	legend, _ := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .legend`)))
	if !strings.Contains(legend, "baseline: role="+payloadImg) {
		t.Errorf("legend lacks the baseline entry: %q", legend)
	}

	// Click the tp4 point (n=3): the details show n, the spread and Δ.
	xy := eval[[]float64](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0];
		c.canvas.scrollIntoView(); var r=c.canvas.getBoundingClientRect(); return [r.left+c.px(s.x[1],'x'), r.top+c.px(s.y[1],'y')];})()`)
	tb.do(t, chromedp.MouseClickXY(xy[0], xy[1]))
	details, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vllm.tp4", "n=3, median of the repeats", "min–max 80–90", "IQR 82.5–87.5",
		"Δ X vs baseline", "−22.7%, better (baseline 110 ms, n=3)", "Δ Y vs baseline", "+25%, better", "vllm.tp8-0, vllm.tp8-1, vllm.tp8-2"} {
		if !strings.Contains(details, want) {
			t.Errorf("details lack %q:\n%s", want, details)
		}
	}

	// The table has n and a Δ column per axis.
	cells := eval[[]string](t, tb, `Array.from(document.querySelectorAll('#plot-0 tbody tr.selected td')).map(function(td){return td.className+'='+td.textContent;})`)
	joined := strings.Join(cells, " | ")
	for _, want := range []string{"num n=3", "num dx=−22.7%", "num dy=+25%"} {
		if !strings.Contains(joined, want) {
			t.Errorf("selected table row lacks %q: %s", want, joined)
		}
	}

	// The TP2 frontier has no baseline: no Δ in its row.
	if got := eval[string](t, tb, `Array.from(document.querySelectorAll('#plot-0 tbody tr')).filter(function(tr){return tr.querySelector('td.series').textContent==='TP2';}).map(function(tr){return tr.querySelector('td.dx').textContent+tr.querySelector('td.dy').textContent;}).join('')`); got != "" {
		t.Errorf("TP2 row shows Δ %q; want none", got)
	}
	// The view fits the whiskers.
	if !eval[bool](t, tb, `(function(){var c=__pareto.charts[1]; return c.view.y[0] < 3 && c.view.y[1] > 5 && c.view.x[0] < 80;})()`) {
		t.Errorf("view does not fit the error bars: %v", eval[any](t, tb, `__pareto.charts[1].view`))
	}

	// The second plot: the baseline has no request throughput.
	eval[bool](t, tb, `(__pareto.charts[1].select(0, 0), true)`)
	details, _ = chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-1 .details`)))
	if !strings.Contains(details, "no delta: the baseline has no request_throughput value") {
		t.Errorf("details lack the missing baseline value:\n%s", details)
	}

	// The SVG export draws the error bars and the baseline marker.
	svg := eval[string](t, tb, `__pareto.svg(0)`)
	if strings.Count(svg, `class="error-bar"`) < 8*visibleRepeats(true) || strings.Count(svg, `class="baseline-marker"`) != 1 || strings.Contains(svg, "<img") {
		t.Errorf("svg export lacks error bars or the baseline marker: %.300s", svg)
	}
	checkInert(t, tb)
	tb.screenshot(t, "repeats")
	tb.finish(t)
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
