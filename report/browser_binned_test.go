package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/table"
)

// TestBrowserBinnedByTableID: the trials of a generic table that a
// density layer bins are found by the table's own id column, on a page
// built from the trials (their IDs and names on the page) and on one
// recorded column by column (Records.AddTable, their names alone), and
// the legend and the table count them.
func TestBrowserBinnedByTableID(t *testing.T) {
	testenv.Chromium(t)
	var b strings.Builder
	b.WriteString("id,ttft_ms,tps\n")
	for i := range 3000 {
		x := 20 + float64((i*7919)%3000)/3
		fmt.Fprintf(&b, "row-%05d,%.3f,%.2f\n", i, x, x*(2+float64((i*104729)%1000)/500))
	}
	data := []byte(b.String())
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
	opts := Options{DensityBound: 200}
	ts, err := ingest.ReadTable(data, "runs/bench.csv", ingest.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fromTrials, err := Build(cfg, ts, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	recs := NewRecords(cfg, opts)
	spec, ok := recs.TableSpec()
	if !ok {
		t.Fatal("the table's axes are not columns")
	}
	tab, err := table.ReadBytes(data, "runs/bench.csv", spec)
	if err != nil {
		t.Fatal(err)
	}
	if !recs.AddTable(tab, spec) {
		t.Fatal("AddTable refused the table")
	}
	plan, err := recs.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := ingest.ReadTable(data, "runs/bench.csv", ingest.TableOptions{Rows: func(_ string, r int) bool { return plan.Listed(r) }})
	if err != nil {
		t.Fatal(err)
	}
	fromColumns, err := plan.PageOf(listed)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		page *Page
		ids  bool // the binned trials' IDs are on the page
	}{{"trials", fromTrials, true}, {"columns", fromColumns, false}} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.page.Plots[0].Series[0].D
			if d == nil || d.N == 0 || len(d.Names) != len(d.Cell) {
				t.Fatalf("density layer %+v; want binned trials, each named", d)
			}
			if (len(d.IDs) > 0) != tc.ids {
				t.Fatalf("%d binned IDs on the page; want them: %v", len(d.IDs), tc.ids)
			}
			name := d.Names[len(d.Names)/2]
			tb := openPage(t, writePage(t, tc.page))
			found := eval[map[string]int](t, tb, fmt.Sprintf(`(function(){var i=document.querySelector('#plot-0 input.find-id'); i.value=%q; i.dispatchEvent(new Event('input')); return window.__pareto.found;})()`, name))
			if found["binned"] != 1 || found["rows"] != 0 {
				t.Errorf("searching for %s finds %v; want the one binned trial", name, found)
			}
			note := eval[string](t, tb, `document.querySelector('#plot-0 .find-binned').textContent`)
			if !strings.Contains(note, "1 binned trial(s) match") || !strings.Contains(note, name) {
				t.Errorf("the search says %q; want it to name %s", note, name)
			}
			n := commas(d.N)
			if legend := eval[string](t, tb, `document.querySelector('#plot-0 .legend').textContent`); !strings.Contains(legend, "+ "+n+" binned") {
				t.Errorf("the legend says %q; want + %s binned", legend, n)
			}
			if foot := eval[string](t, tb, `document.querySelector('#plot-0').textContent`); !strings.Contains(foot, n+" more trial(s) are binned") {
				t.Errorf("the plot's section does not say %s more trial(s) are binned", n)
			}
			tb.finish(t)
		})
	}
}
