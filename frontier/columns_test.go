package frontier

import (
	"math/rand/v2"
	"slices"
	"testing"
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
