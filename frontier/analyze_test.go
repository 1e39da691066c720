package frontier

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// randomProblem builds a problem with n rows, k objectives, one SLO on an
// objective and one on an extra column, and a few invalid cells.
func randomProblem(rng *rand.Rand, n, k int, cyclic bool) *Problem {
	p := &Problem{Objectives: randomObjectives(rng, k, cyclic)}
	data := clusteredPoints(rng, n, k)
	p.Values = make([][]float64, k)
	for o := range k {
		p.Values[o] = make([]float64, n)
		for r := range n {
			p.Values[o][r] = data[r*k+o]
		}
	}
	for range n / 20 {
		o, r := rng.IntN(k), rng.IntN(n)
		p.Values[o][r] = []float64{Missing, math.NaN(), math.Inf(1), 0, -1}[rng.IntN(5)]
	}
	extra := make([]float64, n)
	for r := range extra {
		extra[r] = float64(rng.IntN(10))
	}
	p.SLOs = []SLO{{Name: "o0", Op: LE, Bound: 1.2}, {Name: "extra", Op: GT, Bound: 1}}
	p.SLOValues = [][]float64{p.Values[0], extra}
	return p
}

// bruteAnalyze classifies every row by definition: invalid, infeasible,
// then the Schwartz set of the feasible rows.
func bruteAnalyze(p *Problem) (invalid, infeasible, front map[int32]bool) {
	invalid, infeasible, front = map[int32]bool{}, map[int32]bool{}, map[int32]bool{}
	k := len(p.Objectives)
	var feas []int32
	for r := range int32(len(p.Values[0])) {
		bad := false
		for o, obj := range p.Objectives {
			v := p.Values[o][r]
			bad = bad || math.IsNaN(v) || math.IsInf(v, 0) || obj.Relative() && v <= 0
		}
		switch {
		case bad:
			invalid[r] = true
		case !p.SLOs[0].Holds(p.SLOValues[0][r]) || !p.SLOs[1].Holds(p.SLOValues[1][r]):
			infeasible[r] = true
		default:
			feas = append(feas, r)
		}
	}
	data := p.matrix(feas)
	for i, in := range bruteSchwartz(data, p.Objectives) {
		if in {
			front[feas[i]] = true
		}
	}
	_ = k
	return invalid, infeasible, front
}

func TestAnalyzeMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 400 {
		k := 2 + trial%5 // k = 2..6
		p := randomProblem(rng, 1+rng.IntN(70), k, trial%3 == 0)
		res, err := Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		inv, infeas, front := bruteAnalyze(p)
		check := func(name string, got []int32, want map[int32]bool) {
			t.Helper()
			if len(got) != len(want) {
				t.Fatalf("trial %d k=%d: %s has %d rows, want %d", trial, k, name, len(got), len(want))
			}
			for _, r := range got {
				if !want[r] {
					t.Fatalf("trial %d k=%d: row %d wrongly %s", trial, k, r, name)
				}
			}
		}
		check("invalid", rowsOf(res.Invalid, func(x Invalid) int32 { return x.Row }), inv)
		check("infeasible", rowsOf(res.Infeasible, func(x Infeasible) int32 { return x.Row }), infeas)
		check("frontier", rowsOf(res.Frontier, func(x Member) int32 { return x.Row }), front)
		for _, d := range res.Dominated {
			a, b := p.matrix([]int32{d.By}), p.matrix([]int32{d.Row})
			if !Beats(a, b, p.Objectives) || len(p.WinOn(d.By, d.Row)) == 0 {
				t.Fatalf("trial %d: row %d explained by %d, which does not beat it", trial, d.Row, d.By)
			}
		}
		for _, x := range res.Infeasible {
			if len(x.Violations) == 0 {
				t.Fatalf("trial %d: infeasible row %d without violations", trial, x.Row)
			}
		}
	}
}

func rowsOf[T any](xs []T, row func(T) int32) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = row(x)
	}
	return out
}

