package trial

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"sync"
	"unsafe"
)

// IDLength is the number of hex digits of a trial ID.
const IDLength = 16

// idVersion starts every encoding hashed by ComputeID; it changes whenever
// the encoding does (v1 spelled out every measurement's metric and unit;
// v2 hashed the content alone, so that repeats with identical numbers got
// one ID).
const idVersion = "pareto-trial-v3"

// idEncoder is the reusable state of ComputeID.
type idEncoder struct {
	b []byte
	// dims caches the encodings (appendDims) of recently seen Dims slices,
	// by slice identity: readers share one slice between the measurements
	// of many trials. A slot holds its slice, so that the memory cannot be
	// reused for other dims while the slot names it (and Dims are never
	// modified in place).
	dims  [64]dimsSlot
	arena []byte // the cached encodings
	// Sorted keys of the labels and params last encoded (see appendMap).
	labelKeys, paramKeys []string
}

// dimsSlot is a cached dims encoding, arena[off : off+n].
type dimsSlot struct {
	d      Dims
	off, n uint32
}

// appendDimsCached appends appendDims(d) to b, from the cache when d is a
// slice seen recently.
func (e *idEncoder) appendDimsCached(b []byte, d Dims) []byte {
	if len(d) == 0 {
		return append(b, 0)
	}
	p := unsafe.SliceData(d)
	h := (uint64(uintptr(unsafe.Pointer(p)))>>4 ^ uint64(len(d))) * 0x9e3779b97f4a7c15 >> 58
	slot := &e.dims[h]
	if unsafe.SliceData(slot.d) == p && len(slot.d) == len(d) {
		return append(b, e.arena[slot.off:slot.off+slot.n]...)
	}
	if len(e.arena) > 64<<10 {
		e.arena = e.arena[:0]
		clear(e.dims[:])
	}
	off := len(e.arena)
	e.arena = appendDims(e.arena, d)
	*slot = dimsSlot{d: d, off: uint32(off), n: uint32(len(e.arena) - off)}
	return append(b, e.arena[off:]...)
}

var idEncoders = sync.Pool{New: func() any { return &idEncoder{b: make([]byte, 0, 8<<10)} }}

// ComputeID returns the ID of t: the first IDLength hex digits of the
// SHA-256 of a canonical encoding of
//
//   - the trial's position: its file (Source.File: Key, else Path) and
//     Source.Index, its place among the trials of that file;
//   - the labels and the params, each sorted by key;
//   - every Workload field, the Succeeded and Failed counts and Problem;
//   - every measurement's metric, dims, value (IEEE-754 bits) and unit, in
//     the canonical order of Sort.
//
// A run is its content at its position: two runs whose numbers agree (as
// repeats of one configuration often do once rounded) are two trials when
// they come from two files or two records of one file, and the same file
// read again gives the same IDs. Source.Line is not hashed (in a given
// file it follows from Index), nor are the format, ID, Warnings,
// Deployment (derived from the configuration) and each measurement's
// Native name and SourceUnit. Every string is length-prefixed, so the
// encoding is unambiguous; it does not depend on map iteration order. If
// t.Measurements is not sorted, a sorted copy is hashed.
//
// The encoding is compact: a measurement spells out its metric and unit
// only when they differ from the previous measurement's.
func ComputeID(t *Trial) string {
	ms := t.Measurements
	if !measurementsSorted(ms) {
		ms = slices.Clone(ms)
		slices.SortStableFunc(ms, cmpMeasurement)
	}
	return computeID(t, ms)
}

// ComputeIDSorted is ComputeID for a trial whose measurements are known to
// be in the order of Sort (readers that build them in that order): it does
// not check the order, and returns an unspecified ID when it does not hold.
func ComputeIDSorted(t *Trial) string { return computeID(t, t.Measurements) }

// computeID is ComputeID with the measurements of t in canonical order.
func computeID(t *Trial, ms []Measurement) string {
	e := idEncoders.Get().(*idEncoder)
	e.header(t)
	e.b, _ = e.appendMeasurements(e.b, ms, nil, false)
	return e.sum()
}

// header starts e.b with everything ComputeID hashes but the measurements.
func (e *idEncoder) header(t *Trial) { e.headerKeys(t, &e.labelKeys, &e.paramKeys) }

