package tune

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/store"
)

// judge asks the gate about every candidate whose runs have all ended
// without a final verdict (the one just recorded among them), records
// the verdicts, and queues the runs an inconclusive verdict asks for,
// within the budget and MaxRuns. fb gets the verdict of its trial.
func (t *Tuning) judge(ctx context.Context, fb Feedback) (Feedback, error) {
	todo, baseRuns, err := t.waiting(ctx)
	if err != nil || baseRuns < 0 {
		return fb, err // the gate needs the baseline's runs of this session first
	}
	if t.opts.screening() {
		// The screen decides first: screened configurations are not
		// gated, waiting ones are gated once they have their Repeats
		// runs (or the budget is spent).
		err = t.q.UpdateTune(ctx, t.study, func(tx *store.TuneTx) error {
			waiting, err := t.screen(tx)
			if err != nil {
				return err
			}
			trials, err := tx.Trials()
			if err != nil {
				return err
			}
			screened := map[int]bool{}
			for _, tr := range trials {
				screened[tr.Number] = tr.Decision == DecisionScreened
			}
			spent := tx.Study().Budget <= tx.Study().Runs
			todo = slices.DeleteFunc(todo, func(n int) bool {
				_, wait := waiting[n]
				return screened[n] || wait && !spent
			})
			return nil
		})
		if err != nil {
			return fb, err
		}
	}
	for _, number := range todo {
		v, gerr := t.gate(ctx, number)
		var queued int
		err := t.q.UpdateTune(ctx, t.study, func(tx *store.TuneTx) error {
			queued = 0
			return t.recordVerdict(tx, number, v, gerr, &queued)
		})
		if err != nil {
			return fb, err
		}
		if number == fb.Trial {
			fb.Queued = queued
			if gerr != nil {
				fb.GateError = gerr.Error()
			} else {
				fb.Verdict = &v
			}
		}
	}
	return fb, nil
}

// waiting returns the candidates to judge (every run ended, at least one
// complete, no verdict yet or an inconclusive one older than their
// runs) and the baseline's complete runs; baseRuns is -1 while the
// baseline runs of the current session are not all done (queued or
// running) or fewer than Repeats of them are complete, so that no
// candidate is judged against the stale baseline of an earlier session
// (the machine may have changed).
func (t *Tuning) waiting(ctx context.Context) (todo []int, baseRuns int, err error) {
	err = t.q.UpdateTune(ctx, t.study, func(tx *store.TuneTx) error {
		todo, baseRuns = nil, 0
		trials, err := tx.Trials()
		if err != nil {
			return err
		}
		runs, err := tx.Runs()
		if err != nil {
			return err
		}
		complete, pending := map[int]int{}, map[int]bool{}
		session, sessionRuns, sessionBudget := tx.Study().Session, 0, false
		for _, r := range runs {
			switch r.State {
			case store.RunComplete:
				complete[r.Number]++
			case store.RunQueued, store.RunRunning:
				pending[r.Number] = true
			}
			if r.Number == store.BaselineTrial && r.Session == session {
				sessionBudget = true
				if r.State == store.RunComplete {
					sessionRuns++
				}
			}
		}
		baseRuns = complete[store.BaselineTrial]
		// A session whose budget allowed no baseline run compares with
		// the newest baseline measured.
		if pending[store.BaselineTrial] || baseRuns < t.opts.Repeats || sessionBudget && sessionRuns < t.opts.Repeats {
			baseRuns = -1
			return nil
		}
		for _, tr := range trials {
			if tr.Role != RoleCandidate || pending[tr.Number] || complete[tr.Number] == 0 {
				continue
			}
			cand, base := judgedRuns(tr.Verdict)
			if tr.Decision == "" || (tr.Decision == string(decide.Inconclusive) && (cand < complete[tr.Number] || base < baseRuns)) {
				todo = append(todo, tr.Number)
			}
		}
		return nil
	})
	return todo, baseRuns, err
}

// verdictRecord is what a configuration's verdict column holds.
type verdictRecord struct {
	Verdict *decide.Verdict `json:"verdict,omitempty"`
	Error   string          `json:"error,omitempty"`
	// Runs and BaselineRuns are the complete runs of the candidate and
	// of the baseline when it was judged.
	Runs         int `json:"runs"`
	BaselineRuns int `json:"baseline_runs"`
}