// TestAnalyzeOrderIndependent permutes the rows and checks that the same
// trials (by original row) land in each list, with the same ties.
func TestAnalyzeOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 100 {
		k := 2 + trial%4
		p := randomProblem(rng, 60, k, trial%2 == 0)
		res, _ := Analyze(p)
		perm := rng.Perm(60)
		q := &Problem{Objectives: p.Objectives, SLOs: p.SLOs}
		q.Values = permuteColumns(p.Values, perm)
		q.SLOValues = permuteColumns(p.SLOValues, perm)
		res2, _ := Analyze(q)
		orig := func(r int32) int32 { return int32(perm[r]) }
		a := rowsOf(res.Frontier, func(m Member) int32 { return m.Row })
		b := rowsOf(res2.Frontier, func(m Member) int32 { return orig(m.Row) })
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("trial %d: frontier %v, after permutation %v", trial, a, b)
		}
		if len(res.Dominated) != len(res2.Dominated) || len(res.Infeasible) != len(res2.Infeasible) {
			t.Fatalf("trial %d: list sizes change under permutation", trial)
		}
	}
}

func permuteColumns(cols [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(cols))
	for c, col := range cols {
		out[c] = make([]float64, len(col))
		for i, p := range perm {
			out[c][i] = col[p]
		}
	}
	return out
}

func TestAnalyzeTiesAndRanks(t *testing.T) {
	p := &Problem{
		Objectives: []Objective{{Name: "ttft"}, {Name: "tps", Direction: Maximize}},
		Values:     [][]float64{{100, 100, 120, 130, 150}, {4000, 4000, 5000, 4500, 4000}},
		Ranks:      true,
		Reference:  []float64{200, 0},
	}
	res, err := Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{{Row: 0, Ties: []int32{1}}, {Row: 1, Ties: []int32{0}}, {Row: 2}}
	if len(res.Frontier) != 3 {
		t.Fatalf("frontier %+v", res.Frontier)
	}
	for i, m := range res.Frontier {
		if m.Row != want[i].Row || !slices.Equal(m.Ties, want[i].Ties) || m.Rank != 0 {
			t.Errorf("frontier[%d] = %+v, want %+v", i, m, want[i])
		}
	}
	if len(res.Dominated) != 2 || res.Dominated[0].Rank != 1 || res.Dominated[1].Rank != 2 || res.Dominated[1].By != 0 && res.Dominated[1].By != 1 && res.Dominated[1].By != 2 {
		t.Errorf("dominated %+v", res.Dominated)
	}
	// Hypervolume of {(100,4000),(120,5000)} up to (200,0), tps maximised:
	// 100×4000 + 80×1000 = 480000.
	if !res.HasHypervolume || res.Hypervolume != 480000 {
		t.Errorf("hypervolume = %v (%v), want 480000", res.Hypervolume, res.HasHypervolume)
	}
}

func TestAnalyzeRejectsBadParameters(t *testing.T) {
	for _, p := range []*Problem{
		{},
		{Objectives: []Objective{{Name: "a", MinImprove: 1}}, Values: [][]float64{{1}}},
		{Objectives: []Objective{{Name: "a", Noise: -0.1}}, Values: [][]float64{{1}}},
		{Objectives: []Objective{{Name: "a"}}, Values: [][]float64{{1}}, Reference: []float64{1, 2}},
	} {
		if _, err := Analyze(p); err == nil {
			t.Errorf("Analyze(%+v) succeeded, want an error", p)
		}
	}
}