// headerKeys is header with the sorted keys of the labels and params last
// encoded at this place (appendMap) in labelKeys and paramKeys.
func (e *idEncoder) headerKeys(t *Trial, labelKeys, paramKeys *[]string) {
	b := append(e.b[:0], idVersion...) // e.b is stored once: each store into e is a write barrier while the collector marks
	b = appendString(b, t.Source.File())
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Source.Index))
	b = appendMap(b, labelKeys, t.Labels)
	b = appendMap(b, paramKeys, t.Params)
	w := t.Workload
	for _, f := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(w.Requests))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Succeeded))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Failed))
	e.b = appendString(b, t.Problem)
}

// sum returns the ID of the encoding in e.b and puts e back in the pool.
func (e *idEncoder) sum() string {
	sum := e.digest()
	return hex.EncodeToString(sum[:IDLength/2])
}

// digest returns the SHA-256 of the encoding in e.b and puts e back in
// the pool.
func (e *idEncoder) digest() [sha256.Size]byte {
	sum := sha256.Sum256(e.b)
	idEncoders.Put(e)
	return sum
}

// appendMeasurements appends to b the count of ms, then for each
// measurement a flag byte (1 when the metric and unit follow, because they
// differ from the previous measurement's; 0 otherwise), its dims
// (appendDims) and its value. With record set, the offset in b of each
// value is appended to offs.
func (e *idEncoder) appendMeasurements(b []byte, ms []Measurement, offs []int32, record bool) ([]byte, []int32) {
	b = binary.LittleEndian.AppendUint64(b, uint64(len(ms)))
	for i := range ms {
		m := &ms[i]
		if i == 0 || m.Metric != ms[i-1].Metric || m.Unit != ms[i-1].Unit {
			b = append(b, 1)
			b = appendShort(b, m.Metric)
			b = appendShort(b, m.Unit)
		} else {
			b = append(b, 0)
		}
		b = e.appendDimsCached(b, m.Dims)
		if record {
			offs = append(offs, int32(len(b)))
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Value))
	}
	return b, offs
}

func cmpMeasurement(a, b Measurement) int { return compareMeasurements(&a, &b) }

// measurementsSorted reports whether ms is in the order of Sort.
func measurementsSorted(ms []Measurement) bool {
	for i := 1; i < len(ms); i++ {
		if compareMeasurements(&ms[i-1], &ms[i]) > 0 {
			return false
		}
	}
	return true
}

// appendDims appends the number of dims, then each key (as a byte coding
// a well-known key, or 0 and the key) and value, with uvarint lengths.
func appendDims(b []byte, d Dims) []byte {
	b = append(b, byte(len(d))) // Dims hold a handful of keys; more only in crafted input
	if len(d) > 127 {
		b = binary.AppendUvarint(b[:len(b)-1], uint64(len(d)))
	}
	for _, x := range d {
		switch x.Key {
		case DimStatistic:
			b = append(b, 1)
		case DimPhase:
			b = append(b, 2)
		case DimGPU:
			b = append(b, 3)
		case DimBenchmark:
			b = append(b, 4)
		default:
			b = append(b, 0)
			b = appendShort(b, x.Key)
		}
		b = appendShort(b, x.Value)
	}
	return b
}

// appendShort appends s with its length as a uvarint.
func appendShort(b []byte, s string) []byte {
	if len(s) < 128 {
		b = append(b, byte(len(s)))
	} else {
		b = binary.AppendUvarint(b, uint64(len(s)))
	}
	return append(b, s...)
}

func appendString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// appendMap appends to b the number of entries of m, then each key and
// value in key order. keys holds the sorted keys of the map last encoded at
// this place: the labels and params of trials read from similar files have
// the same keys, which are then looked up instead of collected and sorted.
func appendMap(b []byte, keys *[]string, m map[string]string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m)))
	if len(*keys) == len(m) {
		start := len(b)
		ok := true
		for _, k := range *keys {
			v, in := m[k]
			if !in {
				ok = false
				break
			}
			b = appendString(b, k)
			b = appendString(b, v)
		}
		if ok {
			return b
		}
		b = b[:start]
	}
	ks := (*keys)[:0]
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	for _, k := range ks {
		b = appendString(b, k)
		b = appendString(b, m[k])
	}
	*keys = ks
	return b
}

// Finalize sorts the measurements and sets the ID. Readers call it last.
func (t *Trial) Finalize() {
	if !measurementsSorted(t.Measurements) {
		slices.SortStableFunc(t.Measurements, cmpMeasurement)
	}
	t.ID = ComputeIDSorted(t)
}
