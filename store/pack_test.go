package store_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

func TestPackMeasurements(t *testing.T) {
	ms := []trial.Measurement{
		{Metric: "ttft", Dims: trial.StatDims("p99"), Value: 87.25, Unit: "ms", Native: "p99_ttft_ms", SourceUnit: "s"},
		{Metric: "x", Value: math.Inf(-1)},
		{Metric: "ttft", Dims: trial.StatDims("p50").With(trial.DimPhase, "warm\"up"), Value: math.NaN(), Unit: "ms"},
		{Metric: strings.Repeat("m", 300), Value: math.Copysign(0, -1)},
	}
	dims := make([]string, len(ms))
	for i := range ms {
		dims[i] = codec.EncodeDims(ms[i].Dims)
	}
	packed := codec.PackMeasurements(nil, ms, dims)
	got, err := codec.UnpackMeasurements(packed, codec.NewDecoder(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ms, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	only, err := codec.UnpackMeasurements(packed, codec.NewDecoder(), shared.MetricFilter([]string{"x", "p99_ttft_ms"}))
	if err != nil || len(only) != 2 || only[0].Metric != "ttft" || only[1].Metric != "x" {
		t.Errorf("filtered = %v, %v; want ttft (by native name) and x", only, err)
	}
	if _, err := codec.UnpackMeasurements(packed[:len(packed)-1], codec.NewDecoder(), nil); err == nil {
		t.Error("truncated blob decoded without error")
	}
	// One decoder's scratch is reused: what it returned before stays as it
	// was, and holds no more than its measurements.
	d := codec.NewDecoder()
	first, _ := codec.UnpackMeasurements(packed, d, nil)
	other := codec.PackMeasurements(nil, ms[1:2], dims[1:2])
	second, _ := codec.UnpackMeasurements(other, d, nil)
	if diff := cmp.Diff(ms, first, cmpopts.EquateNaNs()); diff != "" || len(second) != 1 || cap(first) != len(ms) || cap(second) != 1 {
		t.Errorf("a second decode changed the first (-want +got):\n%s; second %v, caps %d, %d", diff, second, cap(first), cap(second))
	}
	if got, err := codec.UnpackMeasurements(nil, d, nil); got != nil || err != nil {
		t.Errorf("empty blob = %v, %v; want nil, nil", got, err)
	}
}

// BenchmarkUnpackMeasurements decodes the packed measurements of one
// trial of six (a vLLM result), as every full read does per trial.
func BenchmarkUnpackMeasurements(b *testing.B) {
	var ms []trial.Measurement
	for _, st := range []string{"p50", "p99"} {
		for _, m := range []string{"tpot", "ttft", "itl"} {
			ms = append(ms, trial.Measurement{Metric: m, Dims: trial.StatDims(st), Value: 1.5, Unit: "ms", Native: st + "_" + m + "_ms"})
		}
	}
	dims := make([]string, len(ms))
	for i := range ms {
		dims[i] = codec.EncodeDims(ms[i].Dims)
	}
	packed := codec.PackMeasurements(nil, ms, dims)
	d := codec.NewDecoder()
	b.Run("measurements=6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := codec.UnpackMeasurements(packed, d, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestAppendID(t *testing.T) {
	hash := strings.Repeat("0123456789abcdef", 4)
	ids := []string{hash, "0123456789abcdef", strings.ToUpper(hash), "", strings.Repeat("z", 200), hash[:63] + "g", "abc", "0a"}
	var b []byte
	for _, id := range ids {
		b = codec.AppendID(b, id)
	}
	u := codec.Unpacker{Buf: b}
	for _, want := range ids {
		if got := string(u.NextID(nil)); got != want || u.Err != nil {
			t.Errorf("nextID = %q, %v; want %q", got, u.Err, want)
		}
	}
	if len(u.Buf) != 0 {
		t.Errorf("%d bytes left", len(u.Buf))
	}
	if codec.HashKey(hash) == codec.HashKey(strings.ToUpper(hash)) || codec.HashKey("a") == codec.HashKey("b") || codec.HashKey("0a") == codec.HashKey("0b") {
		t.Error("hashKey collides on distinct IDs")
	}
}

// TestColumnsBuilderOrder feeds blocks whose row ids interleave, as
// concurrent PostgreSQL writers leave them, and checks ingest order,
// ambiguous and unusable values, and filters.
func TestColumnsBuilderOrder(t *testing.T) {
	m := func(metric string, v float64) trial.Measurement { return trial.Measurement{Metric: metric, Value: v} }
	one := columnar.NewBlock()
	one.Add(2, "a", "", []trial.Measurement{m("x", 1), m("y", 10)}, []string{"", ""})
	one.Add(5, "b", "", []trial.Measurement{m("x", 2), m("x", 3)}, []string{"", ""})
	two := columnar.NewBlock()
	two.Add(3, "c", "broken", []trial.Measurement{m("x", 4)}, []string{""})
	two.Add(4, "d", "", []trial.Measurement{m("x", math.NaN())}, []string{""})
	b := shared.NewColumnsBuilder([]store.ColumnSpec{{Metric: "x"}, {Metric: "y"}})
	for id, blk := range map[int64]*columnar.Block{7: one, 8: two} {
		k := shared.StoredBlock{ID: id, First: blk.First, Last: blk.Last, N: int64(blk.N), RowIDs: blk.RowIDs, IDs: blk.IDs, Problems: blk.Problems,
			Checksum: codec.BlockChecksum(blk.First, blk.Last, int64(blk.N), blk.RowIDs, blk.IDs, blk.Problems)}
		if err := b.AddBlock(&k); err != nil {
			t.Fatal(err)
		}
	}
	b.StartValues()
	for id, blk := range map[int64]*columnar.Block{7: one, 8: two} {
		for u, k := range []columnar.ColKey{{Metric: "x"}, {Metric: "y"}} {
			if blk.Cols[k] != nil {
				if err := b.AddValues(u, id, blk.Column(k), codec.ValuesChecksum(blk.First, k.Metric, k.Dims, blk.Column(k))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	b.KeepGo = shared.RowSet([]int64{2, 3, 4, 5})
	got := b.Result()
	miss := frontier.Missing
	want := &store.Columns{IDs: []string{"a", "c", "d", "b"}, Values: [][]float64{{1, miss, math.NaN(), miss}, {10, miss, miss, miss}},
		Problems: map[int]string{1: "broken"}}
	if diff := cmp.Diff(want, got, cmp.Comparer(sameValue)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// sameValue tells Missing apart from other NaNs.
func sameValue(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b) && frontier.IsMissing(a) == frontier.IsMissing(b)
}
