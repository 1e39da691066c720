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
// is such a content hash, and gives them the current one, so that
// ingesting the same result again still finds them present.
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
