package decide

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// TestGateRelationIsBeats: with exact measurements (intervals of zero
// width), the gate's "the reference beats the candidate" is the
// noise-aware frontier's frontier.Beats(reference, candidate), and "the
// candidate beats the reference" Beats(candidate, reference): one relation
// (issue 22 item 5). Random points, directions, bands and minimum
// improvements; cases within 1e-9 of a threshold are skipped.
func TestGateRelationIsBeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	checked := 0
	for range 20000 {
		k := 1 + rng.IntN(3)
		objs := make([]frontier.Objective, k)
		cand, ref := make([]float64, k), make([]float64, k)
		iv := [][][]Interval{{make([]Interval, k)}}
		near := false
		for i := range objs {
			objs[i] = frontier.Objective{Direction: frontier.Direction(rng.IntN(2)), Noise: 0.1 * rng.Float64(), MinImprove: 0.1 * rng.Float64()}
			ref[i] = 100 * (0.5 + rng.Float64())
			cand[i] = ref[i] * math.Exp(0.3*(rng.Float64()-0.5))
			iv[0][0][i] = oriented(repeat.Stat{Samples: []float64{cand[i], cand[i]}}, repeat.Stat{Samples: []float64{ref[i], ref[i]}}, objs[i])
			win, _, band, _ := thresholds(objs[i])
			d := iv[0][0][i].Est
			near = near || math.Abs(math.Abs(d)-win) < 1e-9 || math.Abs(math.Abs(d)+band) < 1e-9
		}
		if near {
			continue
		}
		ctx := &evalCtx{iv: iv, admit: 0.99, reject: 0.8, sides: 2, capCand: 10, capRef: []int{20},
			seq: newSpending(withDefaults(GateConfig{}), k)}
		beaten := beatenBy(0, []int{0}, objs).eval(ctx, false).v == triTrue
		if want := frontier.Beats(ref, cand, objs); beaten != want {
			t.Fatalf("objectives %+v, candidate %v, reference %v: gate says beaten %v, frontier.Beats(ref, cand) %v", objs, cand, ref, beaten, want)
		}
		// The candidate beats the reference: better somewhere (the
		// admission clause) and within the band everywhere.
		better := betterThan(0, []int{0}, objs).eval(ctx, true).v == triTrue
		within := true
		for i, o := range objs {
			_, _, band, _ := thresholds(o)
			within = within && iv[0][0][i].Est >= band
		}
		if want := frontier.Beats(cand, ref, objs); (better && within) != want {
			t.Fatalf("objectives %+v, candidate %v, reference %v: gate says better %v within %v, frontier.Beats(cand, ref) %v", objs, cand, ref, better, within, want)
		}
		checked++
	}
	if checked < 19000 {
		t.Fatalf("only %d of 20000 cases away from the thresholds", checked)
	}
}

// TestSpendingSums: the shares of the admission error over every
// (candidate runs, baseline runs) pair sum to α/T, whatever the caps, and
// every share is positive.
func TestSpendingSums(t *testing.T) {
	for _, c := range []struct{ m, maxC, maxB, tests int }{{3, 3, 3, 1}, {3, 10, 20, 2}, {2, 5, 4, 6}, {3, 20, 10, 4}, {5, 6, 50, 1}} {
		s := newSpending(GateConfig{MinRepeats: c.m, Confidence: 0.99, MaxRuns: c.maxC, MaxBaselineRuns: c.maxB}, c.tests)
		sum, pairs := 0.0, 0
		for nc := c.m; nc <= c.maxC; nc++ {
			for nb := c.m; nb <= c.maxB; nb++ {
				a := s.alphaAt(nc, nb)
				if !(a > 0) {
					t.Errorf("%+v: α(%d, %d) = %g; want > 0", c, nc, nb, a)
				}
				sum += a
				pairs++
			}
		}
		if want := 0.01 / float64(c.tests); math.Abs(sum-want) > 1e-12 || pairs != s.looks() {
			t.Errorf("%+v: shares sum to %g over %d pairs; want %g over %d", c, sum, pairs, want, s.looks())
		}
		if s.alphaAt(c.maxC+5, c.maxB+5) != s.alphaAt(c.maxC, c.maxB) {
			t.Errorf("%+v: counts beyond the caps are not judged as the caps", c)
		}
	}
}

// BenchmarkGate times one decision against the baseline, the call a
// driver repeats at every look.
func BenchmarkGate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{3, 10} {
		for _, workloads := range []int{1, 4} {
			side := func(name string, truth []float64) Side {
				s := Side{Name: name}
				for w := range workloads {
					m := Measured{Workload: repeat.Workload{Concurrency: float64(int(8) << w)}}
					for _, v := range measure(rng, truth, []float64{0.015, 0.04}, n) {
						m.Stats = append(m.Stats, repeat.Summarize(v, repeat.Median))
					}
					s.Workloads = append(s.Workloads, m)
				}
				return s
			}
			cand, base := side("c", []float64{1040, 200}), side("b", []float64{1000, 200})
			cfg := GateConfig{Objectives: chainObjs}
			b.Run("runs="+itoa(n)+"/workloads="+itoa(workloads), func(b *testing.B) {
				for b.Loop() {
					Gate(cfg, cand, base, nil)
				}
			})
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestPct(t *testing.T) {
	for _, c := range []struct {
		level float64
		want  string
	}{{0.8, "80"}, {0.95, "95"}, {0.99, "99"}, {0.995, "99.5"}, {0.999404, "99.9404"}, {0.9999998, "99.99998"}, {1, "100"}} {
		if got := pct(c.level); got != c.want {
			t.Errorf("pct(%g) = %q; want %q", c.level, got, c.want)
		}
	}
}
