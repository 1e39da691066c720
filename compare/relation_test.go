package compare

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"pgregory.net/rapid"
)

// bruteClaims returns, by brute force, whether A has a claim against B
// and B against A: a point of the side on the Schwartz set of
// frontier.Beats over A ∪ B (every point that reaches it, it reaches back,
// by a transitive closure) that no point of the other side reaches within
// the noise bands, or a best value on some objective that the other
// side's best misses by more than the noise band.
func bruteClaims(a, b [][]float64, objs []frontier.Objective) (claimA, claimB bool) {
	u := append(slices.Clone(a), b...)
	n := len(u)
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		for j := range reach[i] {
			reach[i][j] = frontier.Beats(u[i], u[j], objs)
		}
	}
	for m := range n {
		for i := range n {
			for j := range n {
				reach[i][j] = reach[i][j] || reach[i][m] && reach[m][j]
			}
		}
	}
	schwartz := func(x int) bool {
		for y := range n {
			if reach[y][x] && !reach[x][y] {
				return false
			}
		}
		return true
	}
	// within: q is no worse than p beyond p's noise band on objective o.
	within := func(q, p float64, o frontier.Objective) bool {
		if o.Direction == frontier.Maximize {
			return q >= p*(1-o.Noise)
		}
		return q <= p*(1+o.Noise)
	}
	reaches := func(q, p []float64) bool {
		for o, ob := range objs {
			if !within(q[o], p[o], ob) {
				return false
			}
		}
		return true
	}
	lead := func(side [][]float64, off int, other [][]float64) bool {
		for j, p := range side {
			if !schwartz(off + j) {
				continue
			}
			if !slices.ContainsFunc(other, func(q []float64) bool { return reaches(q, p) }) {
				return true
			}
		}
		for o, ob := range objs {
			best := func(s [][]float64) float64 {
				v := s[0][o]
				for _, p := range s {
					if ob.Direction == frontier.Maximize && p[o] > v || ob.Direction == frontier.Minimize && p[o] < v {
						v = p[o]
					}
				}
				return v
			}
			if !within(best(other), best(side), ob) {
				return true
			}
		}
		return false
	}
	return lead(a, 0, b), lead(b, len(a), a)
}

func bruteVerdict(a, b [][]float64, objs []frontier.Objective) string {
	switch ca, cb := bruteClaims(a, b, objs); {
	case ca && cb:
		return Crossing
	case ca:
		return ADominates
	case cb:
		return BDominates
	}
	return Indistinguishable
}

// TestVerdictIsTheUnionRelation checks compare's verdict against the
// noise-aware frontier of A ∪ B computed by brute force, on random pairs
// of sides with two or three objectives, either direction, acyclic and
// cyclic bands (a zero minimum improvement): with single runs (no
// uncertainty) the verdict is the brute-force one; with repeats it is the
// brute force one of the point estimates or inconclusive, and its status
// is a regression only when A has a claim there. Without a band and
// without repeats, every verdict is inconclusive.
func TestVerdictIsTheUnionRelation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(2, 3).Draw(t, "k")
		objs := make([]frontier.Objective, k)
		given := true
		for o := range objs {
			objs[o].Name = fmt.Sprint("o", o)
			if rapid.Bool().Draw(t, "max") {
				objs[o].Direction = frontier.Maximize
			}
			objs[o].Noise = rapid.SampledFrom([]float64{0, 0.05, 0.1, 0.2}).Draw(t, "noise")
			objs[o].MinImprove = rapid.SampledFrom([]float64{0, 0.05, 0.1}).Draw(t, "delta")
			given = given && (objs[o].Noise > 0 || objs[o].MinImprove > 0)
		}
		runs := rapid.SampledFrom([]int{1, 1, 3}).Draw(t, "runs")
		mk := func(name string) (*Side, [][]float64) {
			s := &Side{Name: name}
			var est [][]float64
			for i := range rapid.IntRange(1, 7).Draw(t, name+"n") {
				p := Point{ID: fmt.Sprint(name, i)}
				for range k {
					v := float64(rapid.IntRange(10, 30).Draw(t, "v"))
					if runs == 1 {
						p.Values = append(p.Values, v)
						continue
					}
					rs := []float64{v, v + float64(rapid.IntRange(-2, 2).Draw(t, "d")), v + float64(rapid.IntRange(-2, 2).Draw(t, "d"))}
					p.Runs = append(p.Runs, rs)
					p.Values = append(p.Values, repeat.Summarize(rs, repeat.Median).Value)
				}
				s.Points = append(s.Points, p)
				est = append(est, p.Values)
			}
			return s, est
		}
		a, ea := mk("a")
		b, eb := mk("b")
		rep, err := Run([]*Side{a, b}, Options{Objectives: objs, Resamples: 40, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		p := rep.Pairs[0]
		if !given && runs == 1 {
			if p.Verdict != Inconclusive || p.Status != RegressionUnsettled {
				t.Fatalf("no band, single runs: %s, %s; want inconclusive", p.Verdict, p.Status)
			}
			return
		}
		// The bands judged with (measured ones included).
		for o := range objs {
			objs[o].Noise, objs[o].MinImprove = float64(rep.Objectives[o].Noise), float64(rep.Objectives[o].MinImprove)
		}
		if rep.Objectives[0].Band == BandUnmeasured || rep.Objectives[k-1].Band == BandUnmeasured {
			if p.Verdict != Inconclusive {
				t.Fatalf("unmeasured band: verdict %s", p.Verdict)
			}
			return
		}
		want := bruteVerdict(ea, eb, objs)
		claimA, _ := bruteClaims(ea, eb, objs)
		switch {
		case runs == 1 && p.Verdict != want:
			t.Fatalf("verdict %s; brute force %s (leads %+v, reach %+v)", p.Verdict, want, p.Leads, p.Reach)
		case p.Verdict != want && p.Verdict != Inconclusive:
			t.Fatalf("verdict %s; brute force on the estimates %s", p.Verdict, want)
		case p.Status == Regression && !claimA:
			t.Fatalf("status regression, but A has no claim at the estimates")
		case p.Status == NoRegression && claimA:
			t.Fatalf("status no_regression, but A has a claim at the estimates")
		}
	})
}
