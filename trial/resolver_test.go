package trial

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestResolverAgainstResolve resolves random selectors on random trials
// with a Resolver and with Selector.Resolve, and wants the same
// measurement or the same error: names with dots that are and are not a
// metric of their own, statistics, dims in braces, native names, repeats
// with more dims, missing and ambiguous matches, unusable trials.
func TestResolverAgainstResolve(t *testing.T) {
	metrics := []string{"ttft", "itl", "ttft.p50", "output_token_throughput", "e2e.x", "e2e"}
	natives := []string{"", "", "", "time_to_first_token", "ttft", "itl.p99"}
	dimsets := []Dims{nil, StatDims("p50"), StatDims("p99"), StatDims("mean"),
		{{Key: DimStatistic, Value: "p50"}, {Key: DimPhase, Value: "warmup"}},
		{{Key: DimGPU, Value: "0"}, {Key: DimStatistic, Value: "p99"}},
		{{Key: DimPhase, Value: "warmup"}}}
	names := []string{"ttft.p50", "ttft", "itl.p99", "itl.median", "output_token_throughput", "time_to_first_token",
		"ttft.p50{phase=warmup}", "ttft{statistic=p99}", "e2e.x.p50", "e2e.x", "ttft.p99{gpu=0}", "itl.p99.p50", "nothing.p50"}
	var rs []*Resolver
	var sels []Selector
	for _, n := range names {
		s, err := ParseSelector(n)
		if err != nil {
			t.Fatal(n, err)
		}
		sels = append(sels, s)
		rs = append(rs, NewResolver(s))
	}
	rng := rand.New(rand.NewPCG(27, 2))
	found, failed := 0, 0
	for n := 0; n < 20000; n++ {
		tr := &Trial{ID: fmt.Sprint("t", n), Measurements: make([]Measurement, rng.IntN(10))}
		for i := range tr.Measurements {
			tr.Measurements[i] = Measurement{Metric: metrics[rng.IntN(len(metrics))], Native: natives[rng.IntN(len(natives))],
				Dims: dimsets[rng.IntN(len(dimsets))], Value: float64(i)}
		}
		if rng.IntN(20) == 0 {
			tr.Problem = "no successful requests"
		}
		for k, s := range sels {
			want, werr := s.Resolve(tr)
			got, gerr := rs[k].Resolve(tr)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s on %v: Resolver %v, %v; Selector.Resolve %v, %v", s.Raw, tr.Measurements, got, gerr, want, werr)
			}
			if _, ok := rs[k].pass(tr); ok != (werr == nil) { // every answer from the one pass
				t.Fatalf("%s on %v: pass ok=%v, Selector.Resolve error %v", s.Raw, tr.Measurements, ok, werr)
			}
			if werr == nil {
				found++
			} else {
				failed++
			}
		}
	}
	if found < 10000 || failed < 10000 {
		t.Fatalf("%d resolved, %d not: the cases do not cover both", found, failed)
	}
}
