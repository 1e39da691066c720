package compare

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"pgregory.net/rapid"
)

// bruteStep is the best Y among all points whose X is at least as good as
// x, by looking at every point.
func bruteStep(xs, ys []float64, x float64, ox, oy frontier.Objective) float64 {
	best := math.NaN()
	for i := range xs {
		reaches := xs[i] >= x
		if ox.Direction == frontier.Minimize {
			reaches = xs[i] <= x
		}
		if !reaches {
			continue
		}
		if math.IsNaN(best) || oy.Direction == frontier.Maximize && ys[i] > best || oy.Direction == frontier.Minimize && ys[i] < best {
			best = ys[i]
		}
	}
	return best
}

// bruteFront is the strict 2D frontier by pairwise dominance, duplicates
// once, sorted by X.
func bruteFront(xs, ys []float64, ox, oy frontier.Objective) [][2]float64 {
	objs := []frontier.Objective{ox, oy}
	var out [][2]float64
	for i := range xs {
		dominated := false
		for j := range xs {
			if frontier.Beats([]float64{xs[j], ys[j]}, []float64{xs[i], ys[i]}, objs) {
				dominated = true
				break
			}
		}
		if !dominated && !slices.Contains(out, [2]float64{xs[i], ys[i]}) {
			out = append(out, [2]float64{xs[i], ys[i]})
		}
	}
	slices.SortFunc(out, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	return out
}

func TestCurveAgainstBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dir := func(label string) frontier.Objective {
			if rapid.Bool().Draw(t, label) {
				return frontier.Objective{Name: label, Direction: frontier.Maximize}
			}
			return frontier.Objective{Name: label, Direction: frontier.Minimize}
		}
		ox, oy := dir("x"), dir("y")
		n := rapid.IntRange(1, 30).Draw(t, "n")
		// Small integers make ties and duplicates common.
		xs := rapid.SliceOfN(rapid.IntRange(0, 20), n, n).Draw(t, "xs")
		ys := rapid.SliceOfN(rapid.IntRange(0, 20), n, n).Draw(t, "ys")
		fx, fy := make([]float64, n), make([]float64, n)
		for i := range n {
			fx[i], fy[i] = float64(xs[i]), float64(ys[i])
		}
		c := NewCurve(fx, fy, ox, oy)
		front := bruteFront(fx, fy, ox, oy)
		if c.Len() != len(front) {
			t.Fatalf("curve has %d points, brute force frontier %d: %v vs %v %v", c.Len(), len(front), front, c.X, c.Y)
		}
		for i, p := range front {
			if c.X[i] != p[0] || c.Y[i] != p[1] {
				t.Fatalf("curve point %d = (%v, %v); want %v", i, c.X[i], c.Y[i], p)
			}
		}
		lo, hi := c.Span()
		for q := lo - 1; q <= hi+1; q += 0.25 {
			if out := c.Outside(q); (out != "") != (q < lo || q > hi) {
				t.Fatalf("Outside(%v) = %q with span [%v, %v]", q, out, lo, hi)
			}
			if q < lo || q > hi {
				continue
			}
			if got, want := c.At(q, Step), bruteStep(fx, fy, q, ox, oy); got != want {
				t.Fatalf("step at %v = %v; brute force %v (curve %v %v)", q, got, want, c.X, c.Y)
			}
			// Linear: between the frontier points around q.
			j := slices.IndexFunc(front, func(p [2]float64) bool { return p[0] >= q })
			want := front[j][1]
			if front[j][0] > q {
				p0, p1 := front[j-1], front[j]
				want = p0[1] + (p1[1]-p0[1])*(q-p0[0])/(p1[0]-p0[0])
			}
			if got := c.At(q, Linear); math.Abs(got-want) > 1e-9 {
				t.Fatalf("linear at %v = %v; want %v", q, got, want)
			}
			if c.Measured(q) != slices.ContainsFunc(front, func(p [2]float64) bool { return p[0] == q }) {
				t.Fatalf("Measured(%v) = %v", q, c.Measured(q))
			}
		}
	})
}

