package frontier

import "math"

// LogThresholds returns the thresholds of Beats on objective o on the log
// scale, for the oriented log ratio d = ln(a/b) (Maximize) or ln(b/a)
// (Minimize) of a point a against a point b, positive when a is better:
// a is better than b by more than the minimum improvement when d > win,
// and no worse than b beyond b's noise band when d >= band. Beats(a, b) is
// "d >= band on every objective and d > win on one"; package decide judges
// intervals of d against the same two numbers, so that the gate and the
// noise-aware frontier share one relation.
func (o Objective) LogThresholds() (win, band float64) {
	if o.Direction == Maximize {
		return math.Log1p(o.MinImprove), math.Log1p(-o.Noise)
	}
	return -math.Log1p(-o.MinImprove), -math.Log1p(o.Noise)
}
