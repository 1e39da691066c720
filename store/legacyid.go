package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/trial"
)

// legacyID is trial.ComputeID as versions before "pareto-trial-v2" computed
// it: the same content, spelled out in full (every measurement's metric,
// dims and unit, 32-bit length prefixes). The conversion to schema
// version 5 (fillPacked) uses it to recognise the stored trials whose ID
// is such a content hash, and gives them the v2 one (contentID), which
// the conversion to schema version 6 replaces in turn.
func legacyID(t *trial.Trial) string {
	b := []byte("pareto-trial-v1")
	b = legacyMap(b, t.Labels)
	b = legacyMap(b, t.Params)
	w := t.Workload
	for _, f := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(w.Requests))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Succeeded))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Failed))
	b = legacyString(b, t.Problem)
	s := trial.Trial{Measurements: slices.Clone(t.Measurements)}
	s.Sort()
	b = binary.LittleEndian.AppendUint64(b, uint64(len(s.Measurements)))
	for _, m := range s.Measurements {
		b = legacyString(b, m.Metric)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Dims)))
		for _, d := range m.Dims {
			b = legacyString(b, d.Key)
			b = legacyString(b, d.Value)
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Value))
		b = legacyString(b, m.Unit)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:trial.IDLength/2])
}

func legacyString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func legacyMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = legacyString(b, k)
		b = legacyString(b, m[k])
	}
	return b
}

// contentID is trial.ComputeID as "pareto-trial-v2" computed it, from the
// content alone (no position: runs with identical numbers shared it): the
// labels and params sorted by key, the workload, counts and problem, then
// the measurements in canonical order, each with a flag byte (1 when its
// metric and unit, uvarint-length-prefixed, follow because they differ
// from the previous measurement's), its dims (count, then each key as a
// one-byte code of a well-known key or 0 and the key, and the value) and
// its value's bits. The conversion to schema version 5 gives it to trials
// stored under legacyID, and the conversion to schema version 6
// recognises the trials stored under it (fillPositions).
func contentID(t *trial.Trial) string {
	b := []byte("pareto-trial-v2")
	b = legacyMap(b, t.Labels)
	b = legacyMap(b, t.Params)
	w := t.Workload
	for _, f := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(w.Requests))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Succeeded))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.Failed))
	b = legacyString(b, t.Problem)
	s := trial.Trial{Measurements: slices.Clone(t.Measurements)}
	s.Sort()
	ms := s.Measurements
	b = binary.LittleEndian.AppendUint64(b, uint64(len(ms)))
	short := func(b []byte, s string) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	codes := map[string]byte{trial.DimStatistic: 1, trial.DimPhase: 2, trial.DimGPU: 3, trial.DimBenchmark: 4}
	for i, m := range ms {
		if i == 0 || m.Metric != ms[i-1].Metric || m.Unit != ms[i-1].Unit {
			b = short(append(b, 1), m.Metric)
			b = short(b, m.Unit)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(len(m.Dims)))
		for _, d := range m.Dims {
			if c, ok := codes[d.Key]; ok {
				b = append(b, c)
			} else {
				b = short(append(b, 0), d.Key)
			}
			b = short(b, d.Value)
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Value))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:trial.IDLength/2])
}
