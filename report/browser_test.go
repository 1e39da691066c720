package report

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// tab is one page under test with its console errors and network requests.
type tab struct {
	ctx context.Context
	// loaded is the time from navigating to data-state="ready".
	loaded   time.Duration
	mu       sync.Mutex
	errors   []string
	requests []string
}

// view says how a page is shown: the window size and the colour scheme.
type view struct {
	width, height int
	dark          bool
}

// desktop is the default view: 1400×900, light.
var desktop = view{width: 1400, height: 900}

// openPage starts Chromium with the network disabled and loads the report
// at path from file:// in v (desktop when omitted), waiting until the page
// says it is ready (data-state="ready" on <html>); a script error fails at
// once with the console.
func openPage(t *testing.T, path string, vs ...view) *tab {
	t.Helper()
	v := desktop
	if len(vs) > 0 {
		v = vs[0]
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(testenv.Chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(v.width, v.height),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	tb := &tab{ctx: ctx}
	if err := chromedp.Do(ctx, offline(), chromedp.EmulateViewport(int64(v.width), int64(v.height)), colorScheme(v.dark)); err != nil {
		t.Fatalf("setting up the tab: %v", err)
	}
	go tb.watchConsole()
	go tb.watchRequests()
	abs, _ := filepath.Abs(path)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute('data-state') || ''`))
		if err == nil && state == "ready" {
			break
		}
		if errs := tb.consoleErrors(); len(errs) > 0 {
			t.Fatalf("page failed before it was ready: %q", errs)
		}
		if time.Now().After(deadline) {
			t.Fatalf("page never became ready (state %q, %v)", state, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	tb.loaded = time.Since(start)
	return tb
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(dark bool) chromedp.Action[chromedp.Void] {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// offline enables network events and emulates a disconnected network.
func offline() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}})
		if err != nil {
			return chromedp.Void{}, err
		}
		_, err = cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		return chromedp.Void{}, err
	}
}

func (tb *tab) watchConsole() {
	for m, err := range chromedp.Console(tb.ctx) {
		if err != nil {
			return
		}
		if m.IsException() || m.Type == "error" || m.Type == "assert" {
			tb.mu.Lock()
			tb.errors = append(tb.errors, m.String())
			tb.mu.Unlock()
		}
	}
}

func (tb *tab) watchRequests() {
	for ev, err := range chromedp.Events(tb.ctx, network.RequestWillBeSent) {
		if err != nil {
			return
		}
		tb.mu.Lock()
		tb.requests = append(tb.requests, ev.Request.URL)
		tb.mu.Unlock()
	}
}

func (tb *tab) consoleErrors() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errors...)
}

// externalRequests lists requests other than the page itself.
func (tb *tab) externalRequests() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, u := range tb.requests {
		if !strings.HasPrefix(u, "file://") {
			out = append(out, u)
		}
	}
	return out
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, tb *tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func (tb *tab) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// screenshot saves a full-page PNG in the test's artifact directory (kept
// with go test -artifacts, removed otherwise), never in the checkout.
func (tb *tab) screenshot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	tb.savePNG(t, name, png)
}

// savePNG writes a screenshot to the test's artifact directory and to
// $PARETO_SHOTS when set.
func (tb *tab) savePNG(t *testing.T, name string, png []byte) {
	t.Helper()
	path := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("screenshot: %v", err)
	}
	// PARETO_SHOTS names a directory that keeps a copy, for looking at.
	if dir := os.Getenv("PARETO_SHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
}

// windowShot saves a PNG of the window as it is (sticky and fixed parts
// where the user sees them), like screenshot.
func (tb *tab) windowShot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	tb.savePNG(t, name, png)
}

// finish checks that the page logged no error and loaded nothing.
func (tb *tab) finish(t *testing.T) {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
	if errs := tb.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	if reqs := tb.externalRequests(); len(reqs) > 0 {
		t.Errorf("network requests: %q", reqs)
	}
}

// writePage renders page to a temporary file.
func writePage(t *testing.T, page *Page) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pareto.html")
	if err := WriteFile(path, page); err != nil {
		t.Fatal(err)
	}
	return path
}

// perfChildEnv, in the environment of a child process of the test
// binary, names the file to write the 100,000-point page to (see
// TestMain).
const perfChildEnv = "PARETO_REPORT_PERF_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(perfChildEnv); path != "" {
		os.Exit(perfChild(path))
	}
	os.Exit(m.Run())
}

// perfChild writes the 100,000-point page the way pareto report does (the
// command's GC policy, a collection once the trials are read, Build,
// WriteFile), so that the parent can measure its time and peak memory.
func perfChild(path string) int {
	gcpolicy.Batch(os.Getenv)
	start := time.Now()
	ts, cfg := syntheticTrials(100_000)
	made := time.Now()
	runtime.GC() // as writeReport does after reading
	page, err := Build(cfg, ts, nil, Options{})
	built := time.Now()
	if err == nil {
		err = WriteFile(path, page)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("trials %.2f s, build %.2f s, write %.2f s\n", made.Sub(start).Seconds(), built.Sub(made).Seconds(), time.Since(built).Seconds())
	return 0
}

// TestBrowserPerf100k measures the 100,000-point page: writing it (a child
// process: wall time and peak RSS), its size, and opening it in headless
// Chromium until data-state="ready". The figures are printed (and kept in
// docs/PERFORMANCE.md); only the size, which does not depend on the
// machine's load, is asserted.
func TestBrowserPerf100k(t *testing.T) {
	testenv.Chromium(t)
	path := filepath.Join(t.TempDir(), "pareto.html")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), perfChildEnv+"="+path)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("writing the page: %v\n%s", err, out)
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	rss := ru.Maxrss // KiB on Linux
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 12<<20 {
		t.Errorf("the 100,000-point page is %d bytes; want at most 12 MiB", st.Size())
	}
	tb := openPage(t, path)
	script := eval[float64](t, tb, `window.__pareto.renderMs`)
	parts := eval[map[string]float64](t, tb, `window.__pareto.timings`)
	ready := eval[float64](t, tb, `window.__pareto.readyMs`)
	redraw := eval[float64](t, tb, `(function(){var t=performance.now(); window.__pareto.setShowDominated(true); return performance.now()-t;})()`)
	drawn := eval[map[string]map[string]int](t, tb, `window.__pareto.drawnDominated`)
	total := 0
	for _, s := range drawn {
		for _, n := range s {
			total += n
		}
	}
	simAt := func(sx, dx, sy, dy float64) (float64, string) {
		v := eval[[]any](t, tb, fmt.Sprintf(`(function(){var c=__pareto.charts[0], m=c.simulator; m.root.open=true; m.p={sx:%v,dx:%v,sy:%v,dy:%v}; m.update();
			return [__pareto.simMs, (Object.keys(c.sim.skipped).length ? 'series not simulated: '+Object.keys(c.sim.skipped).length : 'all simulated')+' '+JSON.stringify(__pareto.simParts)];})()`, sx, dx, sy, dy))
		return v[0].(float64), v[1].(string)
	}
	sim, simNote := simAt(0.05, 0.02, 0, 0)
	cyc, cycNote := simAt(0.1, 0.01, 0.1, 0.01)
	msg := fmt.Sprintf("100000 points: written in %.2f s wall, %.2f s CPU (a child process: %s) with %d MB peak RSS; html %.1f MB; "+
		"opened to data-state=ready in %.0f ms (navigation start to ready %.0f ms, script %.0f ms: %s); drawing all %d dominated points %.0f ms; "+
		"simulator recompute (σx 5%%, δx 2%%: acyclic) %.0f ms (%s), (σ 10%%, δ 1%% on both: cyclic) %.0f ms (%s)",
		wall.Seconds(), cpu.Seconds(), strings.TrimSpace(string(out)), rss/1024, float64(st.Size())/1e6, float64(tb.loaded.Milliseconds()), ready, script, fmtParts(parts), total, redraw, sim, simNote, cyc, cycNote)
	t.Log(msg)
	fmt.Println("browser:", msg)
	tb.screenshot(t, "perf100k")
	tb.finish(t)
}

// fmtParts renders timings in milliseconds, sorted by name.
func fmtParts(m map[string]float64) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %.0f", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// syntheticPage builds a page of n points in four cases on a latency vs
// throughput trade-off.
func syntheticPage(t testing.TB, n int) *Page {
	ts, cfg := syntheticTrials(n)
	page, err := Build(cfg, ts, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// syntheticTrials returns n trials in four cases on a latency vs
// throughput trade-off, each its own configuration, and a plot of two
// frontiers over them.
func syntheticTrials(n int) ([]Trial, *Config) {
	rng := rand.New(rand.NewPCG(1, 2))
	ts := make([]Trial, n)
	for i := range ts {
		c := fmt.Sprintf("case%d", i%4)
		lat := 10 + rng.Float64()*990
		tput := 5000 * (1 - math.Exp(-lat/300)) * (0.5 + 0.5*rng.Float64())
		var tr trial.Trial
		tr.ID = fmt.Sprintf("t%06d", i)
		tr.SetLabel(trial.LabelTestCase, c)
		tr.SetLabel(trial.LabelIteration, fmt.Sprint(i/4))
		tr.SetParam("max_num_seqs", fmt.Sprint(i)) // no repeats
		tr.Measurements = []trial.Measurement{
			{Metric: trial.OutputTokenThroughput, Value: tput},
			{Metric: trial.TTFT, Dims: trial.StatDims("p99"), Value: lat},
		}
		ts[i] = tr
	}
	cfg, err := ParseConfig("pareto.toml", []byte(`[reports.pareto]
[[reports.pareto.plots]]
name = "synthetic"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "A", cases = ["case0", "case1"] }, { name = "B", cases = ["case2", "case3"] }]
`))
	if err != nil {
		panic(err)
	}
	return ts, cfg
}
