package tune

import (
	"encoding/json"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store"
)

// DecisionScreened is the decision of a candidate the screen dropped: its
// first runs are clearly dominated beyond the noise band, so it gets no
// further repeats and the gate is not asked about it.
const DecisionScreened = "screened"

// firstRuns is the number of runs queued for a new configuration: Screen
// when the screen is on, else Repeats.
func (o Options) firstRuns() int {
	if o.Screen > 0 && o.Screen < o.Repeats {
		return o.Screen
	}
	return o.Repeats
}

// screenObjectives is the relation of the screen: a configuration is
// clearly dominated when another is no worse on every objective beyond
// its noise band and better on one by more than its minimum improvement
// plus its noise band (frontier.Beats, the noise-aware frontier's
// relation, with the minimum improvements widened by the bands), judged
// on the medians of the runs each has. The margin keeps a configuration
// whose frontier membership the noise leaves uncertain.
func (t *Tuning) screenObjectives() []frontier.Objective {
	objs := make([]frontier.Objective, len(t.opts.Objectives))
	for i, o := range t.opts.Objectives {
		objs[i] = frontier.Objective{Name: o.Name, Direction: o.Direction, Noise: o.Noise, MinImprove: o.MinImprove + o.Noise}
	}
	return objs
}

// screen decides, for each configuration of todo that has had only its
// first runs, whether it gets its further repeats: a configuration
// clearly dominated by another configuration's medians (the baseline's
// included) is screened (no more runs, not gated); any other one, whose
// frontier membership is still uncertain, gets Repeats runs in all,
// within the budget. It returns the configurations left to gate.
func (t *Tuning) screen(tx *store.TuneTx, todo []int) ([]int, error) {
	if t.opts.firstRuns() == t.opts.Repeats || len(todo) == 0 {
		return todo, nil
	}
	trials, err := tx.Trials()
	if err != nil {
		return nil, err
	}
	runs, err := tx.Runs()
	if err != nil {
		return nil, err
	}
	k := len(t.opts.Objectives)
	vals, complete, failed := map[int][][]float64{}, map[int]int{}, map[int]bool{}
	for _, r := range runs {
		if r.State == store.RunFailed {
			failed[r.Number] = true
		}
		if r.State != store.RunComplete {
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
	objs := t.screenObjectives()
	ts := tx.Study()
	left := ts.Budget - ts.Runs
	var keep []int
	for _, number := range todo {
		if complete[number] >= t.opts.Repeats || failed[number] { // a failed configuration is not measured again
			keep = append(keep, number)
			continue
		}
		c, ok := medians[number]
		if !ok {
			keep = append(keep, number) // the gate says what is missing
			continue
		}
		dominated := false
		for n, a := range medians {
			if n != number && frontier.Beats(a, c, objs) {
				dominated = true
				break
			}
		}
		if !dominated {
			add := max(0, min(t.opts.Repeats-complete[number], left))
			for range add {
				if _, err := tx.AddRun(number); err != nil {
					return nil, err
				}
			}
			left -= add
			if add == 0 {
				keep = append(keep, number) // the budget is spent: judge what it has
			}
			continue
		}
		for _, tr := range trials {
			if tr.Number == number {
				tr.Decision = DecisionScreened
				if err := tx.PutTrial(tr); err != nil {
					return nil, err
				}
			}
		}
	}
	return keep, nil
}
