package query

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// jsonResult is the JSON contract (docs/COMMANDS.md) of pareto front, decoded.
type jsonResult struct {
	Objectives []struct {
		Name       string  `json:"name"`
		Direction  string  `json:"direction"`
		Noise      float64 `json:"noise"`
		MinImprove float64 `json:"min_improve"`
	} `json:"objectives"`
	SLOs      []string `json:"slos"`
	Aggregate string   `json:"aggregate"`
	Groups    []struct {
		Name     string `json:"name"`
		Frontier []struct {
			jsonPoint
			Ties      []string `json:"ties"`
			NoiseTied []string `json:"noise_tied"`
		} `json:"frontier"`
		Dominated []struct {
			jsonPoint
			DominatedBy string             `json:"dominated_by"`
			WinOn       []string           `json:"win_on"`
			Deltas      map[string]float64 `json:"deltas"`
		} `json:"dominated"`
		Counts     map[string]int `json:"counts"`
		Infeasible []struct {
			jsonPoint
			Violations []struct {
				Bound string   `json:"bound"`
				Value *float64 `json:"value"`
			} `json:"violations"`
		} `json:"infeasible"`
		Invalid []struct {
			ID     string `json:"id"`
			Reason string `json:"reason"`
		} `json:"invalid"`
		Hypervolume *float64  `json:"hypervolume"`
		Reference   []float64 `json:"reference"`
	} `json:"groups"`
	Skipped  []trial.Skip `json:"skipped"`
	Warnings []string     `json:"warnings"`
}

type jsonPoint struct {
	ID      string              `json:"id"`
	Values  map[string]*float64 `json:"values"`
	Rank    *int                `json:"rank"`
	N       int                 `json:"n"`
	Members []string            `json:"members"`
	Spread  map[string]struct {
		Min, Q1, Median, Q3, Max float64
	} `json:"spread"`
}

// randomTrials makes trials of configurations c0..c(k-1) at two loads with
// up to four repeats each; some lack a metric, so that every list of the
// result is exercised.
func randomTrials(r *rand.Rand, n, k int) []trial.Trial {
	ts := make([]trial.Trial, n)
	for i := range ts {
		c := r.IntN(k)
		t := &ts[i]
		t.Source = trial.Source{Path: "r.jsonl", Format: "test", Line: i + 1}
		t.SetParam("config", "c"+strconv.Itoa(c))
		t.Workload.Concurrency = float64(int(8) << r.IntN(2))
		base := float64(c + 1)
		if r.IntN(20) > 0 {
			t.Measurements = append(t.Measurements, trial.Measurement{Metric: "a", Value: math.Round(base*100*(1+0.05*r.NormFloat64())) / 100})
		}
		t.Measurements = append(t.Measurements, trial.Measurement{Metric: "b", Value: math.Round(1000*r.Float64()*base) / 10})
		t.Finalize()
	}
	return ts
}

