package frontier

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogThresholdsMatchBeats checks, on random points and thresholds, that
// Beats is "the oriented log ratio is at least band everywhere and beyond
// win somewhere" with the thresholds of LogThresholds (away from the
// boundaries, where rounding may differ).
func TestLogThresholdsMatchBeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	agree := 0
	for range 20000 {
		k := 1 + rng.IntN(3)
		objs := make([]Objective, k)
		a, b := make([]float64, k), make([]float64, k)
		for i := range objs {
			objs[i] = Objective{Direction: Direction(rng.IntN(2)), Noise: 0.1 * rng.Float64(), MinImprove: 0.1 * rng.Float64()}
			b[i] = 100 * (0.5 + rng.Float64())
			a[i] = b[i] * math.Exp(0.3*(rng.Float64()-0.5))
		}
		within, win, near := true, false, false
		for i, o := range objs {
			w, band := o.LogThresholds()
			d := math.Log(a[i] / b[i])
			if o.Direction == Minimize {
				d = -d
			}
			near = near || math.Abs(d-w) < 1e-9 || math.Abs(d-band) < 1e-9
			within = within && d >= band
			win = win || d > w
		}
		if near {
			continue
		}
		if got, want := Beats(a, b, objs), within && win; got != want {
			t.Fatalf("Beats(%v, %v, %+v) = %v; the log thresholds say %v", a, b, objs, got, want)
		}
		agree++
	}
	if agree < 19000 {
		t.Fatalf("only %d of 20000 cases away from the boundaries", agree)
	}
}
