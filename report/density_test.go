package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/testenv"
)

// TestDensityLayer builds a page of many dominated points with a small
// bound: the frontier is the one of the page without a bound, point for
// point; each series keeps its share of the bound of dominated points; the
// density layers stand for exactly the others; and the page lists only the
// points its series refer to.
func TestDensityLayer(t *testing.T) {
	const n, bound = 30_000, 2_000
	ts, cfg := syntheticTrials(n)
	full, err := Build(cfg, ts, nil, Options{DensityBound: -1})
	if err != nil {
		t.Fatal(err)
	}
	thin, err := Build(cfg, ts, nil, Options{DensityBound: bound})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Points) != n {
		t.Fatalf("the page without a bound has %d points; want %d", len(full.Points), n)
	}
	kept, stood := 0, 0
	for si, fs := range full.Plots[0].Series {
		ts := thin.Plots[0].Series[si]
		if ts.D == nil {
			t.Fatalf("series %s: no density layer", ts.Name)
		}
		if got, want := frontierIDs(thin, &ts), frontierIDs(full, &fs); !slices.Equal(got, want) {
			t.Errorf("series %s: frontier %v; want %v", ts.Name, got, want)
		}
		dom := countStatus(&ts, StatusDominated)
		kept += dom
		stood += ts.D.N
		if dom+ts.D.N != countStatus(&fs, StatusDominated) {
			t.Errorf("series %s: %d dominated points kept and %d in the density layer; want %d in all",
				ts.Name, dom, ts.D.N, countStatus(&fs, StatusDominated))
		}
		sum := 0
		for k := 2; k < len(ts.D.C); k += 3 {
			sum += int(ts.D.C[k])
		}
		if sum != ts.D.N {
			t.Errorf("series %s: the cells count %d points; the layer stands for %d", ts.Name, sum, ts.D.N)
		}
		for j, by := range ts.By {
			if by >= int32(len(ts.X)) || by == int32(j) {
				t.Fatalf("series %s: point %d is beaten by %d, not another point of the series", ts.Name, j, by)
			}
		}
	}
	// The cells whose best corner is within the margin keep their points:
	// a little more than the bound.
	if kept < bound-2 || kept > bound*3/2 {
		t.Errorf("%d dominated points kept; want about the bound, %d", kept, bound)
	}
	// Every binned point is worse than a feasible kept point of its series
	// by more than the margin on both axes, and so is its cell's corner.
	byID := map[string][2]float64{}
	for _, fs := range full.Plots[0].Series {
		for j, p := range fs.P {
			byID[full.Points[p].ID] = [2]float64{fs.X[j], fs.Y[j]}
		}
	}
	for _, ts := range thin.Plots[0].Series {
		d := ts.D
		if len(d.IDs) != d.N || len(d.Cell) != d.N || len(d.IX) != len(d.C)/3 || !(d.Margin >= minMargin && d.Margin <= maxMargin) {
			t.Fatalf("series %s: %d IDs, %d cells for %d binned points, %d corners for %d cells, margin %v", ts.Name, len(d.IDs), len(d.Cell), d.N, len(d.IX), len(d.C)/3, d.Margin)
		}
		covered := func(x, y float64) bool { // x minimised, y maximised
			for j := range ts.X {
				if ts.S[j] <= StatusDominated && ts.X[j]*(1+d.Margin) < x && ts.Y[j] > y*(1+d.Margin) {
					return true
				}
			}
			return false
		}
		for k, id := range d.IDs {
			v, ok := byID[id]
			c := d.Cell[k]
			if !ok || !covered(v[0], v[1]) || d.IX[c] > v[0] || d.IY[c] < v[1] {
				t.Fatalf("series %s: binned %s at %v is not beyond the margin %v of a kept point, or not within its cell's corner (%v, %v)", ts.Name, id, v, d.Margin, d.IX[c], d.IY[c])
			}
			if k%97 == 0 && !covered(d.IX[c], d.IY[c]) {
				t.Fatalf("series %s: the corner of cell %d is within the margin", ts.Name, c)
			}
		}
	}
	if want := len(thin.Plots[0].Series[0].X) + len(thin.Plots[0].Series[1].X); len(thin.Points) != want {
		t.Errorf("the page lists %d points; its series refer to %d", len(thin.Points), want)
	}
	for _, s := range thin.Plots[0].Series {
		for j, p := range s.P {
			if p < 0 || int(p) >= len(thin.Points) {
				t.Fatalf("series %s point %d refers to point %d of %d", s.Name, j, p, len(thin.Points))
			}
		}
	}
	if small, _ := Build(cfg, ts[:1000], nil, Options{DensityBound: bound}); slices.ContainsFunc(small.Plots[0].Series, func(s Series) bool { return s.D != nil }) {
		t.Error("a page within the bound has a density layer")
	}
	t.Logf("%d dominated points drawn, %d in the density layers", kept, stood)
}

