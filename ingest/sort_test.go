package ingest

import (
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
