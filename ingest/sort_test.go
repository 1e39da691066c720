package ingest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestSortMeasurements checks sortMeasurements against trial.Finalize's
// stable sort on random measurements with shared and equal dims, repeated
// metrics and equal values (including -0 and +0).
func TestSortMeasurements(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	metrics := []string{"ttft", "tpot", "e2el", "a", "ttft_x", ""}
	var dims []trial.Dims
	for _, s := range []string{"mean", "p50", "p99", "max", "p1", "p10"} {
		dims = append(dims, trial.StatDims(s), trial.Dims{{Key: trial.DimStatistic, Value: s}},
			trial.Dims{{Key: trial.DimPhase, Value: "warmup"}, {Key: trial.DimStatistic, Value: s}},
			trial.Dims{{Key: "endpoint", Value: "e"}, {Key: trial.DimGPU, Value: "gpu_1"}, {Key: trial.DimStatistic, Value: s}})
	}
	dims = append(dims, nil, trial.Dims{}, trial.Dims{{Key: trial.DimGPU, Value: "0"}})
	values := []float64{0, math.Copysign(0, -1), 1, 2, -3, 1e9, math.Inf(1)}
	for n := range 400 {
		ms := make([]trial.Measurement, n%150)
		for i := range ms {
			ms[i] = trial.Measurement{
				Metric: metrics[rng.IntN(len(metrics))], Dims: dims[rng.IntN(len(dims))],
				Value: values[rng.IntN(len(values))], Unit: "u" + string(rune('a'+i%7)), Native: "n",
			}
			if n%3 == 0 && i > 0 && rng.IntN(3) > 0 { // runs, as readers emit them
				ms[i].Metric, ms[i].Dims = ms[i-1].Metric, ms[i-1].Dims
			}
		}
		want := trial.Trial{Measurements: slices.Clone(ms)}
		want.Finalize()
		got := sortMeasurements(slices.Clone(ms))
		if !reflect.DeepEqual(got, want.Measurements) && !(len(got) == 0 && len(want.Measurements) == 0) {
			t.Fatalf("case %d: order differs\ngot  %v\nwant %v", n, got, want.Measurements)
		}
	}
}

// TestSameDimsString checks sameDimsString against Dims.String.
func TestSameDimsString(t *testing.T) {
	ds := []trial.Dims{nil, {}, trial.StatDims("p1"), trial.StatDims("p5"), {{Key: "statistic", Value: "p1"}},
		{{Key: "a", Value: "1,b=2"}}, {{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}, {{Key: "a=1,b", Value: "2"}},
		{{Key: "endpoint", Value: "e"}, {Key: "gpu", Value: "0"}, {Key: "statistic", Value: "mean"}}}
	for _, a := range ds {
		for _, b := range ds {
			if got, want := sameDimsString(a, b), a.String() == b.String(); got != want {
				t.Errorf("sameDimsString(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestSortCopy: sortCopy, reused across records of one layout with new
// values (and now and then another layout, a NaN, or two measurements of
// one metric and dims, whose order depends on the values), gives the
// order of trial.Finalize's stable sort and never changes its input.
func TestSortCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	metrics := []string{"ttft", "tpot", "e2el", "a"}
	dims := []trial.Dims{trial.StatDims("mean"), trial.StatDims("p99"), trial.StatDims("p50"), nil,
		{{Key: trial.DimPhase, Value: "warmup"}, {Key: trial.DimStatistic, Value: "p99"}}}
	layout := func(n int, dup bool) []trial.Measurement {
		ms := make([]trial.Measurement, n)
		for i := range ms {
			ms[i] = trial.Measurement{Metric: metrics[i%len(metrics)], Dims: dims[(i/len(metrics))%len(dims)], Unit: "u"}
		}
		if dup && n > 1 {
			ms[n-1].Metric, ms[n-1].Dims = ms[0].Metric, ms[0].Dims
		}
		return ms
	}
	var c sortCache
	base := layout(17, false)
	for n := range 300 {
		ms := slices.Clone(base)
		switch n % 10 {
		case 3:
			ms = layout(9, false)
		case 5, 6: // two in a row: the second must not reuse the first's order
			ms = layout(17, true)
		}
		for i := range ms {
			ms[i].Value = float64(rng.IntN(5))
		}
		if n%10 == 7 {
			ms[2].Value = math.NaN()
		}
		in := slices.Clone(ms)
		got := sortCopy(ms, &c)
		if fmt.Sprint(ms) != fmt.Sprint(in) { // NaN is not DeepEqual to itself
			t.Fatalf("record %d: input changed", n)
		}
		want := trial.Trial{Measurements: slices.Clone(ms)}
		want.Finalize()
		if len(got) != len(want.Measurements) {
			t.Fatalf("record %d: %d measurements, want %d", n, len(got), len(want.Measurements))
		}
		for i := range got {
			g, w := got[i], want.Measurements[i]
			if g.Metric != w.Metric || g.Dims.String() != w.Dims.String() || !(g.Value == w.Value || math.IsNaN(g.Value) && math.IsNaN(w.Value)) {
				t.Fatalf("record %d, measurement %d: %s%s=%v, want %s%s=%v", n, i, g.Metric, g.Dims, g.Value, w.Metric, w.Dims, w.Value)
			}
		}
	}
}
