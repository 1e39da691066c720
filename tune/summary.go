package tune

import (
	"context"
	"encoding/json"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// Summary is where a tuning study stands: its runs counted, and each
// configuration with the sampler's values and the gate's answer.
type Summary struct {
	Status tunequeue.Status
	// Trials are the configurations, baseline first.
	Trials []TrialSummary
	// Frontier holds the numbers of the complete candidates no other
	// complete candidate dominates on the objectives (the sampler's
	// medians); a screened candidate (DecisionScreened) is not on it.
	Frontier []int
}

// TrialSummary is one configuration of a Summary.
type TrialSummary struct {
	Number int           `json:"trial"`
	Role   string        `json:"role"`
	Params search.Config `json:"params"`
	// State is the sampler's: running, complete or failed.
	State string `json:"state"`
	// Values are the objective values the sampler was told.
	Values []float64 `json:"values,omitempty"`
	// Decision is the gate's (admit, reject, inconclusive; baseline when
	// the candidate is the baseline configuration; error when it could
	// not be judged; screened when the screen gave it no further runs),
	// Reasons its reasons, led by "stalled: …" when an inconclusive
	// candidate's runs could not be queued (Feedback.Stalled).
	Decision string   `json:"decision,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
}

// Summarize reads the study's summary.
func (t *Tuning) Summarize(ctx context.Context) (Summary, error) {
	var s Summary
	var err error
	if s.Status, err = t.st.TuneStatus(ctx, t.study); err != nil {
		return s, err
	}
	err = t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		s.Trials = s.Trials[:0]
		trials, err := tx.Trials()
		if err != nil {
			return err
		}
		ss, err := search.ResumeStudy(t.space, tx.Study().Sampler)
		if err != nil {
			return err
		}
		for _, tr := range trials {
			ts := TrialSummary{Number: tr.Number, Role: tr.Role, State: tr.State, Decision: tr.Decision}
			if err := json.Unmarshal(tr.Params, &ts.Params); err != nil {
				return err
			}
			if st, ok := ss.Trial(tr.Number); ok && tr.Role == RoleCandidate {
				ts.Values = st.Values
			}
			rec := readRecord(tr.Verdict)
			switch {
			case rec.Verdict != nil:
				ts.Reasons = rec.Verdict.Reasons
			case rec.Error != "":
				ts.Reasons = []string{rec.Error}
			}
			if rec.Stalled != "" {
				ts.Reasons = append([]string{"stalled: " + rec.Stalled}, ts.Reasons...)
			}
			s.Trials = append(s.Trials, ts)
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	k := len(t.opts.Objectives)
	var data []float64
	var numbers []int
	for _, ts := range s.Trials {
		if ts.Role != RoleCandidate || ts.State != string(search.Complete) || len(ts.Values) != k || ts.Decision == DecisionScreened {
			continue
		}
		for i, o := range t.opts.Objectives {
			v := ts.Values[i]
			if o.Direction == frontier.Maximize {
				v = -v
			}
			data = append(data, v)
		}
		numbers = append(numbers, ts.Number)
	}
	if len(numbers) > 0 {
		for i, r := range frontier.Ranks(data, k) {
			if r == 0 {
				s.Frontier = append(s.Frontier, numbers[i])
			}
		}
	}
	return s, nil
}
