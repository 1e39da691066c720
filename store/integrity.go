package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"unsafe"

	"github.com/pareto-llm/pareto/trial"
)

// ErrDamaged is what every IntegrityError is (errors.Is): a stored trial or
// block no longer matches its content hash or checksum.
var ErrDamaged = errors.New("the store is damaged")

// IntegrityError reports a stored trial or block that does not match what
// was stored: a trial whose content no longer hashes to its content hash,
// or whose checksum fails; a block whose checksum fails, or (pareto check)
// that disagrees with its trials. Reads return it instead of changed
// values.
type IntegrityError struct {
	// Study is the study holding the trial or block.
	Study string
	// Trial is the trial's ID as stored; empty for a block.
	Trial string
	// Block is the block's row id, for a block.
	Block int64
	// Detail says what does not match.
	Detail string
}

func (e *IntegrityError) Error() string {
	what := "trial " + e.Trial
	if e.Trial == "" {
		what = fmt.Sprintf("block %d", e.Block)
	}
	if e.Study != "" {
		what += " of study " + e.Study
	}
	return what + ": " + e.Detail + ": the store is damaged (pareto check lists every damaged trial and block)"
}

// Is makes errors.Is(err, ErrDamaged) hold.
func (e *IntegrityError) Is(target error) bool { return target == ErrDamaged }

// inStudy sets the study of an IntegrityError in err, if any.
func inStudy(err error, study string) error {
	var ie *IntegrityError
	if errors.As(err, &ie) && ie.Study == "" {
		ie.Study = study
	}
	return err
}

// castagnoli is the CRC-32C table (hardware-accelerated on amd64 and
// arm64) of the stored checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// summer accumulates a CRC-32C over length-prefixed fields, so that moving
// bytes between fields changes the sum.
type summer struct {
	crc uint32
	buf [8]byte
}

func (s *summer) int(v int64) {
	binary.LittleEndian.PutUint64(s.buf[:], uint64(v))
	s.crc = crc32.Update(s.crc, castagnoli, s.buf[:])
}

func (s *summer) bytes(b []byte) {
	s.int(int64(len(b)))
	s.crc = crc32.Update(s.crc, castagnoli, b)
}

// text adds a string or byte slice without copying it.
func sumText[T string | []byte](s *summer, v T) {
	switch v := any(v).(type) {
	case string:
		s.bytes(unsafe.Slice(unsafe.StringData(v), len(v)))
	case []byte:
		s.bytes(v)
	}
}

// trialChecksum is the checksum of what a trial row keeps that its
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
func trialChecksum[T string | []byte](id, path, format, version T, line int64, packed []byte, warnings, layout T,
	alloc int64, allocWhy T, serving int64, servingWhy, configPath, config, session T) int64 {
	var s summer
	sumText(&s, id)
	sumText(&s, path)
	sumText(&s, format)
	sumText(&s, version)
	s.int(line)
	s.bytes(packed)
	sumText(&s, warnings)
	sumText(&s, layout)
	s.int(alloc)
	sumText(&s, allocWhy)
	s.int(serving)
	sumText(&s, servingWhy)
	sumText(&s, configPath)
	sumText(&s, config)
	if len(session) > 0 { // a trial recorded before sessions has the checksum it had
		sumText(&s, session)
	}
	return int64(s.crc)
}

// blockChecksum is the checksum of a block: its first and last row ids,
// its trial count and its packed row ids, IDs and problems.
func blockChecksum(first, last, n int64, rowIDs, ids, problems []byte) int64 {
	var s summer
	s.int(first)
	s.int(last)
	s.int(n)
	s.bytes(rowIDs)
	s.bytes(ids)
	s.bytes(problems)
	return int64(s.crc)
}

// valuesChecksum is the checksum of a block_values row: the first row id
// of the block it belongs to (known before the block's row id is, and
// unique), its metric and dims, and its packed values.
func valuesChecksum[T string | []byte](first int64, metric, dims T, vals []byte) int64 {
	var s summer
	s.int(first)
	sumText(&s, metric)
	sumText(&s, dims)
	s.bytes(vals)
	return int64(s.crc)
}

// canonicalNaN are the bits of the NaN a stored NULL or packed NaN reads
// back as.
var canonicalNaN = math.Float64bits(math.NaN())

// storedExactly reports whether t reads back from the store exactly as
// given, so that trial.ComputeID of what is read equals that of t: no
// -0 and no NaN of other bits among the workload fields (SQLite reads -0
// back as 0, and NULL as math.NaN()), no NaN of other bits among the
// measurements (packMeasurements stores math.NaN()), and no invalid UTF-8
// in labels, params or dims (their JSON encodings replace it with U+FFFD,
// which p's encodings then hold as \ufffd escapes).
func storedExactly(t *trial.Trial, p *prepared) bool {
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
	if strings.Contains(p.labels, replaced) || strings.Contains(p.params, replaced) {
		return false
	}
	for _, d := range p.dims {
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
func asStored(t *trial.Trial, p *prepared, d *decoder) (*trial.Trial, error) {
	c := *t
	var err error
	if c.Labels, err = d.decodeMap([]byte(p.labels)); err != nil {
		return nil, err
	}
	if c.Params, err = d.decodeMap([]byte(p.params)); err != nil {
		return nil, err
	}
	if c.Measurements, err = unpackMeasurements(p.packed, d, nil); err != nil {
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
