package codec

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"unsafe"

	"github.com/pareto-llm/pareto/trial"
)

// castagnoli is the CRC-32C table (hardware-accelerated on amd64 and
// arm64) of the stored checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Summer accumulates a CRC-32C over length-prefixed fields, so that moving
// bytes between fields changes the sum.
type Summer struct {
	CRC uint32 // the sum so far
	buf [8]byte
}

// Int adds v, as 8 little-endian bytes.
func (s *Summer) Int(v int64) {
	binary.LittleEndian.PutUint64(s.buf[:], uint64(v))
	s.CRC = crc32.Update(s.CRC, castagnoli, s.buf[:])
}

// Bytes adds b, after its length.
func (s *Summer) Bytes(b []byte) {
	s.Int(int64(len(b)))
	s.CRC = crc32.Update(s.CRC, castagnoli, b)
}

// text adds a string or byte slice without copying it.
func SumText[T string | []byte](s *Summer, v T) {
	switch v := any(v).(type) {
	case string:
		s.Bytes(unsafe.Slice(unsafe.StringData(v), len(v)))
	case []byte:
		s.Bytes(v)
	}
}

// TrialChecksum is the checksum of what a trial row keeps that its
// content hash (trial.ComputeID) does not cover, and of what a slim read
// returns (so that it can be verified without the hash, which needs the
// labels and params decoded): the trial's ID, the source's path (the hash
// names the file by its key when it has one), format, format version and
// line, the packed measurements whole (native names
// and source units with them), the warnings and the layout in their
// canonical JSON, and the deployment's GPU counts with their reasons and
// the executed configuration's path and text, and the session (when
// there is one). The ingest computes it from
// what it writes, a read from what it reads.
func TrialChecksum[T string | []byte](id, path, format, version T, line int64, packed []byte, warnings, layout T,
	alloc int64, allocWhy T, serving int64, servingWhy, configPath, config, session T) int64 {
	var s Summer
	SumText(&s, id)
	SumText(&s, path)
	SumText(&s, format)
	SumText(&s, version)
	s.Int(line)
	s.Bytes(packed)
	SumText(&s, warnings)
	SumText(&s, layout)
	s.Int(alloc)
	SumText(&s, allocWhy)
	s.Int(serving)
	SumText(&s, servingWhy)
	SumText(&s, configPath)
	SumText(&s, config)
	if len(session) > 0 { // a trial recorded before sessions has the checksum it had
		SumText(&s, session)
	}
	return int64(s.CRC)
}

// BlockChecksum is the checksum of a block: its first and last row ids,
// its trial count and its packed row ids, IDs and problems.
func BlockChecksum(first, last, n int64, rowIDs, ids, problems []byte) int64 {
	var s Summer
	s.Int(first)
	s.Int(last)
	s.Int(n)
	s.Bytes(rowIDs)
	s.Bytes(ids)
	s.Bytes(problems)
	return int64(s.CRC)
}

// ValuesChecksum is the checksum of a block_values row: the first row id
// of the block it belongs to (known before the block's row id is, and
// unique), its metric and dims, and its packed values.
func ValuesChecksum[T string | []byte](first int64, metric, dims T, vals []byte) int64 {
	var s Summer
	s.Int(first)
	SumText(&s, metric)
	SumText(&s, dims)
	s.Bytes(vals)
	return int64(s.CRC)
}

// canonicalNaN are the bits of the NaN a stored NULL or packed NaN reads
// back as.
var canonicalNaN = math.Float64bits(math.NaN())

// storedExactly reports whether t reads back from the store exactly as
// given, so that trial.ComputeID of what is read equals that of t: no
// -0 and no NaN of other bits among the workload fields (SQLite reads -0
// back as 0, and NULL as math.NaN()), no NaN of other bits among the
// measurements (PackMeasurements stores math.NaN()), and no invalid UTF-8
// in labels, params or dims (their JSON encodings replace it with U+FFFD,
// which p's encodings then hold as \ufffd escapes).
func storedExactly(t *trial.Trial, p *Prepared) bool {
	w := &t.Workload
	for _, v := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		if v == 0 && math.Signbit(v) || v != v && math.Float64bits(v) != canonicalNaN {
			return false
		}
	}
	for i := range t.Measurements {
		if v := t.Measurements[i].Value; v != v && math.Float64bits(v) != canonicalNaN {
			return false
		}
	}
	const replaced = `\ufffd`
	if strings.Contains(p.Labels, replaced) || strings.Contains(p.Params, replaced) {
		return false
	}
	for _, d := range p.Dims {
		if strings.Contains(d, replaced) {
			return false
		}
	}
	return true
}

// asStored returns a copy of t holding what the store will read back: the
// labels, params and measurements decoded from p's encodings, the workload
// with -0 as 0 and every NaN as math.NaN(). The store writes the copy, so
// that both backends keep the same values.
func asStored(t *trial.Trial, p *Prepared, d *Decoder) (*trial.Trial, error) {
	c := *t
	var err error
	if c.Labels, err = d.DecodeMap([]byte(p.Labels)); err != nil {
		return nil, err
	}
	if c.Measurements, err = UnpackMeasurements(p.Packed, d, nil); err != nil {
		return nil, err
	}
	if c.Params, err = d.Params([]byte(p.Params), p.ParamRefs, c.Measurements); err != nil {
		return nil, err
	}
	w := &c.Workload
	for _, f := range [...]*float64{&w.InputTokens, &w.OutputTokens, &w.MeanInputTokens, &w.MeanOutputTokens,
		&w.Concurrency, &w.AchievedConcurrency, &w.RequestRate, &w.Users} {
		switch {
		case *f == 0:
			*f = 0
		case *f != *f:
			*f = math.NaN()
		}
	}
	return &c, nil
}
