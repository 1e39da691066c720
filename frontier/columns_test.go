package frontier

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestAnalyzeColumnsMatchesMatrix holds the columnar strict path of
// Analyze (from pivotFilterMin rows, no band, no ranks) to the definition
// (bruteAnalyze) and to the path that gathers every row (taken with
// ranks): the same frontier with the same ties, and the same dominator for
// every dominated row. Inputs: clustered values with many ties and
// duplicates, or uniform ones; mixed directions, invalid cells, SLOs and a
// subset of rows.
func TestAnalyzeColumnsMatchesMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for trial := range 40 {
		k := 1 + trial%5
		n := pivotFilterMin + rng.IntN(600)
		p := randomProblem(rng, n, k, false)
		for i := range p.Objectives {
			p.Objectives[i].Noise, p.Objectives[i].MinImprove = 0, 0
		}
		if trial%2 == 1 {
			for o := range k {
				for r := range n {
					if v := p.Values[o][r]; v-v == 0 && v > 0 { // keep the invalid cells
						p.Values[o][r] = rng.Float64()
					}
				}
			}
		}
		if trial%3 == 2 {
			for r := range int32(n) {
				if rng.IntN(10) > 0 {
					p.Rows = append(p.Rows, r)
				}
			}
		}
		got, err := Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		withRanks := *p
		withRanks.Ranks = true
		want, err := Analyze(&withRanks)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Frontier {
			want.Frontier[i].Rank = 0
		}
		for i := range want.Dominated {
			want.Dominated[i].Rank = 0
		}
		if !slices.EqualFunc(got.Frontier, want.Frontier, func(a, b Member) bool {
			return a.Row == b.Row && slices.Equal(a.Ties, b.Ties) && len(a.NoiseTied)+len(b.NoiseTied) == 0
		}) {
			t.Fatalf("trial %d k=%d n=%d: frontier %v, want %v", trial, k, n, got.Frontier, want.Frontier)
		}
		if !slices.Equal(got.Dominated, want.Dominated) || got.DominatedCount != want.DominatedCount {
			t.Fatalf("trial %d k=%d n=%d: dominated lists differ (%d, %d rows)", trial, k, n, len(got.Dominated), len(want.Dominated))
		}
		if p.Rows != nil || trial%4 != 0 {
			continue // bruteAnalyze reads every row, in O(n²)
		}
		_, _, front := bruteAnalyze(p)
		if len(front) != len(got.Frontier) {
			t.Fatalf("trial %d k=%d n=%d: %d frontier rows, want %d", trial, k, n, len(got.Frontier), len(front))
		}
		for _, m := range got.Frontier {
			if !front[m.Row] {
				t.Fatalf("trial %d: row %d wrongly on the frontier", trial, m.Row)
			}
		}
		for _, d := range got.Dominated {
			if !Beats(p.matrix([]int32{d.By}), p.matrix([]int32{d.Row}), p.Objectives) || !front[d.By] {
				t.Fatalf("trial %d: row %d explained by %d, not a frontier row beating it", trial, d.Row, d.By)
			}
		}
	}
}

