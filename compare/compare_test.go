package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// interactivity (tokens/s/user, maximised) against throughput per GPU
// (maximised), as InferenceX plots them.
var (
	interactivity = frontier.Objective{Name: "interactivity", Direction: frontier.Maximize}
	throughput    = frontier.Objective{Name: "throughput", Direction: frontier.Maximize}
)

// bands returns x and y with noise band s and minimum improvement d.
func bands(s, d float64) []frontier.Objective {
	x, y := interactivity, throughput
	x.Noise, x.MinImprove, y.Noise, y.MinImprove = s, d, s, d
	return []frontier.Objective{x, y}
}

// side builds a side of configurations at the true values pts, each with
// n repeats whose Y (and X, with xcv) is scaled by log-normal noise of
// coefficient cv, drawn from rng; yScale shifts every Y.
func side(name string, pts [][2]float64, n int, xcv, cv, yScale float64, rng *rand.Rand) *Side {
	s := &Side{Name: name}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	for i, p := range pts {
		pt := Point{ID: name + string(rune('a'+i)), Runs: [][]float64{make([]float64, n), make([]float64, n)}}
		for r := range n {
			pt.Runs[0][r] = p[0] * math.Exp(xcv*rng.NormFloat64())
			pt.Runs[1][r] = p[1] * yScale * math.Exp(cv*rng.NormFloat64())
		}
		for o := range 2 {
			pt.Values = append(pt.Values, repeat.Summarize(pt.Runs[o], repeat.Median).Value)
		}
		if n == 1 {
			pt.Runs = nil
		}
		s.Points = append(s.Points, pt)
	}
	return s
}

// frontA is a concave frontier of five configurations plus two dominated
// ones.
var frontA = [][2]float64{{10, 1000}, {20, 900}, {30, 700}, {40, 450}, {50, 200}, {15, 600}, {35, 300}}

func TestShiftedThroughputDominates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := side("v0.10", frontA, 5, 0, 0.01, 1, rng)
	// B is A with every throughput 10% higher: the same X runs, fresh noise.
	b := side("v0.11", frontA, 5, 0, 0.01, 1.1, rng)
	for i := range b.Points {
		b.Points[i].Runs[0] = a.Points[i].Runs[0]
		b.Points[i].Values[0] = a.Points[i].Values[0]
	}
	rep, err := Run([]*Side{a, b}, Options{Objectives: bands(0.03, 0.03), Seed: 1, At: []float64{20, 25, 60}})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Pairs[0]
	if p.Verdict != BDominates || p.Status != NoRegression {
		t.Fatalf("verdict, status = %s, %s; want b_dominates, no_regression (%v)", p.Verdict, p.Status, p.Reasons)
	}
	hv := p.Hypervolume
	if !(hv.Interval[0] <= hv.Change && hv.Change <= hv.Interval[1]) {
		t.Errorf("HV change %v outside its interval %v", hv.Change, hv.Interval)
	}
	if hv.Change < 0.05 || hv.Interval[0] <= 0 {
		t.Errorf("HV change %v with interval %v; want a clear gain", hv.Change, hv.Interval)
	}
	for _, c := range p.Uplift.Curve {
		if math.Abs(float64(c.Change)-0.1) > 0.03 || c.Status != Better {
			t.Errorf("uplift at X=%v: %v (%s); want about +10%%, better", c.X, c.Change, c.Status)
		}
	}
	bk := p.Uplift.Buckets
	if bk[0].A.Interpolated || !bk[1].A.Interpolated || bk[2].Status != Outside || bk[2].A.Outside != "above" {
		t.Errorf("buckets = %+v; want 20 measured, 25 interpolated, 60 outside above", bk)
	}
	if lo, hi := bk[0].Interval[0], bk[0].Interval[1]; !(lo < 0.1 && 0.1 < hi) {
		t.Errorf("bucket 20 interval %v does not hold the true +10%%", bk[0].Interval)
	}
}

