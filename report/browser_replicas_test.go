package report

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// TestBrowserReplicaLayout: a real vLLM result given --gpus 2x4 shows its
// layout in the point details as given (2 instances of 4 GPUs), with no
// node count or parallel sizes it does not know.
func TestBrowserReplicaLayout(t *testing.T) {
	testenv.Chromium(t)
	d, err := ingest.Load([]string{"../ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json"},
		ingest.LoadOptions{GPUs: trial.GPUs{Total: 8, Replicas: 2}})
	if err != nil || len(d.Trials) != 1 {
		t.Fatalf("%v, %d trials", err, len(d.Trials))
	}
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "per GPU"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput_per_serving_gpu" }
`))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(cfg, d.Trials, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := openPage(t, writePage(t, page))
	eval[bool](t, tb, `(function(){var c=__pareto.charts[0]; c.select(0, c.plot.series[0].line[0]); return true;})()`)
	details, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(`#plot-0 .details`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"aggregated, vllm", "2 instance(s); 4 GPU(s) per instance", "222.5"} {
		if !strings.Contains(details, want) {
			t.Errorf("details lack %q:\n%s", want, details)
		}
	}
	for _, not := range []string{"TP=0", "0 node(s)"} {
		if strings.Contains(details, not) {
			t.Errorf("details show %q, which is not known:\n%s", not, details)
		}
	}
	tb.finish(t)
}