// TestJSONRoundTrip checks that the JSON encoder writes the typed result
// exactly: decoded, every group's lists, ids, values, members, spreads
// and counts equal what Result.Groups returns, over random inputs.
func TestJSONRoundTrip(t *testing.T) {
	seen := map[string]int{}
	defer func() {
		for _, k := range []string{"frontier", "dominated", "infeasible", "invalid", "repeats"} {
			if seen[k] == 0 {
				t.Errorf("no input exercised %s", k)
			}
		}
	}()
	for seed := range uint64(25) {
		r := rand.New(rand.NewPCG(seed, 7))
		slo, _ := frontier.ParseSLO("b>=" + strconv.Itoa(20+r.IntN(200)))
		q := &Query{Objectives: []frontier.Objective{{Name: "a", Direction: frontier.Minimize}, {Name: "b", Direction: frontier.Maximize}},
			SLOs: []frontier.SLO{slo}, ConfigKeys: []string{"config"}, Ranks: seed%2 == 0, AutoReference: seed%3 == 0,
			Aggregate: []repeat.Aggregation{repeat.Median, repeat.Mean, repeat.None}[seed%3]}
		if seed%4 == 1 {
			q.Objectives[0].Noise, q.Objectives[0].MinImprove = 0.05, 0.02
		}
		rows := NewRows(q)
		rows.AddTrials(randomTrials(r, 5+r.IntN(60), 1+r.IntN(8)))
		res, err := Run(q, rows)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := res.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var got jsonResult
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, buf.String())
		}
		if got.Aggregate != res.aggregate || len(got.Objectives) != 2 || len(got.SLOs) != 1 || got.SLOs[0] != slo.String() {
			t.Fatalf("seed %d: header %+v", seed, got)
		}
		groups := res.Groups()
		if len(got.Groups) != len(groups) {
			t.Fatalf("seed %d: %d groups; want %d", seed, len(got.Groups), len(groups))
		}
		for g, want := range groups {
			jg := got.Groups[g]
			seen["frontier"] += len(want.Frontier)
			seen["dominated"] += len(want.Dominated)
			seen["infeasible"] += len(want.Infeasible)
			seen["invalid"] += len(want.Invalid)
			for _, p := range append(want.Frontier, want.Dominated...) {
				if len(p.Members) > 1 {
					seen["repeats"]++
				}
			}
			check := func(list string, jp []jsonPoint, wp []Point) {
				t.Helper()
				if len(jp) != len(wp) {
					t.Fatalf("seed %d: %s has %d points; want %d", seed, list, len(jp), len(wp))
				}
				for i := range wp {
					comparePoint(t, fmt.Sprintf("seed %d %s[%d]", seed, list, i), q, jp[i], wp[i])
				}
			}
			check("frontier", pointsOf(jg.Frontier, func(x struct {
				jsonPoint
				Ties      []string `json:"ties"`
				NoiseTied []string `json:"noise_tied"`
			}) jsonPoint {
				return x.jsonPoint
			}), want.Frontier)
			check("dominated", pointsOf(jg.Dominated, func(x struct {
				jsonPoint
				DominatedBy string             `json:"dominated_by"`
				WinOn       []string           `json:"win_on"`
				Deltas      map[string]float64 `json:"deltas"`
			}) jsonPoint {
				return x.jsonPoint
			}), want.Dominated)
			check("infeasible", pointsOf(jg.Infeasible, func(x struct {
				jsonPoint
				Violations []struct {
					Bound string   `json:"bound"`
					Value *float64 `json:"value"`
				} `json:"violations"`
			}) jsonPoint {
				return x.jsonPoint
			}), want.Infeasible)
			for i, d := range want.Analysis.Dominated {
				if by := res.data.ids[d.By]; jg.Dominated[i].DominatedBy != by {
					t.Errorf("seed %d: dominated[%d] by %s; want %s", seed, i, jg.Dominated[i].DominatedBy, by)
				}
			}
			if len(jg.Invalid) != len(want.Invalid) {
				t.Fatalf("seed %d: %d invalid; want %d", seed, len(jg.Invalid), len(want.Invalid))
			}
			for i, p := range want.Invalid {
				if jg.Invalid[i].ID != p.ID || jg.Invalid[i].Reason != p.Reason {
					t.Errorf("seed %d: invalid[%d] = %+v; want %s %q", seed, i, jg.Invalid[i], p.ID, p.Reason)
				}
			}
			counts := map[string]int{"frontier": len(want.Frontier), "dominated": len(want.Dominated),
				"infeasible": len(want.Infeasible), "invalid": len(want.Invalid)}
			for k, v := range counts {
				if jg.Counts[k] != v {
					t.Errorf("seed %d: counts[%s] = %d; want %d", seed, k, jg.Counts[k], v)
				}
			}
			if want.Analysis.HasHypervolume != (jg.Hypervolume != nil) ||
				(jg.Hypervolume != nil && *jg.Hypervolume != want.Analysis.Hypervolume) {
				t.Errorf("seed %d: hypervolume %v; want %v (%v)", seed, jg.Hypervolume, want.Analysis.Hypervolume, want.Analysis.HasHypervolume)
			}
		}
	}
}

