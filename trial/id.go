package trial

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"sort"
	"sync"
)

// IDLength is the number of hex digits of a trial ID.
const IDLength = 16

var idBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// ComputeID returns the content hash of t: the first IDLength hex digits of
// the SHA-256 of a canonical encoding of
//
//   - the labels and the params, each sorted by key;
//   - every Workload field, the Succeeded and Failed counts and Problem;
//   - every measurement's metric, dims, value (IEEE-754 bits) and unit, in
//     the canonical order of Sort.
//
// Not included: ID, Source (path, format, line), Warnings, and each
// measurement's Native name and SourceUnit, so the same result read from two
// places, or from JSON and CSV exports that agree, gets the same ID. Every
// string is length-prefixed, so the encoding is unambiguous; it does not
// depend on map iteration order. If t.Measurements is not sorted, a sorted
// copy is hashed.
func ComputeID(t *Trial) string {
	bp := idBufs.Get().(*[]byte)
	b := (*bp)[:0]
	b = append(b, "pareto-trial-v1"...)
	b = appendMap(b, t.Labels)
	b = appendMap(b, t.Params)
	w := t.Workload
	for _, f := range []float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(w.Requests))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Succeeded))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Failed))
	b = appendString(b, t.Problem)
	ms := t.Measurements
	if !slices.IsSortedFunc(ms, cmpMeasurement) {
		ms = slices.Clone(ms)
		slices.SortStableFunc(ms, cmpMeasurement)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(ms)))
	for i := range ms {
		m := &ms[i]
		b = appendString(b, m.Metric)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Dims)))
		for _, d := range m.Dims {
			b = appendString(b, d.Key)
			b = appendString(b, d.Value)
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Value))
		b = appendString(b, m.Unit)
	}
	sum := sha256.Sum256(b)
	*bp = b
	idBufs.Put(bp)
	return hex.EncodeToString(sum[:IDLength/2])
}

func cmpMeasurement(a, b Measurement) int { return compareMeasurements(&a, &b) }

func appendString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = appendString(b, k)
		b = appendString(b, m[k])
	}
	return b
}

// Finalize sorts the measurements and sets the ID. Readers call it last.
func (t *Trial) Finalize() {
	if !slices.IsSortedFunc(t.Measurements, cmpMeasurement) {
		slices.SortStableFunc(t.Measurements, cmpMeasurement)
	}
	t.ID = ComputeID(t)
}