func TestCrossingFronts(t *testing.T) {
	for _, interp := range []Interpolation{Step, Linear} {
		t.Run(interp.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			a := side("a", [][2]float64{{10, 100}, {20, 80}, {30, 60}, {40, 40}, {50, 20}}, 4, 0, 0.01, 1, rng)
			b := side("b", [][2]float64{{10, 120}, {20, 95}, {30, 50}, {40, 30}, {50, 10}}, 4, 0, 0.01, 1, rng)
			rep, err := Run([]*Side{a, b}, Options{Objectives: bands(0.02, 0.02), Seed: 7, Interpolation: interp})
			if err != nil {
				t.Fatal(err)
			}
			p := rep.Pairs[0]
			if p.Verdict != Crossing || p.Status != Regression {
				t.Fatalf("verdict, status = %s, %s; want crossing, regression (%v)", p.Verdict, p.Status, p.Reasons)
			}
			cs := p.Uplift.Crossings
			if len(cs) != 1 || cs[0].Below != "b" || cs[0].Above != "a" {
				t.Fatalf("crossings = %+v; want one, b below and a above", cs)
			}
			// Steps (X maximised): B leads up to X=20, A beyond. Linearly the
			// lines cross where +15 becomes -10 between X=20 and 30.
			want := 20.0
			if interp == Linear {
				ya, yb := p.Uplift.Curve[1].A, p.Uplift.Curve[1].B
				ya2, yb2 := p.Uplift.Curve[2].A, p.Uplift.Curve[2].B
				d0, d1 := float64(yb-ya), float64(yb2-ya2)
				want = 20 + 10*d0/(d0-d1)
			}
			if math.Abs(float64(cs[0].At)-want) > 1e-9 {
				t.Errorf("crossing at %v; want %v", cs[0].At, want)
			}
		})
	}
}