func TestParseSLO(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want SLO
		err  bool
	}{
		{"ttft<=200", SLO{"ttft", LE, 200}, false},
		{"ttft < 200", SLO{"ttft", LT, 200}, false},
		{"tps>=1e3", SLO{"tps", GE, 1000}, false},
		{"ttft{statistic=p99}>5", SLO{"ttft{statistic=p99}", GT, 5}, false},
		{"ttft=3", SLO{}, true},
		{"<=3", SLO{}, true},
		{"ttft<=x", SLO{}, true},
		{"ttft<<3", SLO{}, true},
	} {
		got, err := ParseSLO(tt.in)
		if (err != nil) != tt.err || !tt.err && got != tt.want {
			t.Errorf("ParseSLO(%q) = %+v, %v; want %+v, err=%v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestAnalyzeTieGroupListedOnce: a group of g identical frontier rows is
// listed on its first member only, the others naming that member, so that
// the lists hold 2(g-1) rows, not g(g-1).
func TestAnalyzeTieGroupListedOnce(t *testing.T) {
	const g = 1000
	ttft, tps := make([]float64, 0, g+2), make([]float64, 0, g+2)
	ttft, tps = append(ttft, 90), append(tps, 100) // a lone frontier row first
	for range g {
		ttft, tps = append(ttft, 100), append(tps, 4000)
	}
	ttft, tps = append(ttft, 100), append(tps, 3000) // dominated by the group
	res, err := Analyze(&Problem{
		Objectives: []Objective{{Name: "ttft"}, {Name: "tps", Direction: Maximize}},
		Values:     [][]float64{ttft, tps},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Frontier) != g+1 {
		t.Fatalf("%d frontier rows, want %d", len(res.Frontier), g+1)
	}
	listed := 0
	for _, m := range res.Frontier {
		listed += len(m.Ties)
		switch {
		case m.Row == 0:
			if len(m.Ties) != 0 {
				t.Errorf("row 0 ties %v, want none", m.Ties)
			}
		case m.Row == 1:
			want := make([]int32, 0, g-1)
			for r := int32(2); r <= g; r++ {
				want = append(want, r)
			}
			if !slices.Equal(m.Ties, want) {
				t.Errorf("row 1 (the group's first) ties %d rows %v…, want rows 2..%d", len(m.Ties), m.Ties[:min(3, len(m.Ties))], g)
			}
		default:
			if !slices.Equal(m.Ties, []int32{1}) {
				t.Errorf("row %d ties %v, want [1]", m.Row, m.Ties)
			}
		}
	}
	if listed != 2*(g-1) {
		t.Errorf("%d rows listed in ties, want %d", listed, 2*(g-1))
	}
}

// TestAnalyzeCountDominated: counting the dominated rows leaves the
// frontier and the count as listing them does.
func TestAnalyzeCountDominated(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vals := [][]float64{make([]float64, 500), make([]float64, 500)}
	for r := range 500 {
		vals[0][r], vals[1][r] = rng.Float64(), rng.Float64()
	}
	objs := []Objective{{Name: "ttft"}, {Name: "tps", Direction: Maximize}}
	listed, err := Analyze(&Problem{Objectives: objs, Values: vals})
	if err != nil {
		t.Fatal(err)
	}
	counted, err := Analyze(&Problem{Objectives: objs, Values: vals, CountDominated: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(counted.Dominated) != 0 || counted.DominatedCount != len(listed.Dominated) || listed.DominatedCount != len(listed.Dominated) {
		t.Errorf("counted: %d listed, count %d; listed: %d, count %d", len(counted.Dominated), counted.DominatedCount,
			len(listed.Dominated), listed.DominatedCount)
	}
	if !reflect.DeepEqual(counted.Frontier, listed.Frontier) {
		t.Errorf("frontiers differ: %v vs %v", counted.Frontier, listed.Frontier)
	}
}

// TestSortMembersMatchesComparison holds sortMembers (radix by the first
// objective, then comparisons within runs) to one comparison sort by
// values then row, on sizes around smallSort with many ties in every
// column, ±0 and duplicate points.
func TestSortMembersMatchesComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 7))
	for trial := range 60 {
		k := 1 + trial%4
		n := smallSort - 4 + rng.IntN(3*smallSort)
		levels := 1 + rng.IntN(6)
		data := make([]float64, n*k)
		for i := range data {
			data[i] = float64(rng.IntN(levels)) - 1
			if data[i] == 0 && rng.IntN(2) == 0 {
				data[i] = math.Copysign(0, -1)
			}
		}
		rows := make([]int32, n)
		for i := range rows {
			rows[i] = int32(rng.IntN(10 * n)) // ascending is not required, distinct is
		}
		rows = slices.Compact(slices.Sorted(slices.Values(rows)))
		n = len(rows)
		rng.Shuffle(n, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		front := make([]int32, n)
		for i := range front {
			front[i] = int32(i)
		}
		want := slices.Clone(front)
		slices.SortFunc(want, func(a, b int32) int {
			if c := slices.Compare(data[int(a)*k:int(a)*k+k], data[int(b)*k:int(b)*k+k]); c != 0 {
				return c
			}
			return cmp.Compare(rows[a], rows[b])
		})
		sortMembers(data[:n*k], k, rows, front)
		if !slices.Equal(front, want) {
			t.Fatalf("trial %d k=%d n=%d: order %v, want %v", trial, k, n, front, want)
		}
	}
}
