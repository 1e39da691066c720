package frontier

import (
	"math/rand/v2"
	"testing"
)

// TestImplicitComponentsMatchBruteForce runs the implicit-edge Kosaraju
// search on whole random instances (where it must return exactly the
// Schwartz set) with cyclic and acyclic parameters and both directions.
func TestImplicitComponentsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	tied := 0
	for trial := range 300 {
		k := 2 + trial%4
		n := 1 + rng.IntN(120)
		objs := randomObjectives(rng, k, trial%4 != 0)
		data := clusteredPoints(rng, n, k)
		m := minSpace(data, objs)
		by := make([]int32, n)
		for i := range by {
			by[i] = 0
		}
		groups := sourceComponentsImplicit(data, m, objs, newCorners(data, objs), allRows(n), by)
		want := bruteSchwartz(data, objs)
		byRounds := make([]int32, n)
		sourceComponentsByRounds(data, m, objs, newCorners(data, objs), allRows(n), byRounds)
		for i := range n {
			if (by[i] < 0) != want[i] {
				t.Fatalf("trial %d k=%d: point %d in a source component=%v, want %v", trial, k, i, by[i] < 0, want[i])
			}
			if (byRounds[i] < 0) != want[i] {
				t.Fatalf("trial %d k=%d: by rounds, point %d in a source component=%v, want %v", trial, k, i, byRounds[i] < 0, want[i])
			}
		}
		if len(groups) > 0 {
			tied++
		}
	}
	if tied < 20 {
		t.Fatalf("only %d instances had top cycles", tied)
	}
}

// TestNoiseFrontLargeRemainder forces the implicit search through
// NoiseFront: uniform points with cyclic parameters leave no unbeaten point.
func TestNoiseFrontLargeRemainder(t *testing.T) {
	data := positive(benchData("uniform", 3000, 3))
	objs := noiseObjectives(3, true)
	res := NoiseFront(data, objs)
	// Reference: the explicit graph with Tarjan's algorithm (O(n²)); the
	// closure-based brute force is too slow at this size.
	ref := make([]int32, len(res.By))
	sourceComponents(data, objs, allRows(len(ref)), ref)
	for i, d := range res.By {
		if (d < 0) != (ref[i] < 0) {
			t.Fatalf("point %d on frontier=%v, want %v", i, d < 0, ref[i] < 0)
		}
	}
}

// TestRoundsFallback forces the rounds search to give up on a large worst
// set and finish with the implicit Kosaraju search; the answer must not
// change.
func TestRoundsFallback(t *testing.T) {
	defer func(v int) { maxWorst = v }(maxWorst)
	maxWorst = 1
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := range 100 {
		k := 2 + trial%3
		n := 1 + rng.IntN(100)
		objs := randomObjectives(rng, k, true)
		data := clusteredPoints(rng, n, k)
		by := make([]int32, n)
		sourceComponentsByRounds(data, minSpace(data, objs), objs, newCorners(data, objs), allRows(n), by)
		want := bruteSchwartz(data, objs)
		for i := range n {
			if (by[i] < 0) != want[i] {
				t.Fatalf("trial %d: point %d in a source component=%v, want %v", trial, i, by[i] < 0, want[i])
			}
		}
	}
}