func pointsOf[T any](xs []T, f func(T) jsonPoint) []jsonPoint {
	out := make([]jsonPoint, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func comparePoint(t *testing.T, where string, q *Query, j jsonPoint, w Point) {
	t.Helper()
	if j.ID != w.ID {
		t.Errorf("%s: id %q; want %q", where, j.ID, w.ID)
	}
	for o, obj := range q.Objectives {
		v := j.Values[obj.Name]
		want := w.Values[o]
		if frontier.IsMissing(want) || math.IsNaN(want) || math.IsInf(want, 0) {
			if v != nil {
				t.Errorf("%s: %s = %v; want null", where, obj.Name, *v)
			}
			continue
		}
		if v == nil || *v != want {
			t.Errorf("%s: %s = %v; want %v", where, obj.Name, v, want)
		}
	}
	if j.N != len(w.Members) {
		t.Errorf("%s: n = %d; want %d", where, j.N, len(w.Members))
	}
	if len(w.Members) > 1 {
		if !slices.Equal(j.Members, w.Members) {
			t.Errorf("%s: members %v; want %v", where, j.Members, w.Members)
		}
		for o, obj := range q.Objectives {
			s, st := j.Spread[obj.Name], w.Spread[o]
			if s.Min != st.Min || s.Max != st.Max || s.Median != st.Median || s.Q1 != st.Q1 || s.Q3 != st.Q3 {
				t.Errorf("%s: spread of %s %+v; want %+v", where, obj.Name, s, st)
			}
		}
	}
}

// TestCSVRoundTrip checks that the CSV encoder writes one row per point
// with its status and exact values.
func TestCSVRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	slo, _ := frontier.ParseSLO("b>=50")
	q := &Query{Objectives: []frontier.Objective{{Name: "a", Direction: frontier.Minimize}, {Name: "b", Direction: frontier.Maximize}},
		SLOs: []frontier.SLO{slo}, ConfigKeys: []string{"config"}}
	rows := NewRows(q)
	rows.AddTrials(randomTrials(r, 80, 6))
	res, err := Run(q, rows)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Point{}
	status := map[string]string{}
	g := res.Groups()[0]
	for name, list := range map[string][]Point{"frontier": g.Frontier, "dominated": g.Dominated, "infeasible": g.Infeasible, "invalid": g.Invalid} {
		for _, p := range list {
			want[p.ID], status[p.ID] = p, name
		}
	}
	if len(recs)-1 != len(want) {
		t.Fatalf("%d CSV rows; want %d", len(recs)-1, len(want))
	}
	for _, rec := range recs[1:] {
		id := rec[1]
		p, ok := want[id]
		if !ok || rec[2] != status[id] {
			t.Errorf("row %v: status %q; want %q", rec[:3], rec[2], status[id])
			continue
		}
		for o := range q.Objectives {
			v := p.Values[o]
			if frontier.IsMissing(v) {
				if rec[3+o] != "" {
					t.Errorf("row %s: value %q; want empty", id, rec[3+o])
				}
				continue
			}
			if got, err := strconv.ParseFloat(rec[3+o], 64); err != nil || got != v {
				t.Errorf("row %s: value %q; want %v", id, rec[3+o], v)
			}
		}
	}
}

// TestRepeatsBruteForce checks the pipeline against a direct computation
// over random inputs: every comparable run belongs to exactly one point,
// a point's runs share their configuration and workload, its value is the
// median of theirs (SLO columns too), and the strict frontier is exactly
// the feasible points no other feasible point dominates.
func TestRepeatsBruteForce(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 99))
		slo, _ := frontier.ParseSLO("b>=" + strconv.Itoa(10+r.IntN(300)))
		q := &Query{Objectives: []frontier.Objective{{Name: "a", Direction: frontier.Minimize}, {Name: "b", Direction: frontier.Maximize}},
			SLOs: []frontier.SLO{slo}, ConfigKeys: []string{"config"}}
		ts := randomTrials(r, 1+r.IntN(80), 1+r.IntN(10))
		rows := NewRows(q)
		rows.AddTrials(ts)
		res, err := Run(q, rows)
		if err != nil {
			t.Fatal(err)
		}
		value := func(t *trial.Trial, m string) (float64, bool) {
			for _, x := range t.Measurements {
				if x.Metric == m {
					return x.Value, true
				}
			}
			return 0, false
		}
		seen := make([]int, len(ts))
		type pt struct {
			a, b     float64
			feasible bool
		}
		var valid []pt
		for p := range int32(res.Len()) {
			members := res.Members(p)
			first := &ts[members[0]]
			var as, bs []float64
			for _, m := range members {
				seen[m]++
				tm := &ts[m]
				if tm.Params["config"] != first.Params["config"] || tm.Workload != first.Workload {
					t.Fatalf("seed %d: point %d mixes %v and %v", seed, p, first.Params, tm.Params)
				}
				a, okA := value(tm, "a")
				b, _ := value(tm, "b")
				if !okA {
					if len(members) > 1 {
						t.Fatalf("seed %d: run %d without a is merged into point %d", seed, m, p)
					}
					continue
				}
				as, bs = append(as, a), append(bs, b)
			}
			if len(as) == 0 {
				continue
			}
			wantA, wantB := repeat.Summarize(as, repeat.Median).Value, repeat.Summarize(bs, repeat.Median).Value
			if res.Value(p, 0) != wantA || res.Value(p, 1) != wantB {
				t.Fatalf("seed %d: point %d = (%v, %v); want medians (%v, %v)", seed, p, res.Value(p, 0), res.Value(p, 1), wantA, wantB)
			}
			valid = append(valid, pt{wantA, wantB, wantB >= slo.Bound})
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("seed %d: run %d is in %d points", seed, i, n)
			}
		}
		var want [][2]float64
		for i, p := range valid {
			if !p.feasible {
				continue
			}
			dominated := false
			for j, o := range valid {
				if j != i && o.feasible && o.a <= p.a && o.b >= p.b && (o.a < p.a || o.b > p.b) {
					dominated = true
				}
			}
			if !dominated {
				want = append(want, [2]float64{p.a, p.b})
			}
		}
		var got [][2]float64
		for _, m := range res.Analysis(0).Frontier {
			got = append(got, [2]float64{res.Value(m.Row, 0), res.Value(m.Row, 1)})
		}
		slices.SortFunc(want, func(x, y [2]float64) int { return cmpPair(x, y) })
		slices.SortFunc(got, func(x, y [2]float64) int { return cmpPair(x, y) })
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: frontier %v; want %v", seed, got, want)
		}
	}
}

func cmpPair(x, y [2]float64) int {
	if x[0] != y[0] {
		if x[0] < y[0] {
			return -1
		}
		return 1
	}
	switch {
	case x[1] < y[1]:
		return -1
	case x[1] > y[1]:
		return 1
	}
	return 0
}
