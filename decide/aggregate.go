package decide

import (
	"fmt"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// MeasureArm measures every group of arm on sels (the objectives, then the
// SLO columns) for Gate and Drift. It fails when a selector resolves on no
// repeat of a group or when a value is not positive.
func MeasureArm(arm Arm, sels []trial.Selector) (Side, error) {
	s := Side{Name: arm.Name}
	for _, g := range arm.Groups {
		p := repeat.Measure([]*repeat.Group{g}, sels, repeat.Median)[0]
		if p.Err != "" {
			return s, fmt.Errorf("%s on %s: %s", arm.Name, g.Workload, p.Err)
		}
		for c, st := range p.Stats {
			if !allPositive(st.Samples) {
				return s, fmt.Errorf("%s on %s: %s has a value that is not positive", arm.Name, g.Workload, sels[c].Raw)
			}
		}
		s.Workloads = append(s.Workloads, Measured{Workload: g.Workload, IDs: g.IDs(), Stats: p.Stats})
	}
	return s, nil
}
