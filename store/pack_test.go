package store

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pareto-llm/pareto/frontier"
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
		dims[i] = encodeDims(ms[i].Dims)
	}
	packed := packMeasurements(nil, ms, dims)
	got, err := unpackMeasurements(packed, newDecoder(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ms, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	only, err := unpackMeasurements(packed, newDecoder(), metricFilter([]string{"x", "p99_ttft_ms"}))
	if err != nil || len(only) != 2 || only[0].Metric != "ttft" || only[1].Metric != "x" {
		t.Errorf("filtered = %v, %v; want ttft (by native name) and x", only, err)
	}
	if _, err := unpackMeasurements(packed[:len(packed)-1], newDecoder(), nil); err == nil {
		t.Error("truncated blob decoded without error")
	}
	// One decoder's scratch is reused: what it returned before stays as it
	// was, and holds no more than its measurements.
	d := newDecoder()
	first, _ := unpackMeasurements(packed, d, nil)
	other := packMeasurements(nil, ms[1:2], dims[1:2])
	second, _ := unpackMeasurements(other, d, nil)
	if diff := cmp.Diff(ms, first, cmpopts.EquateNaNs()); diff != "" || len(second) != 1 || cap(first) != len(ms) || cap(second) != 1 {
		t.Errorf("a second decode changed the first (-want +got):\n%s; second %v, caps %d, %d", diff, second, cap(first), cap(second))
	}
	if got, err := unpackMeasurements(nil, d, nil); got != nil || err != nil {
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
		dims[i] = encodeDims(ms[i].Dims)
	}
	packed := packMeasurements(nil, ms, dims)
	d := newDecoder()
	b.Run("measurements=6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := unpackMeasurements(packed, d, nil); err != nil {
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
		b = appendID(b, id)
	}
	u := unpacker{b: b}
	for _, want := range ids {
		if got := string(u.nextID(nil)); got != want || u.err != nil {
			t.Errorf("nextID = %q, %v; want %q", got, u.err, want)
		}
	}
	if len(u.b) != 0 {
		t.Errorf("%d bytes left", len(u.b))
	}
	if hashKey(hash) == hashKey(strings.ToUpper(hash)) || hashKey("a") == hashKey("b") || hashKey("0a") == hashKey("0b") {
		t.Error("hashKey collides on distinct IDs")
	}
}

// TestColumnsBuilderOrder feeds blocks whose row ids interleave, as
// concurrent PostgreSQL writers leave them, and checks ingest order,
// ambiguous and unusable values, and filters.
func TestColumnsBuilderOrder(t *testing.T) {
	m := func(metric string, v float64) trial.Measurement { return trial.Measurement{Metric: metric, Value: v} }
	one := newBlock()
	one.add(2, "a", "", []trial.Measurement{m("x", 1), m("y", 10)}, []string{"", ""})
	one.add(5, "b", "", []trial.Measurement{m("x", 2), m("x", 3)}, []string{"", ""})
	two := newBlock()
	two.add(3, "c", "broken", []trial.Measurement{m("x", 4)}, []string{""})
	two.add(4, "d", "", []trial.Measurement{m("x", math.NaN())}, []string{""})
	b := newColumnsBuilder([]ColumnSpec{{Metric: "x"}, {Metric: "y"}})
	for id, blk := range map[int64]*block{7: one, 8: two} {
		k := storedBlock{id: id, first: blk.first, last: blk.last, n: int64(blk.n), rowIDs: blk.rowIDs, ids: blk.ids, problems: blk.problems,
			checksum: blockChecksum(blk.first, blk.last, int64(blk.n), blk.rowIDs, blk.ids, blk.problems)}
		if err := b.addBlock(&k); err != nil {
			t.Fatal(err)
		}
	}
	b.startValues()
	for id, blk := range map[int64]*block{7: one, 8: two} {
		for u, k := range []colKey{{"x", ""}, {"y", ""}} {
			if blk.cols[k] != nil {
				if err := b.addValues(u, id, blk.column(k), valuesChecksum(blk.first, k.metric, k.dims, blk.column(k))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	b.keepGo = rowSet([]int64{2, 3, 4, 5})
	got := b.result()
	miss := frontier.Missing
	want := &Columns{IDs: []string{"a", "c", "d", "b"}, Values: [][]float64{{1, miss, math.NaN(), miss}, {10, miss, miss, miss}},
		Problems: map[int]string{1: "broken"}}
	if diff := cmp.Diff(want, got, cmp.Comparer(sameValue)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// sameValue tells Missing apart from other NaNs.
func sameValue(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b) && frontier.IsMissing(a) == frontier.IsMissing(b)
}
