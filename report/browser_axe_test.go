package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// axeViolation is one rule axe-core finds broken on a page.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// TestBrowserAxe runs axe-core (third-party, fetched at test time by
// testenv.Axe, never committed) on the example pages — the worked noise
// example and the CloudAI example — in the light and the dark theme, with
// a point pinned and the simulator open: no serious or critical violation.
func TestBrowserAxe(t *testing.T) {
	testenv.Chromium(t)
	src := testenv.Axe(t)
	pages := map[string]*Page{"noise": examplePage(t)}
	t.Chdir("report") // examplePage moved to the repository root
	cloud, err := cloudaiExample(t, "test_case=vllm.agg.1node")
	if err != nil {
		t.Fatal(err)
	}
	pages["cloudai"] = cloud
	for _, name := range []string{"noise", "cloudai"} {
		path := writePage(t, pages[name])
		for _, dark := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s-dark=%v", name, dark), func(t *testing.T) {
				tb := openPage(t, path, view{width: 1400, height: 900, dark: dark})
				eval[bool](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0]; c.select(0, s.line[0], 'test');
					c.simulator.root.open=true; c.simulator.update(); return true;})()`)
				if _, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](src+";true")); err != nil {
					t.Fatalf("injecting axe-core: %v", err)
				}
				vs, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {resultTypes: ['violations']}).then(function(r){return r.violations;})`, chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("running axe-core: %v", err)
				}
				for _, v := range vs {
					var where []string
					for _, n := range v.Nodes[:min(len(v.Nodes), 3)] {
						where = append(where, fmt.Sprint(n.Target)+": "+strings.ReplaceAll(n.Summary, "\n", " "))
					}
					msg := fmt.Sprintf("%s (%s, %d nodes): %s; %s", v.ID, v.Impact, len(v.Nodes), v.Help, strings.Join(where, " | "))
					if v.Impact == "serious" || v.Impact == "critical" {
						t.Error(msg)
					} else {
						t.Log(msg)
					}
				}
				tb.finish(t)
			})
		}
	}
}

// TestBrowserAccessibility checks what axe-core does not: the measurements
// table is one Tab stop (arrow keys move inside it), skip links come
// first, the drag-mode buttons are toggle buttons in a group, a pin (not
// a hover) is announced in a polite live region, and every series colour
// has at least 3:1 contrast with the background in both themes.
func TestBrowserAccessibility(t *testing.T) {
	testenv.Chromium(t)
	page := examplePage(t)
	path := writePage(t, page)
	for _, dark := range []bool{false, true} {
		tb := openPage(t, path, view{width: 1400, height: 900, dark: dark})
		if n := eval[int](t, tb, `document.querySelector('#plot-0 .table-wrap table').querySelectorAll('[tabindex="0"]').length`); n != 1 {
			t.Errorf("the measurements table has %d Tab stops; want 1", n)
		}
		moved := eval[string](t, tb, `(function(){var tb=document.querySelector('#plot-0 .table-wrap table'), r=tb.tBodies[0].rows;
			r[0].focus(); r[0].dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowDown',bubbles:true}));
			var a=document.activeElement===r[1] && r[1].getAttribute('tabindex')==='0' && r[0].getAttribute('tabindex')==='-1';
			r[1].dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowUp',bubbles:true}));
			r[0].dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowUp',bubbles:true}));
			var b=document.activeElement.tagName==='TH';
			return a+','+b;})()`)
		if moved != "true,true" {
			t.Errorf("arrow keys in the table: down moves the Tab stop %s, up from the first row reaches the headers %s", moved[:4], moved[5:])
		}
		first := eval[string](t, tb, `(function(){var f=document.body.firstElementChild; return f.tagName+' '+f.querySelectorAll('a').length+' '+f.querySelector('a').textContent;})()`)
		if !strings.HasPrefix(first, "NAV ") || !strings.Contains(first, "Skip to") {
			t.Errorf("the page does not start with skip links: %q", first)
		}
		if role := eval[string](t, tb, `document.querySelector('#plot-0 .modes').getAttribute('role')+' '+document.querySelectorAll('#plot-0 .modes button[aria-pressed]').length`); role != "group 2" {
			t.Errorf("drag modes: %q; want a group of two toggle buttons", role)
		}
		live := eval[string](t, tb, `(function(){var c=__pareto.charts[0], b=c.box;
			c.canvas.dispatchEvent(new MouseEvent('mousemove',{clientX:c.canvas.getBoundingClientRect().left+c.px(c.plot.series[0].x[c.plot.series[0].line[0]],'x'), clientY:c.canvas.getBoundingClientRect().top+c.px(c.plot.series[0].y[c.plot.series[0].line[0]],'y'), bubbles:true}));
			var hover=c.announce.textContent, tip=c.tip.getAttribute('aria-hidden')+' '+(c.tip.getAttribute('role')||'-');
			c.select(0, c.plot.series[0].line[0], 'test');
			return hover+'|'+tip+'|'+c.announce.getAttribute('aria-live')+'|'+c.announce.textContent;})()`)
		parts := strings.Split(live, "|")
		if len(parts) != 4 || parts[0] != "" || parts[1] != "true -" || parts[2] != "polite" || !strings.HasPrefix(parts[3], "Pinned ") {
			t.Errorf("live region after a hover and a pin: %q", live)
		}
		pal := eval[map[string][]string](t, tb, `__pareto.palette`)
		bg := eval[string](t, tb, `getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()`)
		theme := map[bool]string{false: "light", true: "dark"}[dark]
		for _, c := range pal[theme] {
			if r := contrast(c, bg); r < 3 {
				t.Errorf("%s theme: series colour %s has %.2f:1 contrast on %s; want ≥ 3", theme, c, r, bg)
			}
		}
		tb.finish(t)
	}
}

// contrast is the WCAG contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	lum := func(h string) float64 {
		var r, g, bl int
		fmt.Sscanf(strings.TrimPrefix(h, "#"), "%02x%02x%02x", &r, &g, &bl)
		f := func(c int) float64 {
			v := float64(c) / 255
			if v <= 0.03928 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*f(r) + 0.7152*f(g) + 0.0722*f(bl)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
