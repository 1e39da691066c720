package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// judge asks the gate about every candidate whose runs have all ended
// without a final verdict (the one just recorded among them), records
// the verdicts, and queues the runs an inconclusive verdict asks for
// (of the candidate, the baseline and archive members, see
// recordVerdict), within the budget and MaxRuns. fb gets the verdict of
// its trial.
func (t *Tuning) judge(ctx context.Context, fb Feedback) (Feedback, error) {
	todo, baseRuns, err := t.waiting(ctx)
	if err != nil || baseRuns < 0 {
		return fb, err // the gate needs the baseline's runs of this session first
	}
	if t.opts.screening() {
		// The screen decides first: screened configurations are not
		// gated, waiting ones are gated once they have their Repeats
		// runs (or the budget is spent).
		err = t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
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
		var tuned map[string][]tunedRun
		if gerr == nil && v.Decision == decide.Inconclusive && len(v.MoreRuns.Members) > 0 {
			if tuned, err = t.tunedMembers(ctx, v.MoreRuns.Members); err != nil {
				return fb, err
			}
		}
		var queued int
		var stalled string
		err := t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
			queued, stalled = 0, ""
			return t.recordVerdict(tx, number, v, gerr, tuned, &queued, &stalled)
		})
		if err != nil {
			return fb, err
		}
		if number == fb.Trial {
			fb.Queued, fb.Stalled = queued, stalled
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
// complete, no verdict yet or an inconclusive one older than their runs,
// the baseline's or those of the archive members it asked runs of, once
// these have none queued or running) and the baseline's complete runs;
// baseRuns is -1 while the baseline runs of the current session are not
// all done (queued or running) or fewer than Repeats of them are
// complete, so that no candidate is judged against the stale baseline
// of an earlier session (the machine may have changed).
func (t *Tuning) waiting(ctx context.Context) (todo []int, baseRuns int, err error) {
	err = t.st.UpdateTune(ctx, t.study, func(tx *tunequeue.Tx) error {
		todo, baseRuns = nil, 0
		trials, runs, err := queueState(tx)
		if err != nil {
			return err
		}
		complete, ended, pending := map[int]int{}, map[int]int{}, map[int]bool{}
		session, sessionRuns, sessionBudget := tx.Study().Session, 0, false
		for _, r := range runs {
			switch r.State {
			case tunequeue.RunComplete:
				complete[r.Number]++
				ended[r.Number]++
			case tunequeue.RunFailed:
				ended[r.Number]++
			case tunequeue.RunQueued, tunequeue.RunRunning:
				pending[r.Number] = true
			}
			if r.Number == tunequeue.BaselineTrial && r.Session == session {
				sessionBudget = true
				if r.State == tunequeue.RunComplete {
					sessionRuns++
				}
			}
		}
		baseRuns = complete[tunequeue.BaselineTrial]
		// A session whose budget allowed no baseline run compares with
		// the newest baseline measured.
		if pending[tunequeue.BaselineTrial] || baseRuns < t.opts.Repeats || sessionBudget && sessionRuns < t.opts.Repeats {
			baseRuns = -1
			return nil
		}
		for _, tr := range trials {
			if tr.Role != RoleCandidate || pending[tr.Number] || complete[tr.Number] == 0 {
				continue
			}
			rec := readRecord(tr.Verdict)
			if tr.Decision == "" {
				todo = append(todo, tr.Number)
				continue
			}
			// An inconclusive candidate waits for the runs of the archive
			// members its verdict asked for, then is judged again.
			if tr.Decision == string(decide.Inconclusive) && !rec.waits(pending) && rec.stale(complete[tr.Number], baseRuns, ended) {
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
	// Members holds, for each archive member an inconclusive verdict
	// asked runs of (by its configuration's number), the member's runs
	// that had ended (complete or failed) when it was judged: it is
	// judged again once they are all done and more have ended.
	Members map[int]int `json:"members,omitempty"`
	// Stalled says why the runs the verdict asks for could not be
	// queued: an archive member this study cannot run (see
	// recordVerdict).
	// Nothing was queued for the candidate then; it is judged again
	// when the baseline's runs change (the next session).
	Stalled string `json:"stalled,omitempty"`
}

// readRecord decodes a verdict column (the zero record when it holds
// none).
func readRecord(b []byte) verdictRecord {
	var v verdictRecord
	if len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return verdictRecord{}
	}
	return v
}

// waits reports whether a member the record asked runs of has runs
// queued or running.
func (v verdictRecord) waits(pending map[int]bool) bool {
	for m := range v.Members {
		if pending[m] {
			return true
		}
	}
	return false
}

// stale reports whether runs ended since the record was judged: of the
// candidate (complete), of the baseline (complete, baseComplete) or of
// an archive member it asked runs of (ended, by number).
func (v verdictRecord) stale(complete, baseComplete int, ended map[int]int) bool {
	if v.Runs < complete || v.BaselineRuns < baseComplete {
		return true
	}
	for m, n := range v.Members {
		if n < ended[m] {
			return true
		}
	}
	return false
}

// gate is the one place the tuning loop asks decide.RunGate: the
// candidate is the configuration's recorded runs, the baseline the
// baseline's.
func (t *Tuning) gate(ctx context.Context, number int) (decide.Verdict, error) {
	cand, err := repeat.ParseSelection(LabelTrial + "=" + strconv.Itoa(number))
	if err != nil {
		return decide.Verdict{}, err
	}
	base, err := repeat.ParseSelection(LabelRole + "=" + RoleBaseline)
	if err != nil {
		return decide.Verdict{}, err
	}
	req := decide.GateRequest{
		Study:     t.study,
		Candidate: decide.GateSide{Name: "trial " + strconv.Itoa(number), Selection: cand},
		Baseline:  decide.GateSide{Name: "baseline", Selection: base},
		// Past MaxRuns an undecided candidate is rejected_max_runs; the
		// baseline's runs per session are capped likewise, and the two caps
		// set the looks the gate spends its false-admit bound over.
		Gate: decide.GateConfig{Objectives: t.opts.Objectives, SLOs: t.slos, MinRepeats: t.opts.Repeats,
			MaxRuns: t.opts.MaxRuns, MaxBaselineRuns: t.opts.MaxRuns},
		NoLabel: t.opts.NoLabel,
	}
	return decide.RunGate(ctx, gateStore{t.st}, req)
}

// tunedRun is a run of this tune study that recorded a trial of an
// archive member: the run's ID and its configuration's number, as the
// trial's labels give them.
type tunedRun struct {
	ID     int64
	Number int
}

// tunedMembers returns, for each archive member asked (key:HEX, as
// verdicts name them), the runs its stored trials name as tune runs
// (LabelRun and LabelTrial), in ingest order; a member none of whose
// trials does (ingested, or gated outside pareto tune) is absent.
// recordVerdict keeps those of this study's runs only (trials ingested
// from another tuning study carry labels too). Keys are computed as gate
// computes them (no configuration keys).
func (t *Tuning) tunedMembers(ctx context.Context, asked map[string]int) (map[string][]tunedRun, error) {
	ts, err := t.st.Trials(ctx, t.study, store.Query{Where: []trial.Condition{{Key: LabelRole, Op: trial.OpEq, Value: RoleCandidate}}})
	if err != nil && !errors.Is(err, store.ErrNoStudy) {
		return nil, err
	}
	out := map[string][]tunedRun{}
	for i := range ts {
		key := "key:" + repeat.Config(&ts[i], nil)
		if _, ok := asked[key]; !ok {
			continue
		}
		id, err1 := strconv.ParseInt(ts[i].Labels[LabelRun], 10, 64)
		n, err2 := strconv.Atoi(ts[i].Labels[LabelTrial])
		if err1 == nil && err2 == nil {
			out[key] = append(out[key], tunedRun{ID: id, Number: n})
		}
	}
	return out, nil
}

// recordVerdict keeps the verdict (or the gate's refusal) of a
// configuration and queues the runs an inconclusive verdict asks for:
// of the candidate, of the baseline and of the archive members (the
// configurations of this study whose runs tuned names, see
// tunedMembers), within the budget and MaxRuns (the baseline's per
// session, since each session re-measures it; a member's over all
// sessions, since the gate pools a member's runs). When a member asked cannot be run (not tuned by this
// study, its newest run failed, or MaxRuns reached), nothing is queued
// for the candidate and stalled says why: decide asks a member's runs
// when the candidate's alone would not settle the question, so they
// would spend the budget for nothing.
func (t *Tuning) recordVerdict(tx *tunequeue.Tx, number int, v decide.Verdict, gerr error, tuned map[string][]tunedRun, queued *int, stalled *string) error {
	trials, runs, err := queueState(tx)
	if err != nil {
		return err
	}
	type counts struct{ all, complete, ended, pending int }
	count := map[int]*counts{}
	newest := map[int]tunequeue.Run{}
	byID := map[int64]int{} // the configuration of each run
	for _, r := range runs {
		byID[r.ID] = r.Number
		c := count[r.Number]
		if c == nil {
			c = &counts{}
			count[r.Number] = c
		}
		c.all++
		switch r.State {
		case tunequeue.RunComplete:
			c.complete++
			c.ended++
		case tunequeue.RunFailed:
			c.ended++
		case tunequeue.RunQueued, tunequeue.RunRunning:
			c.pending++
		}
		newest[r.Number] = r
	}
	of := func(n int) counts {
		if c := count[n]; c != nil {
			return *c
		}
		return counts{}
	}
	cand, baseComplete := of(number), of(tunequeue.BaselineTrial).complete
	ended := map[int]int{}
	for n, c := range count {
		ended[n] = c.ended
	}
	// The gate ran outside this transaction: another worker may have
	// judged the same runs since (and queued the runs its verdict asked
	// for). Its verdict stands; asking again would double the request.
	if cand.pending > 0 {
		return nil
	}
	for _, tr := range trials {
		if tr.Number != number || tr.Decision == "" {
			continue
		}
		if tr.Decision != string(decide.Inconclusive) || !readRecord(tr.Verdict).stale(cand.complete, baseComplete, ended) {
			return nil
		}
	}
	baseSession := 0 // the baseline's runs queued in this session
	for _, r := range runs {
		if r.Number == tunequeue.BaselineTrial && r.Session == tx.Study().Session {
			baseSession++
		}
	}
	rec := verdictRecord{Runs: cand.complete, BaselineRuns: baseComplete}
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
	// The members' runs to queue, by configuration number, or why some
	// member cannot be run.
	memberRuns := map[int]int{}
	var why []string
	if gerr == nil && v.Decision == decide.Inconclusive {
		roles := map[int]string{}
		for _, tr := range trials {
			roles[tr.Number] = tr.Role
		}
		for _, key := range slices.Sorted(maps.Keys(v.MoreRuns.Members)) {
			want := v.MoreRuns.Members[key]
			n, ok := 0, false
			for _, r := range tuned[key] {
				if num, in := byID[r.ID]; in && num == r.Number && roles[num] == RoleCandidate {
					n, ok = num, true
					break
				}
			}
			c := of(n)
			reason := ""
			switch {
			case !ok:
				reason = "it was not measured by this tune study (its runs were ingested or gated outside pareto tune)"
			case newest[n].State == tunequeue.RunFailed:
				reason = fmt.Sprintf("the newest run of its configuration %d failed (%s)", n, newest[n].Reason)
			case want > c.pending && c.all >= t.opts.MaxRuns:
				reason = fmt.Sprintf("its configuration %d has had its %d runs (max_runs)", n, t.opts.MaxRuns)
			}
			if reason != "" {
				why = append(why, fmt.Sprintf("archive member %s needs %d more runs, which this study cannot run: %s; remove it from the archive (revoke %s) or record more of its runs",
					key, want, reason, key))
				continue
			}
			if rec.Members == nil {
				rec.Members = map[int]int{}
			}
			rec.Members[n] = c.ended
			// Runs another candidate's verdict queued count for this one.
			memberRuns[n] = max(memberRuns[n], want-c.pending)
		}
	}
	if len(why) > 0 {
		rec.Stalled = strings.Join(why, "; ") + "; the candidate is judged again when the baseline is re-measured (the next session)"
		*stalled = rec.Stalled
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
	if gerr != nil || v.Decision != decide.Inconclusive || rec.Stalled != "" {
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
	if err := add(number, v.MoreRuns.Candidate, cand.all); err != nil {
		return err
	}
	// The baseline is re-measured every session: its cap is per session
	// (runs added above are this session's).
	if err := add(tunequeue.BaselineTrial, v.MoreRuns.Baseline, baseSession); err != nil {
		return err
	}
	for _, n := range slices.Sorted(maps.Keys(memberRuns)) {
		if err := add(n, memberRuns[n], of(n).all); err != nil {
			return err
		}
	}
	return nil
}
