package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// simSetting is one setting of a page's simulator: the noise bands and
// minimum improvements of both axes.
type simSetting struct {
	SX float64 `json:"sx"`
	DX float64 `json:"dx"`
	SY float64 `json:"sy"`
	DY float64 `json:"dy"`
}

// simSeriesAnswer is what the page's simulator shows for one series: the
// trial IDs on the frontier and those it marks invalid, and whether it
// says it cannot answer exactly.
type simSeriesAnswer struct {
	Frontier []string `json:"frontier"`
	Invalid  []string `json:"invalid"`
	Inexact  bool     `json:"inexact"`
	// Skipped says the page gave up: too many points in dominance cycles
	// to sort out in time (the simulator shows the report's frontier and
	// says so).
	Skipped bool `json:"skipped"`
}

// TestBrowserSimulatorMatchesFront builds pages of 2,000 to 100,000
// points, with and without density layers and with values of 0 (invalid
// only under a band), opens them, moves each page's simulator to random
// settings within the range its sliders offer (the report's own among
// them), and compares what the simulator shows with the engine
// (frontier.Analyze, what pareto front runs) on every point of the
// series, binned ones included: the frontier and the invalid points, by
// trial ID. A setting the page says it cannot answer exactly (or in time)
// is counted, not compared; there must be few of them.
func TestBrowserSimulatorMatchesFront(t *testing.T) {
	testenv.Chromium(t)
	type pageCase struct {
		name     string
		n, bound int
		noise    [2][2]float64 // σ, δ of x and y at build
		zeros    bool
		settings int
	}
	cases := []pageCase{
		{"n1e5_noise", 100_000, 0, [2][2]float64{{0.02, 0.08}, {0.02, 0.08}}, false, 70},
		{"n1e5_raw", 100_000, 0, [2][2]float64{}, true, 50},
		{"n3e4_bound2000", 30_000, 2_000, [2][2]float64{{0.05, 0.01}, {0, 0}}, true, 50},
		{"n2000_zeros", 2_000, 0, [2][2]float64{{0.03, 0}, {0.03, 0.02}}, true, 40},
	}
	rng := rand.New(rand.NewPCG(28, 2))
	compared, inexact, skipped, binnedPages := 0, 0, 0, 0
	for _, pc := range cases {
		t.Run(pc.name, func(t *testing.T) {
			start := time.Now()
			ts := syntheticSim(pc.n, pc.zeros)
			cfg := syntheticConfig(t, pc.noise)
			page, err := Build(cfg, ts, nil, Options{DensityBound: pc.bound})
			if err != nil {
				t.Fatal(err)
			}
			full, err := Build(cfg, ts, nil, Options{DensityBound: -1})
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(page.Plots[0].Series, func(s Series) bool { return s.D != nil }) {
				binnedPages++
			}
			built := time.Since(start)
			tb := openPage(t, writePage(t, page))
			caps := eval[map[string]float64](t, tb, `(function(){var c=__pareto.charts[0].simulator.caps; return c ? {sx:c.sx,dx:c.dx,sy:c.sy,dy:c.dy} : {sx:0.3,dx:0.3,sy:0.3,dy:0.3};})()`)
			settings := []simSetting{{pc.noise[0][0], pc.noise[0][1], pc.noise[1][0], pc.noise[1][1]}, {}}
			for len(settings) < pc.settings {
				draw := func(top float64) float64 {
					switch rng.IntN(5) {
					case 0:
						return 0
					case 1:
						return top
					}
					return math.Round(rng.Float64()*top*1e4) / 1e4
				}
				settings = append(settings, simSetting{draw(caps["sx"]), draw(caps["dx"]), draw(caps["sy"]), draw(caps["dy"])})
			}
			in, _ := json.Marshal(settings)
			opened := time.Since(start)
			got := eval[[][]simSeriesAnswer](t, tb, `(function(settings){var c=__pareto.charts[0], m=c.simulator, id=function(k){return __pareto.point(k).id;};
			return settings.map(function(p){ m.p={sx:p.sx,dx:p.dx,sy:p.sy,dy:p.dy}; var out=m.compute();
				return c.plot.series.map(function(s,si){ var st=out.series[si], inv=[];
					for (var i=0;i<s.x.length;i++) { if (st.s[i]===3) { inv.push(id(s.p[i])); } }
					return {frontier: st.line.map(function(i){return id(s.p[i]);}).sort(), invalid: inv.sort(), inexact: !!out.inexact[si], skipped: si in out.skipped}; }); });
		})(`+string(in)+`)`)
			simulated := time.Since(start)
			for k, set := range settings {
				for si, fs := range full.Plots[0].Series {
					g := got[k][si]
					if g.Inexact || g.Skipped {
						inexact++
						if g.Skipped {
							skipped++
						}
						continue
					}
					front, invalid := engineAnswer(t, full, &fs, cfg, set)
					compared++
					if !slices.Equal(g.Frontier, front) || !slices.Equal(g.Invalid, invalid) {
						t.Errorf("%s, series %s, setting %+v: the simulator's frontier %d %v, invalid %d; pareto front's %d %v, invalid %d",
							pc.name, fs.Name, set, len(g.Frontier), head(g.Frontier), len(g.Invalid), len(front), head(front), len(invalid))
					}
				}
			}
			t.Logf("built in %v, opened at %v, simulated at %v, compared at %v", built, opened, simulated, time.Since(start))
			tb.finish(t)
		})
	}
	t.Logf("%d series settings compared, 0 mismatches unless listed above; %d the page says it cannot answer exactly (%d of them: too many points in cycles to sort out in time); %d pages with density layers",
		compared, inexact, skipped, binnedPages)
	if compared < 200 || binnedPages < 3 {
		t.Errorf("%d settings compared on %d pages with density layers; want at least 200 on 3", compared, binnedPages)
	}
	if inexact*10 > compared {
		t.Errorf("the page cannot answer %d of %d settings within its sliders' range", inexact, compared+inexact)
	}
}