func judgedRuns(b []byte) (cand, base int) {
	var v verdictRecord
	if json.Unmarshal(b, &v) != nil {
		return 0, 0
	}
	return v.Runs, v.BaselineRuns
}

// gate is the one place the tuning loop asks decide.RunGate: the
// candidate is the configuration's recorded runs, the baseline the
// baseline's.
func (t *Tuning) gate(ctx context.Context, number int) (decide.Verdict, error) {
	cand, err := decide.ParseSelection(LabelTrial + "=" + strconv.Itoa(number))
	if err != nil {
		return decide.Verdict{}, err
	}
	base, err := decide.ParseSelection(LabelRole + "=" + RoleBaseline)
	if err != nil {
		return decide.Verdict{}, err
	}
	req := decide.GateRequest{
		Study:     t.study,
		Candidate: decide.GateSide{Name: "trial " + strconv.Itoa(number), Selection: cand},
		Baseline:  decide.GateSide{Name: "baseline", Selection: base},
		Gate: decide.GateConfig{Objectives: t.opts.Objectives, SLOs: t.slos, MinRepeats: t.opts.Repeats,
			MaxRuns: t.opts.MaxRuns}, // past it, an undecided candidate is rejected_max_runs
		NoLabel: t.opts.NoLabel,
	}
	return decide.RunGate(ctx, store.Selecting{Store: t.st}, req)
}

// recordVerdict keeps the verdict (or the gate's refusal) of a
// configuration and queues the runs an inconclusive verdict asks for.
func (t *Tuning) recordVerdict(tx *store.TuneTx, number int, v decide.Verdict, gerr error, queued *int) error {
	trials, err := tx.Trials()
	if err != nil {
		return err
	}
	runs, err := tx.Runs()
	if err != nil {
		return err
	}
	count := func(n int) (all, complete int) {
		for _, r := range runs {
			if r.Number == n {
				all++
				if r.State == store.RunComplete {
					complete++
				}
			}
		}
		return all, complete
	}
	all, complete := count(number)
	_, baseComplete := count(store.BaselineTrial)
	// The gate ran outside this transaction: another worker may have
	// judged the same runs since (and queued the runs its verdict asked
	// for). Its verdict stands; asking again would double the request.
	for _, r := range runs {
		if r.Number == number && (r.State == store.RunQueued || r.State == store.RunRunning) {
			return nil
		}
	}
	for _, tr := range trials {
		if tr.Number != number || tr.Decision == "" {
			continue
		}
		cand, base := judgedRuns(tr.Verdict)
		if tr.Decision != string(decide.Inconclusive) || (cand >= complete && base >= baseComplete) {
			return nil
		}
	}
	baseSession := 0 // the baseline's runs queued in this session
	for _, r := range runs {
		if r.Number == store.BaselineTrial && r.Session == tx.Study().Session {
			baseSession++
		}
	}
	rec := verdictRecord{Runs: complete, BaselineRuns: baseComplete}
	decision := "error"
	switch {
	case gerr == nil:
		rec.Verdict, decision = &v, string(v.Decision)
	case errors.Is(gerr, decide.ErrCandidateIsBaseline):
		rec.Error, decision = gerr.Error(), "baseline"
	case errors.Is(gerr, context.Canceled) || errors.Is(gerr, context.DeadlineExceeded):
		return gerr
	default: // the candidate's runs are recorded; the gate could not judge them
		rec.Error = gerr.Error()
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	for _, tr := range trials {
		if tr.Number == number {
			tr.Decision, tr.Verdict = decision, b
			if err := tx.PutTrial(tr); err != nil {
				return err
			}
		}
	}
	if gerr != nil || v.Decision != decide.Inconclusive {
		return nil
	}
	ts := tx.Study()
	left := ts.Budget - ts.Runs
	add := func(n, want, have int) error {
		for range max(0, min(want, t.opts.MaxRuns-have, left)) {
			if _, err := tx.AddRun(n); err != nil {
				return err
			}
			left--
			*queued++
		}
		return nil
	}
	if err := add(number, v.MoreRuns.Candidate, all); err != nil {
		return err
	}
	// The baseline is re-measured every session: its cap is per session
	// (runs added above are this session's).
	return add(store.BaselineTrial, v.MoreRuns.Baseline, baseSession)
}
