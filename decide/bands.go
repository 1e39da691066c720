package decide

import "github.com/pareto-llm/pareto/frontier"

// LogBands returns objective o's thresholds on the oriented log scale
// (positive: better), as Gate and Drift apply them: a change above win is
// an improvement beyond the minimum improvement, one below loss a loss
// beyond it, and a change within [band, refBand] is within the noise band
// both ways. Package compare judges frontier against frontier with them.
func LogBands(o frontier.Objective) (win, loss, band, refBand float64) { return thresholds(o) }