func head(ids []string) []string { return ids[:min(len(ids), 8)] }

// engineAnswer runs the engine on every point of series s of the page
// built without a density layer, at setting set: the frontier's and the
// invalid points' trial IDs, sorted. It answers as frontier.Analyze does
// (the invalid rows first, then frontier.NoiseFront on the others), but
// calls NoiseFront itself: Analyze lists, for every member of a top
// cycle, every other member, which for a cycle of 10⁴ points is more
// memory than the test machine has.
func engineAnswer(t *testing.T, full *Page, s *Series, cfg *Config, set simSetting) (front, invalid []string) {
	t.Helper()
	objs := []frontier.Objective{
		{Name: "x", Direction: cfg.Plots[0].X.Direction, Noise: set.SX, MinImprove: set.DX},
		{Name: "y", Direction: cfg.Plots[0].Y.Direction, Noise: set.SY, MinImprove: set.DY}}
	var odd, valid []int32
	for j := range s.X {
		if !(s.X[j] > 0 && s.Y[j] > 0) || math.IsInf(s.X[j], 0) || math.IsInf(s.Y[j], 0) {
			odd = append(odd, int32(j))
		} else {
			valid = append(valid, int32(j))
		}
	}
	if len(odd) > 0 { // (Rows nil would be every row)
		res, err := frontier.Analyze(&frontier.Problem{Values: [][]float64{s.X, s.Y}, Objectives: objs, Rows: odd})
		if err != nil {
			t.Fatal(err)
		}
		bad := map[int32]bool{}
		for _, m := range res.Invalid {
			invalid = append(invalid, full.Points[s.P[m.Row]].ID)
			bad[m.Row] = true
		}
		for _, j := range odd {
			if !bad[j] {
				valid = append(valid, j)
			}
		}
	}
	data := make([]float64, 0, 2*len(valid))
	for _, j := range valid {
		data = append(data, s.X[j], s.Y[j])
	}
	for k, by := range frontier.NoiseFront(data, objs).By {
		if by < 0 {
			front = append(front, full.Points[s.P[valid[k]]].ID)
		}
	}
	slices.Sort(front)
	slices.Sort(invalid)
	return front, invalid
}

// syntheticSim is syntheticTrials with, when zeros is set, a few trials
// of TTFT 0 (invalid under a band on X, ranked without one).
func syntheticSim(n int, zeros bool) []Trial {
	ts, _ := syntheticTrials(n)
	if zeros {
		for i := 0; i < n; i += max(1, n/6) {
			for k := range ts[i].Measurements {
				if ts[i].Measurements[k].Metric == trial.TTFT {
					ts[i].Measurements[k].Value = 0
				}
			}
		}
	}
	return ts
}

// syntheticConfig is syntheticTrials' configuration with the noise bands
// and minimum improvements of noise.
func syntheticConfig(t *testing.T, noise [2][2]float64) *Config {
	t.Helper()
	cfg, err := ParseConfig("pareto.toml", fmt.Appendf(nil, `[reports.pareto]
[[reports.pareto.plots]]
name = "synthetic"
x = { metric = "ttft", match = { statistic = "p99" }, noise = %v, min_improve = %v }
y = { metric = "output_token_throughput", noise = %v, min_improve = %v }
frontiers = [{ name = "A", cases = ["case0", "case1"] }, { name = "B", cases = ["case2", "case3"] }]
`, noise[0][0], noise[0][1], noise[1][0], noise[1][1]))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
