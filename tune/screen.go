package tune

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// DecisionScreened is the decision of a candidate the screen dropped: its
// first runs are clearly dominated beyond the noise band, so it gets no
// further repeats and the gate is not asked about it.
const DecisionScreened = "screened"

// screening reports whether the screen is on (Options.Screen).
func (o Options) screening() bool { return o.Screen > 0 && o.Screen < o.Repeats }

// firstRuns is the number of runs queued for a new configuration: Screen
// when the screen is on, else Repeats.
func (o Options) firstRuns() int {
	if o.screening() {
		return o.Screen
	}
	return o.Repeats
}

// screenZ is how many standard errors of the difference of two medians
// the screen's margin holds.
const screenZ = 2

// screenObjectives is the relation of the screen between a
// configuration measured na times and one measured nc times: the
// noise-aware frontier's relation (frontier.Beats) with the uncertainty
// of the difference of the two estimates, u = screenZ·σ·√(1/na + 1/nc)
// (σ the objective's noise band, taken as the run-to-run noise), held
// against the beater on both sides: its band shrinks to σ−u (below zero
// it must be better by the rest) and its minimum improvement grows to
// δ+u. A configuration another beats under it is clearly dominated
// beyond the band; with no bands it is strict dominance.
func (t *Tuning) screenObjectives(objs []frontier.Objective, na, nc int) []frontier.Objective {
	se := screenZ * math.Sqrt(1/float64(na)+1/float64(nc))
	for i, o := range t.opts.Objectives {
		u := o.Noise * se
		objs[i] = frontier.Objective{Name: o.Name, Direction: o.Direction, Noise: o.Noise - u, MinImprove: o.MinImprove + u}
	}
	return objs
}

// screen looks at every candidate that has had only its first runs (all
// ended, none failed, no decision): one clearly dominated by another
// configuration's medians (the baseline's and the screened ones'
// included) is screened; it returns the others, whose frontier
// membership is still uncertain, with the runs each misses to Repeats.
// A waiting configuration is screened again at every call, so that one
// the later configurations dominate gets no further runs either.
func (t *Tuning) screen(tx *tunequeue.Tx) (map[int]int, error) {
	if !t.opts.screening() {
		return nil, nil
	}
	trials, runs, err := queueState(tx)
	if err != nil {
		return nil, err
	}
	k := len(t.opts.Objectives)
	vals, complete := map[int][][]float64{}, map[int]int{}
	done := map[int]bool{} // every run ended, none failed
	for _, r := range runs {
		if _, ok := done[r.Number]; !ok {
			done[r.Number] = true
		}
		switch r.State {
		case tunequeue.RunQueued, tunequeue.RunRunning, tunequeue.RunFailed:
			done[r.Number] = false
			continue
		}
		complete[r.Number]++
		var res runResult
		if json.Unmarshal(r.Result, &res) != nil || len(res.Values) != k {
			continue
		}
		v := vals[r.Number]
		if v == nil {
			v = make([][]float64, k)
		}
		for i, x := range res.Values {
			if x != nil {
				v[i] = append(v[i], *x)
			}
		}
		vals[r.Number] = v
	}
	medians := map[int][]float64{}
	for n, v := range vals {
		m := make([]float64, k)
		ok := true
		for i := range v {
			if len(v[i]) == 0 {
				ok = false
				break
			}
			m[i] = median(v[i])
		}
		if ok {
			medians[n] = m
		}
	}
	objs := make([]frontier.Objective, k)
	waiting := map[int]int{}
	for _, tr := range trials {
		n := tr.Number
		if tr.Role != RoleCandidate || tr.Decision != "" || !done[n] || complete[n] >= t.opts.Repeats {
			continue
		}
		c, ok := medians[n]
		if !ok {
			continue // the gate says what is missing
		}
		dominated := false
		for m, a := range medians {
			if m != n && frontier.Beats(a, c, t.screenObjectives(objs, complete[m], complete[n])) {
				dominated = true
				break
			}
		}
		if !dominated {
			waiting[n] = t.opts.Repeats - complete[n]
			continue
		}
		tr.Decision = DecisionScreened
		if err := tx.PutTrial(tr); err != nil {
			return nil, err
		}
	}
	return waiting, nil
}

// repeatUncertain queues the further repeats of the waiting
// configurations (screen), lowest number first, within the budget, and
// returns how many it queued.
func (t *Tuning) repeatUncertain(tx *tunequeue.Tx, waiting map[int]int) (int, error) {
	ts := tx.Study()
	left := ts.Budget - ts.Runs
	queued := 0
	for _, n := range slices.Sorted(mapsKeys(waiting)) {
		for range max(0, min(waiting[n], left)) {
			if _, err := tx.AddRun(n); err != nil {
				return queued, err
			}
			left--
			queued++
		}
	}
	return queued, nil
}

func mapsKeys(m map[int]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// reserved reports whether the budget left must go to the further
// repeats of the waiting configurations rather than to a new
// configuration's first runs.
func (t *Tuning) reserved(tx *tunequeue.Tx, waiting map[int]int) bool {
	need := 0
	for _, n := range waiting {
		need += n
	}
	ts := tx.Study()
	return need > 0 && ts.Budget-ts.Runs-t.opts.firstRuns() < need
}

// queueState reads the study's configurations and runs in tx: what the
// gate, screening and the sampler's reconciliation each start from.
func queueState(tx *tunequeue.Tx) ([]tunequeue.Trial, []tunequeue.Run, error) {
	trials, err := tx.Trials()
	if err != nil {
		return nil, nil, err
	}
	runs, err := tx.Runs()
	return trials, runs, err
}
