package report

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestBrowserTableFollowsSimulator: the measurements table's status
// column shows the simulator's statuses while its panel is open and the
// report's once it is closed; the rows of a generic table are named by
// their trial ID (and file and line), not by the file alone.
func TestBrowserTableFollowsSimulator(t *testing.T) {
	testenv.Chromium(t)
	ts, err := ingest.ReadTable([]byte("id,ttft_ms,tps\nfast,100,1000\nbig,105,1050\nslow,300,900\n"), "runs/bench.csv", ingest.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "table"
x = { metric = "ttft_ms", direction = "minimize" }
y = { metric = "tps", direction = "maximize" }
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.CheckMetrics([]string{"ttft_ms", "tps"}); err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := openPage(t, writePage(t, page))
	statuses := `Array.from(document.querySelectorAll('#plot-0 .table-wrap tbody td.status')).map(function(td){return td.textContent;}).join('|')`
	before := eval[string](t, tb, statuses)
	if strings.Count(before, "frontier") != 2 {
		t.Fatalf("the report's statuses %q; want fast and big on the frontier", before)
	}
	// A bound on X of 102 ms in the simulator makes big (105 ms)
	// infeasible; the table says so while the panel is open.
	eval[bool](t, tb, `(function(){var m=__pareto.charts[0].simulator; m.root.open=true; m.axisBounds[0].on=true; m.axisBounds[0].bound=102; m.update(); return true;})()`)
	during := eval[string](t, tb, statuses)
	if !strings.Contains(during, "infeasible") {
		t.Errorf("with an X bound of 102 ms the table says %q; want big infeasible", during)
	}
	eval[bool](t, tb, `(function(){var m=__pareto.charts[0].simulator; m.root.open=false; m.update(); return true;})()`)
	if after := eval[string](t, tb, statuses); after != before {
		t.Errorf("with the simulator closed the table says %q; want the report's %q", after, before)
	}
	name := eval[string](t, tb, `(function(){var c=__pareto.charts[0], s=c.plot.series[0]; c.select(0, s.line[0], 'test'); return c.announce.textContent;})()`)
	if !strings.Contains(name, "fast · bench.csv:2") {
		t.Errorf("a generic table's point is announced as %q; want its ID, file and line (fast · bench.csv:2)", name)
	}
	// The search finds a row by its table's id.
	eval[bool](t, tb, `(function(){var i=document.querySelector('#plot-0 input.find-id'); i.value='big'; i.dispatchEvent(new Event('input')); return true;})()`)
	if rows := eval[string](t, tb, `Array.from(document.querySelectorAll('#plot-0 .table-wrap tbody td.id')).map(function(td){return td.textContent;}).join('|')`); rows != "big" {
		t.Errorf("searching for big shows %q", rows)
	}
	tb.finish(t)
}

// TestBrowserBaselineLabelOnce: on the CloudAI example the baseline is a
// point of two series (its engine's and "All configurations"): two
// markers, one "baseline" label.
func TestBrowserBaselineLabelOnce(t *testing.T) {
	testenv.Chromium(t)
	page, err := cloudaiExample(t, "test_case=vllm.agg.1node")
	if err != nil {
		t.Fatal(err)
	}
	tb := openPage(t, writePage(t, page))
	svg := eval[string](t, tb, `__pareto.svg(0)`)
	markers, labels := strings.Count(svg, `class="baseline-marker"`), strings.Count(svg, `class="baseline-label"`)
	if markers < 2 || labels != 1 {
		t.Errorf("%d baseline markers with %d labels; want the shared baseline labelled once", markers, labels)
	}
	tb.finish(t)
}