// frontierIDs returns the trial IDs and values of the series' frontier
// in drawing order.
func frontierIDs(p *Page, s *Series) []string {
	var out []string
	for _, j := range s.Line {
		out = append(out, fmt.Sprint(p.Points[s.P[j]].ID, "@", s.X[j], ",", s.Y[j]))
	}
	return out
}

// TestBrowserDensityLayer opens a page whose dominated points are mostly
// in density layers: the page paints their cells, says how many points
// they stand for, and hiding the dominated points hides them too.
func TestBrowserDensityLayer(t *testing.T) {
	testenv.Chromium(t)
	ts, cfg := syntheticTrials(30_000)
	page, err := Build(cfg, ts, nil, Options{DensityBound: 2_000})
	if err != nil {
		t.Fatal(err)
	}
	stood := 0
	for _, s := range page.Plots[0].Series {
		stood += s.D.N
	}
	tb := openPage(t, writePage(t, page))
	cells := eval[map[string]int](t, tb, `(function(){window.__pareto.setShowDominated(true); return window.__pareto.densityCells;})()`)
	if cells["synthetic"] == 0 {
		t.Errorf("density cells painted = %v; want some", cells)
	}
	tb.screenshot(t, "density")
	note := eval[string](t, tb, `document.querySelector('.axis-note').textContent`)
	if want := fmt.Sprintf("%s dominated point(s) more than ", commas(stood)); !strings.Contains(note, want) || !strings.Contains(note, "worse than a kept point on both axes are drawn as a density layer") {
		t.Errorf("axis note %q; want it to say %q", note, want)
	}
	hidden := eval[map[string]int](t, tb, `(function(){window.__pareto.setShowDominated(false); return window.__pareto.densityCells;})()`)
	if hidden["synthetic"] != 0 {
		t.Errorf("with the dominated points hidden, %d density cells are painted", hidden["synthetic"])
	}
	tb.finish(t)
}

// commas renders n with thousands separators, as the page does.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestStairStrict: under the strict relation the stair of a series' frontier
// points is the stair of all its feasible points (newStair's shortcut).
func TestStairStrict(t *testing.T) {
	for _, n := range []int{50, 3_000} {
		for _, zeros := range []bool{false, true} {
			cfg := syntheticConfig(t, [2][2]float64{})
			page, err := Build(cfg, syntheticSim(n, zeros), nil, Options{DensityBound: -1})
			if err != nil {
				t.Fatal(err)
			}
			p := &page.Plots[0]
			tx, ty := orient(&cfg.Plots[0].X), orient(&cfg.Plots[0].Y)
			for si := range p.Series {
				s := &p.Series[si]
				all, fast := newStair(s, tx, ty, false), newStair(s, tx, ty, true)
				if len(all.u) == 0 || !slices.Equal(all.u, fast.u) || !slices.Equal(all.w, fast.w) {
					t.Errorf("n=%d zeros=%v series %s: the stair of %d points from the frontier points is %d points", n, zeros, s.Name, len(all.u), len(fast.u))
				}
			}
		}
	}
}