// TestAnalyzeMutual5D holds the 5D path that finds the frontier with the
// hypervolume (hvMutual) to the definition and to the path that does not
// take it (with ranks): mutually non-dominated sets (sphere, simplex),
// and the same with a dominated point, a duplicate, a tie in the 5th
// objective, a point beyond the reference, maximised objectives or an
// automatic reference. The frontier, the dominated rows and the volume
// (bit for bit) must agree, and the volume must equal the cell
// decomposition's where the set is small enough.
func TestAnalyzeMutual5D(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	const n = pivotFilterMin + 40
	for trial := range 28 {
		var data []float64
		if trial%2 == 0 {
			data = hvtSphere(n, 5, uint64(trial))
		} else {
			data = hvtSimplex(n, 5, uint64(trial))
		}
		objs := make([]Objective, 5)
		for c := range objs {
			objs[c].Name = string(rune('a' + c))
		}
		ref := hvtOnes(5, 1.1)
		i, j := rng.IntN(n), rng.IntN(n)
		for i == j {
			j = rng.IntN(n)
		}
		pi, pj := data[5*i:5*i+5], data[5*j:5*j+5]
		switch trial / 2 % 7 {
		case 1: // j dominated by i
			for c := range 5 {
				pj[c] = pi[c] + float64(rng.IntN(2))*0.01
			}
			pj[rng.IntN(5)] += 0.01
		case 2: // a duplicate
			copy(pj, pi)
		case 3: // a tie in the 5th objective, the set still non-dominated
			pj[4] = pi[4]
		case 4: // beyond the reference
			pj[rng.IntN(5)] = 1.2
		}
		minData := slices.Clone(data) // the points in min space
		switch trial / 2 % 7 {
		case 5: // maximised objectives
			for c := range 5 {
				if c%2 == 1 {
					objs[c].Direction = Maximize
					for r := range n {
						data[5*r+c] = -data[5*r+c]
					}
					ref[c] = -ref[c]
				}
			}
		case 6: // automatic reference
			ref = nil
		}
		p := &Problem{Objectives: objs, Values: make([][]float64, 5), Reference: ref, AutoReference: ref == nil}
		for c := range 5 {
			p.Values[c] = make([]float64, n)
			for r := range n {
				p.Values[c][r] = data[5*r+c]
			}
		}
		got, err := Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		withRanks := *p
		withRanks.Ranks = true
		want, err := Analyze(&withRanks)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got.Frontier, want.Frontier, func(a, b Member) bool {
			return a.Row == b.Row && slices.Equal(a.Ties, b.Ties)
		}) {
			t.Fatalf("trial %d: frontier of %d rows, want %d", trial, len(got.Frontier), len(want.Frontier))
		}
		for d := range want.Dominated {
			want.Dominated[d].Rank = 0
		}
		if !slices.Equal(got.Dominated, want.Dominated) {
			t.Fatalf("trial %d: dominated %v, want %v", trial, got.Dominated, want.Dominated)
		}
		if !got.HasHypervolume || got.Hypervolume != want.Hypervolume || !slices.Equal(got.Reference, want.Reference) {
			t.Fatalf("trial %d: hypervolume %v at %v, want %v at %v", trial, got.Hypervolume, got.Reference, want.Hypervolume, want.Reference)
		}
		front := 0 // by definition: the rows no other row dominates
		for i := range n {
			beaten := false
			for j := range n {
				beaten = beaten || dominatesPoint(minData[5*j:5*j+5], minData[5*i:5*i+5])
			}
			if !beaten {
				front++
			}
		}
		if front != len(got.Frontier) {
			t.Fatalf("trial %d: %d frontier rows, want %d", trial, len(got.Frontier), front)
		}
	}
}

// TestHVMutual checks hvMutual against brute force on small-integer 5D
// points (ties everywhere): ok only for mutually non-dominated points with
// distinct 5th coordinates, every one strictly below ref, and then the
// volume is Hypervolume's, bit for bit; always ok for such points.
func TestHVMutual(t *testing.T) {
	sphere := hvtSphere(1000, 5, 1)
	if hv, ok := hvMutual(sphere, hvtOnes(5, 1.1)); !ok || hv != Hypervolume(sphere, 5, hvtOnes(5, 1.1)) {
		t.Fatalf("hvMutual(sphere) = %v, %v; want Hypervolume's, true", hv, ok)
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 14).Draw(t, "n")
		vals := rapid.SliceOfN(rapid.IntRange(0, 12), 5*n, 5*n).Draw(t, "vals")
		data := make([]float64, 5*n)
		for i, v := range vals {
			data[i] = float64(v)
		}
		ref := hvtOnes(5, 12)
		mutual := true
		for i := range n {
			for j := range n {
				pi, pj := data[5*i:5*i+5], data[5*j:5*j+5]
				if i != j && (dominatesPoint(pi, pj) || slices.Equal(pi, pj) || pi[4] == pj[4]) {
					mutual = false
				}
			}
			if slices.Max(data[5*i:5*i+5]) >= ref[0] {
				mutual = false
			}
		}
		hv, ok := hvMutual(data, ref)
		if ok != mutual {
			t.Fatalf("hvMutual ok = %v; want %v", ok, mutual)
		}
		if want := Hypervolume(data, 5, ref); ok && hv != want {
			t.Fatalf("hvMutual = %v; want %v", hv, want)
		}
	})
}
