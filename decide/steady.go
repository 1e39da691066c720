package decide

import (
	"fmt"
	"time"

	"github.com/pareto-llm/pareto/trial"
)

// TooShort says why run t is too short to be steady state, or "" when it
// is long enough: a benchmark duration (measurement "duration") below
// minDuration, or fewer successful requests (measurement "request_count",
// else the trial's Succeeded count) than minRequests. A run that does not
// record what a non-zero minimum needs is too short as well.
func TooShort(t *trial.Trial, minDuration time.Duration, minRequests int64) string {
	if minDuration > 0 {
		ms, ok := measurement(t, trial.Duration)
		switch {
		case !ok:
			return "no benchmark duration recorded"
		case time.Duration(ms*float64(time.Millisecond)) < minDuration:
			return fmt.Sprintf("duration %s is below %s", time.Duration(ms*float64(time.Millisecond)).Round(time.Millisecond), minDuration)
		}
	}
	if minRequests > 0 {
		n, ok := measurement(t, trial.RequestCount)
		if !ok && t.Succeeded > 0 {
			n, ok = float64(t.Succeeded), true
		}
		switch {
		case !ok:
			return "no request count recorded"
		case n < float64(minRequests):
			return fmt.Sprintf("%d successful requests, below %d", int64(n), minRequests)
		}
	}
	return ""
}

// measurement returns the value of metric without dimensions, if any.
func measurement(t *trial.Trial, metric string) (float64, bool) {
	for _, m := range t.Measurements {
		if m.Metric == metric && len(m.Dims) == 0 {
			return m.Value, true
		}
	}
	return 0, false
}