func TestIdenticalFrontsIndistinguishable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := side("a", frontA, 5, 0.01, 0.01, 1, rng)
	b := side("b", frontA, 5, 0.01, 0.01, 1, rng)
	rep, err := Run([]*Side{a, b}, Options{Objectives: bands(0.05, 0.05), Seed: 2, At: []float64{25}})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Pairs[0]
	if p.Verdict != Indistinguishable || p.Status != NoRegression {
		t.Fatalf("verdict, status = %s, %s; want indistinguishable, no_regression (%v)", p.Verdict, p.Status, p.Reasons)
	}
	if lo, hi := p.Hypervolume.Interval[0], p.Hypervolume.Interval[1]; !(lo < 0 && 0 < hi) {
		t.Errorf("HV change interval %v does not hold 0", p.Hypervolume.Interval)
	}
	// Without bands, the bands are the noise the repeats show: the same
	// noise is within them.
	rep, err = Run([]*Side{a, b}, Options{Objectives: []frontier.Objective{interactivity, throughput}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := rep.Pairs[0]; p.Verdict != Indistinguishable || p.Status != NoRegression {
		t.Errorf("measured bands: %s, %s; want indistinguishable, no_regression (%v)", p.Verdict, p.Status, p.Reasons)
	}
	for _, o := range rep.Objectives {
		if o.Band != BandMeasured || o.Measured == nil || o.Measured.DF != 2*7*4 || !(o.Noise > 0.01 && o.Noise == o.MinImprove) {
			t.Errorf("objective %s: band %s %+v, noise %v; want measured from 56 degrees of freedom, above the 1%% CV", o.Name, o.Band, o.Measured, o.Noise)
		}
	}
	// Single runs cannot measure a band: the verdict cannot tell.
	a1, b1 := side("a", frontA, 1, 0, 0.01, 1, rng), side("b", frontA, 1, 0, 0.01, 1.2, rng)
	rep, err = Run([]*Side{a1, b1}, Options{Objectives: []frontier.Objective{interactivity, throughput}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := rep.Pairs[0]; p.Verdict != Inconclusive || p.Status != RegressionUnsettled || rep.Objectives[1].Band != BandUnmeasured {
		t.Errorf("single runs, no band: %s, %s, band %s; want inconclusive, unmeasured", p.Verdict, p.Status, rep.Objectives[1].Band)
	}
}

func TestRegressionExit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a := side("a", frontA, 4, 0, 0.01, 1, rng)
	b := side("b", frontA, 4, 0, 0.01, 0.85, rng)
	for i := range b.Points {
		b.Points[i].Runs[0], b.Points[i].Values[0] = a.Points[i].Runs[0], a.Points[i].Values[0]
	}
	rep, err := Run([]*Side{a, b}, Options{Objectives: bands(0.03, 0.03), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p := rep.Pairs[0]; p.Verdict != ADominates || p.Status != Regression {
		t.Errorf("verdict, status = %s, %s; want a_dominates, regression", p.Verdict, p.Status)
	}
}

// TestBucketsPiecewiseConstant reads frontiers that are step functions:
// the buckets are their exact values between points, marked interpolated,
// and outside the span they say so.
func TestBucketsPiecewiseConstant(t *testing.T) {
	ttft := frontier.Objective{Name: "ttft", Direction: frontier.Minimize}
	for _, tt := range []struct {
		name   string
		x      frontier.Objective
		pts    [][2]float64
		at     []float64
		want   []float64 // NaN: outside
		interp []bool
	}{
		{"x max", interactivity, [][2]float64{{10, 100}, {20, 80}, {30, 60}, {12, 50}},
			[]float64{5, 10, 15, 20, 29.5, 30, 31}, []float64{math.NaN(), 100, 80, 80, 60, 60, math.NaN()},
			[]bool{false, false, true, false, true, false, false}},
		{"x min", ttft, [][2]float64{{100, 1000}, {200, 2000}, {300, 2500}, {250, 1500}},
			[]float64{50, 100, 150, 250, 299, 300, 400}, []float64{math.NaN(), 1000, 1000, 2000, 2000, 2500, math.NaN()},
			[]bool{false, false, true, true, true, false, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			objs := []frontier.Objective{tt.x, throughput}
			a := side("a", tt.pts, 1, 0, 0, 1, nil)
			rep, err := Run([]*Side{a, a}, Options{Objectives: objs, At: tt.at, Resamples: 10})
			if err != nil {
				t.Fatal(err)
			}
			for i, bk := range rep.Pairs[0].Uplift.Buckets {
				got := float64(bk.A.Value)
				if math.IsNaN(tt.want[i]) {
					if bk.A.Outside == "" || !math.IsNaN(got) || bk.Status != Outside {
						t.Errorf("at %v: %v, outside %q; want outside the span", tt.at[i], got, bk.A.Outside)
					}
					continue
				}
				if got != tt.want[i] || bk.A.Interpolated != tt.interp[i] || bk.Status != Same {
					t.Errorf("at %v: %v interpolated %v (%s); want %v interpolated %v", tt.at[i], got, bk.A.Interpolated, bk.Status, tt.want[i], tt.interp[i])
				}
			}
		})
	}
}

func TestRunIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	a := side("a", frontA, 3, 0.01, 0.02, 1, rng)
	b := side("b", frontA, 3, 0.01, 0.02, 1.02, rng)
	run := func() *Report {
		rep, err := Run([]*Side{a, b, a}, Options{Objectives: bands(0.02, 0.02), Seed: 3, At: []float64{25}})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	r1, r2 := run(), run()
	if r1.Pairs[0].Hypervolume != r2.Pairs[0].Hypervolume || r1.Sides[0].Interval != r2.Sides[0].Interval {
		t.Errorf("two runs differ: %+v vs %+v", r1.Pairs[0].Hypervolume, r2.Pairs[0].Hypervolume)
	}
	// A side's resamples are the same in every pair: A against itself is
	// the same to the last digit.
	if p := r1.Pairs[1]; p.Hypervolume.Interval != [2]Num{0, 0} || p.Verdict != Indistinguishable {
		t.Errorf("A against itself: %+v, %s", p.Hypervolume, p.Verdict)
	}
}

func TestThreeObjectives(t *testing.T) {
	objs := []frontier.Objective{
		{Name: "tps", Direction: frontier.Maximize, Noise: 0.03, MinImprove: 0.03},
		{Name: "ttft", Direction: frontier.Minimize, Noise: 0.03, MinImprove: 0.03},
		{Name: "gpus", Direction: frontier.Minimize},
	}
	mk := func(name string, scale float64, rng *rand.Rand) *Side {
		s := &Side{Name: name}
		for i := range 6 {
			p := Point{ID: name, Runs: make([][]float64, 3)}
			for range 4 {
				p.Runs[0] = append(p.Runs[0], scale*float64(100+50*i)*math.Exp(0.01*rng.NormFloat64()))
				p.Runs[1] = append(p.Runs[1], float64(50+40*i)*math.Exp(0.01*rng.NormFloat64()))
				p.Runs[2] = append(p.Runs[2], float64(1+i%3))
			}
			for o := range 3 {
				p.Values = append(p.Values, repeat.Summarize(p.Runs[o], repeat.Median).Value)
			}
			s.Points = append(s.Points, p)
		}
		return s
	}
	rng := rand.New(rand.NewPCG(11, 12))
	a, b := mk("a", 1, rng), mk("b", 1.2, rng)
	rep, err := Run([]*Side{a, b, a}, Options{Objectives: objs, Seed: 1, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if p := rep.Pairs[0]; p.Verdict != BDominates || p.Status != NoRegression || len(p.Leads.A) != 0 || len(p.Leads.B) == 0 || p.Uplift != nil {
		t.Errorf("b +20%% tps: %s, %s, leads %+v", p.Verdict, p.Status, p.Leads)
	}
	if p := rep.Pairs[1]; p.Verdict != Indistinguishable {
		t.Errorf("a against itself: %s", p.Verdict)
	}
}

func TestRunErrors(t *testing.T) {
	a := side("a", frontA, 1, 0, 0, 1, nil)
	for _, tt := range []struct {
		name  string
		sides []*Side
		opt   Options
	}{
		{"one side", []*Side{a}, Options{Objectives: bands(0, 0)}},
		{"no objectives", []*Side{a, a}, Options{}},
		{"empty side", []*Side{a, {Name: "x"}}, Options{Objectives: bands(0, 0)}},
		{"reference", []*Side{a, a}, Options{Objectives: bands(0, 0), Reference: []float64{1}}},
	} {
		if _, err := Run(tt.sides, tt.opt); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

func TestRunNeedsPositiveValuesForBands(t *testing.T) {
	a := side("a", frontA, 1, 0, 0, 1, nil)
	z := &Side{Name: "z", Points: []Point{{ID: "z0", Values: []float64{0, 5}}}}
	_, err := Run([]*Side{a, z}, Options{Objectives: bands(0.05, 0.05)})
	if want := "side z point z0: interactivity is 0: a relative noise band needs positive values"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v; want %q", err, want)
	}
}

func TestCommonReference(t *testing.T) {
	a := side("a", [][2]float64{{10, 100}, {20, 50}}, 1, 0, 0, 1, nil)
	b := side("b", [][2]float64{{30, 10}}, 1, 0, 0, 1, nil)
	rep, err := Run([]*Side{a, b}, Options{Objectives: bands(0, 0), Resamples: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Worst values 10 (X) and 10 (Y) minus 10% of the ranges 20 and 90.
	if want := []Num{8, 1}; !slices.Equal(rep.Reference, want) {
		t.Errorf("reference = %v; want %v", rep.Reference, want)
	}
	if hv := rep.Sides[1].Hypervolume; hv != (30-8)*(10-1) {
		t.Errorf("HV of b = %v; want %v", hv, (30-8)*(10-1))
	}
}

func TestThin(t *testing.T) {
	xs := make([]float64, 10)
	for i := range xs {
		xs[i] = float64(i)
	}
	if got := thin(xs, 4); !slices.Equal(got, []float64{0, 3, 6, 9}) {
		t.Errorf("thin(0..9, 4) = %v", got)
	}
	if got := thin(xs, 20); len(got) != 10 {
		t.Errorf("thin(0..9, 20) = %v", got)
	}
}

// TestMayLead checks that a point left out of the resamples is on the
// frontier of none: resamples of every point, kept or not, put only kept
// points on their frontiers.
func TestMayLead(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var pts [][2]float64
	for range 300 {
		x := 1 + 99*rng.Float64()
		pts = append(pts, [2]float64{x, (100 - x) * (1 - 0.3*rng.Float64())})
	}
	s := side("s", pts, 3, 0.03, 0.03, 1, rng)
	for _, dir := range []frontier.Direction{frontier.Maximize, frontier.Minimize} {
		objs := []frontier.Objective{{Name: "x", Direction: dir}, {Name: "y", Direction: frontier.Maximize}}
		e := &engine{opt: Options{Objectives: objs}, k: 2, sides: []*Side{s}}
		kept := e.mayLead(s)
		if len(kept) == len(s.Points) || len(kept) == 0 {
			t.Fatalf("%v: kept %d of %d points; want some left out", dir, len(kept), len(s.Points))
		}
		all := make([]int, len(s.Points))
		for i := range all {
			all[i] = i
		}
		e.active = [][]int{all}
		sm := e.sampler(0)
		for r := range 200 {
			data := sm.draw(e.rng(0, r))
			for i, by := range frontier.StrictFront(e.orient(data), 2) {
				if by < 0 && !slices.Contains(kept, i) {
					t.Fatalf("%v: resample %d puts left-out point %d on the frontier", dir, r, i)
				}
			}
		}
	}
}

// TestCrossingMinimisedX crosses two frontiers along a minimised X (TTFT):
// read as steps, B leads on [100, 300) and A from 300 on.
func TestCrossingMinimisedX(t *testing.T) {
	ttft := frontier.Objective{Name: "ttft", Direction: frontier.Minimize, Noise: 0.02, MinImprove: 0.02}
	tps := throughput
	tps.Noise, tps.MinImprove = 0.02, 0.02
	rng := rand.New(rand.NewPCG(15, 16))
	a := side("a", [][2]float64{{100, 1000}, {200, 1500}, {300, 1800}, {400, 2000}}, 4, 0, 0.005, 1, rng)
	b := side("b", [][2]float64{{100, 1100}, {200, 1650}, {300, 1700}, {400, 1850}}, 4, 0, 0.005, 1, rng)
	rep, err := Run([]*Side{a, b}, Options{Objectives: []frontier.Objective{ttft, tps}, Seed: 1, At: []float64{150, 350}})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Pairs[0]
	cs := p.Uplift.Crossings
	if p.Verdict != Crossing || len(cs) != 1 || cs[0].At != 300 || cs[0].Below != "b" || cs[0].Above != "a" {
		t.Fatalf("verdict %s, crossings %+v; want one at 300, b below", p.Verdict, cs)
	}
	near := func(v Num, want float64) bool { return math.Abs(float64(v)/want-1) < 0.02 }
	if bk := p.Uplift.Buckets; !near(bk[0].A.Value, 1000) || bk[0].Status != Better || !near(bk[1].A.Value, 1800) || bk[1].Status != Worse {
		t.Errorf("buckets %+v; want A 1000 at 150 (b better) and 1800 at 350 (b worse)", bk)
	}
}
