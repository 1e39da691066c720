package trial

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestResolverAgainstResolve resolves random selectors on random trials
// with a Resolver, with Selector.Resolve and with referenceResolve, the
// rule written out name by name, and wants the same measurement or the
// same error from all three: names with dots that are and are not a
// metric of their own, statistics, dims in braces, native names, repeats
// with more dims, missing and ambiguous matches, unusable trials.
func TestResolverAgainstResolve(t *testing.T) {
	metrics := []string{"ttft", "itl", "ttft.p50", "output_token_throughput", "e2e.x", "e2e", "ttft.p99"}
	natives := []string{"", "", "", "time_to_first_token", "ttft", "itl.p99"}
	dimsets := []Dims{nil, StatDims("p50"), StatDims("p99"), StatDims("mean"),
		{{Key: DimStatistic, Value: "p50"}, {Key: DimPhase, Value: "warmup"}},
		{{Key: DimGPU, Value: "0"}, {Key: DimStatistic, Value: "p99"}},
		{{Key: DimPhase, Value: "warmup"}}}
	names := []string{"ttft.p50", "ttft", "itl.p99", "itl.median", "output_token_throughput", "time_to_first_token",
		"ttft.p50{phase=warmup}", "ttft{statistic=p99}", "e2e.x.p50", "e2e.x", "ttft.p99{gpu=0}", "itl.p99.p50", "nothing.p50", "ttft.p99.9", "ttft.p99.p50", "itl.mean{phase=warmup}"}
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
			want, werr := referenceResolve(s, tr)
			got, gerr := rs[k].Resolve(tr)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s on %v: Resolver %v, %v; reference %v, %v", s.Raw, tr.Measurements, got, gerr, want, werr)
			}
			if got2, gerr2 := s.Resolve(tr); fmt.Sprint(gerr2) != fmt.Sprint(gerr) || fmt.Sprint(got2) != fmt.Sprint(got) {
				t.Fatalf("%s on %v: Selector.Resolve %v, %v; Resolver %v, %v", s.Raw, tr.Measurements, got2, gerr2, got, gerr)
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

// referenceResolve is Selector.Resolve's rule as its doc states it, one
// name at a time: the selector's name when a measurement of it has the
// dims, else the first split of the name at a dot before a statistic
// whose metric some measurement has, else Metric with its Statistic; of
// the measurements of that name with those dims, the one with the fewest
// dims, ambiguous when several have as few, missing when none.
func referenceResolve(s Selector, t *Trial) (Measurement, error) {
	if t.Problem != "" {
		return Measurement{}, &ResolveError{Selector: s.String(), TrialID: t.ID, Reason: ReasonUnusable, Detail: t.Problem}
	}
	has := func(name string) bool {
		for _, m := range t.Measurements {
			if m.Metric == name || m.Native == name {
				return true
			}
		}
		return false
	}
	pick := func(name string, dims Dims) (Measurement, error) {
		var matches []int
		fewest := -1
		for i, m := range t.Measurements {
			if (m.Metric != name && m.Native != name) || !m.Dims.Contains(dims) {
				continue
			}
			switch {
			case fewest < 0 || len(m.Dims) < fewest:
				fewest, matches = len(m.Dims), []int{i}
			case len(m.Dims) == fewest:
				matches = append(matches, i)
			}
		}
		if len(matches) == 1 {
			return t.Measurements[matches[0]], nil
		}
		e := &ResolveError{Selector: s.String(), TrialID: t.ID, Reason: ReasonMissing}
		if len(matches) > 1 {
			e.Reason = ReasonAmbiguous
			for _, i := range matches {
				e.Candidates = append(e.Candidates, t.Measurements[i].String())
			}
			e.Candidates = capList(e.Candidates)
			return Measurement{}, e
		}
		e.Candidates = missingCandidates(t, name)
		return Measurement{}, e
	}
	if has(s.Name) {
		m, err := pick(s.Name, s.Dims)
		if re, ok := err.(*ResolveError); !ok || re.Reason != ReasonMissing {
			return m, err
		}
	}
	for i := 1; i < len(s.Name); i++ {
		if s.Name[i] != '.' {
			continue
		}
		if st, ok := NormalizeStatistic(s.Name[i+1:]); ok && has(s.Name[:i]) {
			return pick(s.Name[:i], s.dimsWith(st))
		}
	}
	want := s.Dims
	if s.Statistic != "" {
		want = s.dimsWith(s.Statistic)
	}
	return pick(s.Metric, want)
}

// BenchmarkResolve resolves ttft.p50 and output_token_throughput on a
// trial shaped like an AIPerf export (30 metrics of 13 statistics each,
// sorted): through a Resolver prepared once (how query reads trial after
// trial) and through Selector.Resolve.
func BenchmarkResolve(b *testing.B) {
	stats := []string{"mean", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "min", "max", "std"}
	metrics := []string{"ttft", "itl", "e2e_latency", "output_token_throughput", "request_throughput", "ttst"}
	for i := len(metrics); i < 30; i++ {
		metrics = append(metrics, fmt.Sprintf("metric_%02d", i))
	}
	tr := &Trial{ID: "t"}
	for _, m := range metrics {
		for _, st := range stats {
			tr.Measurements = append(tr.Measurements, Measurement{Metric: m, Native: "native_" + m, Dims: StatDims(st), Value: 1})
		}
	}
	tr.Measurements = append(tr.Measurements, Measurement{Metric: "output_token_throughput", Value: 2})
	tr.Sort()
	var sels []Selector
	for _, n := range []string{"ttft.p50", "output_token_throughput"} {
		s, err := ParseSelector(n)
		if err != nil {
			b.Fatal(err)
		}
		sels = append(sels, s)
	}
	b.Run(fmt.Sprintf("by=resolver/measurements=%d", len(tr.Measurements)), func(b *testing.B) {
		rs := []*Resolver{NewResolver(sels[0]), NewResolver(sels[1])}
		for b.Loop() {
			for _, r := range rs {
				if _, err := r.Resolve(tr); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run(fmt.Sprintf("by=selector/measurements=%d", len(tr.Measurements)), func(b *testing.B) {
		for b.Loop() {
			for _, s := range sels {
				if _, err := s.Resolve(tr); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
