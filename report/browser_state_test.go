package report

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestBrowserViewInURL sets a view on a chart — a zoom, a log Y axis, a
// hidden series, the dominated points, a pinned point, the simulator open
// at other settings — and reloads the page: the URL fragment brings every
// part of it back. Then it exports the view: the CSV holds exactly the
// points of the visible series the chart shows within the view, and the
// PNG is the canvas.
func TestBrowserViewInURL(t *testing.T) {
	testenv.Chromium(t)
	ts, cfg := syntheticTrials(3_000)
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := openPage(t, writePage(t, page))
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0];
		c.root.querySelector('input.log-y').click();
		c.root.querySelector('.legend button[data-series="1"]').click();
		c.setShowDominated(true);
		c.view={x:[100,600], y:[Math.log10(800), Math.log10(4000)]}; c.auto=false; c.draw();
		var s=c.plot.series[0]; c.select(0, s.line[2], 'test');
		var m=c.simulator; m.root.open=true; m.p={sx:0.03,dx:0.01,sy:0.02,dy:0.005}; m.update();
		return true;})()`)
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`/sim=/.test(location.hash) && /pin=/.test(location.hash)`, chromedp.WithPollingTimeout(3*time.Second))); err != nil {
		t.Fatalf("the view is not in the URL: %q", eval[string](t, tb, `location.hash`))
	}
	hash := eval[string](t, tb, `location.hash`)
	before := eval[string](t, tb, `JSON.stringify((function(c){return {v:c.view, log:c.log, hidden:c.hidden, dom:c.showDominated, pin:c.selected, sim:c.simulator.root.open && c.simulator.p, front:c.sim && c.sim.series[0].frontier};})(__pareto.charts[0]))`)
	eval[bool](t, tb, `(window.__old = true, location.reload(), true)`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`window.__old ? '' : document.documentElement.getAttribute('data-state') || ''`)); err == nil && s == "ready" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the reloaded page never became ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
	after := eval[string](t, tb, `JSON.stringify((function(c){return {v:c.view, log:c.log, hidden:c.hidden, dom:c.showDominated, pin:c.selected, sim:c.simulator.root.open && c.simulator.p, front:c.sim && c.sim.series[0].frontier};})(__pareto.charts[0]))`)
	if after != before {
		t.Errorf("after a reload at %s the chart is\n%s\nwant\n%s", hash, after, before)
	}
	if got := eval[string](t, tb, `location.hash`); got != hash {
		t.Errorf("the reloaded page rewrote the fragment %q as %q", hash, got)
	}
	// A fragment that is not the page's changes nothing and breaks nothing.
	eval[bool](t, tb, `(history.replaceState(null,'',location.pathname+'#c0.v=1,0,x,2&c0.pin=9,99999&c0.hide=%3Cb%3E&c0.sim=-1,x&c9.dom=1'), __pareto.restoreState(), true)`)
	if got := eval[string](t, tb, `JSON.stringify({pin: __pareto.charts[0].selected, p: __pareto.charts[0].simulator.p})`); got != `{"pin":{"s":0,"i":465},"p":{"sx":0.03,"dx":0.01,"sy":0.02,"dy":0.005}}` {
		t.Errorf("a fragment that points at nothing changed the chart: %s", got)
	}
	// Back to the view the CSV test reads.
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0]; c.view={x:[100,600], y:[Math.log10(800), Math.log10(4000)]}; c.auto=false; c.draw(); return true;})()`)

	// CSV of the view: series A only (B is hidden), every point shown
	// (frontier, dominated, infeasible) within the view.
	text := eval[string](t, tb, `__pareto.csv(0)`)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("the CSV export does not parse (%v): %q", err, text[:min(len(text), 300)])
	}
	if strings.Join(rows[0], ",") != "series,id,case,TTFT (p99) (ms),Output token throughput (tokens/s),status" && rows[0][0] != "series" {
		t.Errorf("CSV header %q", rows[0])
	}
	s := page.Plots[0].Series[0]
	want := 0
	for j := range s.X {
		if s.X[j] >= 100 && s.X[j] <= 600 && s.Y[j] >= 800 && s.Y[j] <= 4000 {
			want++
		}
	}
	if len(rows)-1 != want {
		t.Errorf("the CSV export has %d points; the view holds %d of series A", len(rows)-1, want)
	}
	for _, r := range rows[1:] {
		x, _ := strconv.ParseFloat(r[3], 64)
		y, _ := strconv.ParseFloat(r[4], 64)
		if r[0] != "A" || x < 100 || x > 600 || y < 800 || y > 4000 || !strings.HasPrefix(r[1], "t") {
			t.Fatalf("CSV row %q is not a point of series A in the view", r)
		}
	}
	// PNG: the canvas as it is drawn.
	url := eval[string](t, tb, `__pareto.png(0)`)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if err != nil {
		t.Fatalf("the PNG export is no base64 PNG: %.60q", url)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the PNG export does not decode: %v", err)
	}
	w := eval[int](t, tb, `__pareto.charts[0].canvas.width`)
	if img.Bounds().Dx() != w || math.Abs(float64(img.Bounds().Dy())-float64(eval[int](t, tb, `__pareto.charts[0].canvas.height`))) > 0 {
		t.Errorf("the PNG is %v; the canvas %d wide", img.Bounds(), w)
	}
	if n := eval[int](t, tb, `document.querySelectorAll('#plot-0 button.export-png, #plot-0 button.export-csv').length`); n != 2 {
		t.Errorf("%d export buttons; want PNG and CSV", n)
	}
	tb.finish(t)
}