// TestCurveHypervolume checks the staircase's area against
// frontier.Hypervolume of the same points.
func TestCurveHypervolume(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := []frontier.Objective{{Name: "x"}, {Name: "y"}}
		for i := range objs {
			if rapid.Bool().Draw(t, "max") {
				objs[i].Direction = frontier.Maximize
			}
		}
		n := rapid.IntRange(1, 25).Draw(t, "n")
		data := make([]float64, 2*n)
		for i := range data {
			data[i] = float64(rapid.IntRange(-10, 10).Draw(t, "v"))
		}
		e := &engine{opt: Options{Objectives: objs}, k: 2}
		ref := []float64{float64(rapid.IntRange(-10, 12).Draw(t, "rx")), float64(rapid.IntRange(-10, 12).Draw(t, "ry"))}
		oref := e.orient(ref)
		sm := &sampler{buf: data, k: 2}
		c := e.curveOf(sm, data)
		want := frontier.Hypervolume(e.orient(data), 2, oref)
		if got := e.curveHV(&c, oref); math.Abs(got-want) > 1e-9 {
			t.Fatalf("curve HV = %v; frontier.Hypervolume = %v", got, want)
		}
	})
}

// TestUpliftAgainstBruteForce checks a whole pair of single-run sides: the
// curve is read at every X of either frontier within both spans, each
// side's value there is the brute-force best Y reaching X, and buckets
// outside a span say so.
func TestUpliftAgainstBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ox := frontier.Objective{Name: "x", Direction: frontier.Maximize}
		if rapid.Bool().Draw(t, "xmin") {
			ox.Direction = frontier.Minimize
		}
		oy := frontier.Objective{Name: "y", Direction: frontier.Maximize}
		mk := func(label string) (*Side, []float64, []float64) {
			n := rapid.IntRange(1, 12).Draw(t, label+"n")
			s := &Side{Name: label}
			var xs, ys []float64
			for range n {
				x, y := float64(rapid.IntRange(1, 20).Draw(t, label+"x")), float64(rapid.IntRange(1, 20).Draw(t, label+"y"))
				s.Points = append(s.Points, Point{ID: label, Values: []float64{x, y}})
				xs, ys = append(xs, x), append(ys, y)
			}
			return s, xs, ys
		}
		a, ax, ay := mk("a")
		b, bx, by := mk("b")
		at := []float64{float64(rapid.IntRange(0, 21).Draw(t, "at"))}
		rep, err := Run([]*Side{a, b}, Options{Objectives: []frontier.Objective{ox, oy}, Resamples: 3, At: at})
		if err != nil {
			t.Fatal(err)
		}
		u := rep.Pairs[0].Uplift
		ca, cb := NewCurve(ax, ay, ox, oy), NewCurve(bx, by, ox, oy)
		loA, hiA := ca.Span()
		loB, hiB := cb.Span()
		var want []float64
		for _, x := range append(slices.Clone(ca.X), cb.X...) {
			if x >= max(loA, loB) && x <= min(hiA, hiB) && !slices.Contains(want, x) {
				want = append(want, x)
			}
		}
		slices.Sort(want)
		if len(u.Curve) != len(want) {
			t.Fatalf("curve at %d X; want %v", len(u.Curve), want)
		}
		for i, c := range u.Curve {
			x := float64(c.X)
			if x != want[i] || float64(c.A) != bruteStep(ax, ay, x, ox, oy) || float64(c.B) != bruteStep(bx, by, x, ox, oy) {
				t.Fatalf("curve point %d = %+v; want x %v, a %v, b %v", i, c, want[i], bruteStep(ax, ay, x, ox, oy), bruteStep(bx, by, x, ox, oy))
			}
		}
		bk := u.Buckets[0]
		if out := (at[0] < loA || at[0] > hiA); out != (bk.A.Outside != "") {
			t.Fatalf("bucket %v against span [%v, %v]: outside %q", at[0], loA, hiA, bk.A.Outside)
		}
		if bk.A.Outside == "" && float64(bk.A.Value) != bruteStep(ax, ay, at[0], ox, oy) {
			t.Fatalf("bucket %v reads %v; want %v", at[0], bk.A.Value, bruteStep(ax, ay, at[0], ox, oy))
		}
	})
}
