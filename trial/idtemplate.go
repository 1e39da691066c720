package trial

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"unsafe"
)

// IDTemplate computes ComputeIDSorted faster for a series of trials whose
// measurements differ from those of a trial before only in their values,
// as when a reader goes through a directory of results written by one
// tool for one configuration, or a file of records that alternate between
// a few layouts: the encoding of the measurements of each of the last
// templateLayouts layouts is kept, with the sorted keys of its labels and
// params, and only the values are written into it again. The zero value
// is ready to use; an IDTemplate must not be used concurrently.
type IDTemplate struct {
	layouts [templateLayouts]idLayout
	tick    uint64
	ids     *idChunk // where the IDs are written (one allocation for idChunkIDs of them)
}

// idChunk holds the text of the IDs an IDTemplate returned: n bytes of
// buf are used, and never written again (the strings point into them).
type idChunk struct {
	buf [idChunkIDs * IDLength]byte
	n   int
}

// idChunkIDs is how many IDs share one allocation: few enough that a
// caller keeping one trial of many pins little.
const idChunkIDs = 64

// templateLayouts is how many layouts an IDTemplate keeps.
const templateLayouts = 4

// idLayout is the encoding of one layout of measurements.
type idLayout struct {
	keys []measurementKey // what the encoding is of, but the values
	enc  []byte           // appendMeasurements of those measurements
	offs []int32          // offset of each value in enc
	// Sorted keys of the labels and params of the trial last encoded
	// with this layout (see appendMap).
	labelKeys, paramKeys []string
	used                 uint64 // tick of the last use
}

// measurementKey holds the fields of a measurement that ComputeID encodes,
// except the value.
type measurementKey struct {
	metric, unit string
	dims         Dims
}

// ComputeIDSorted returns ComputeIDSorted(t). The text of the ID shares
// its allocation with those of the IDs before and after it (idChunkIDs).
func (p *IDTemplate) ComputeIDSorted(t *Trial) string {
	e := idEncoders.Get().(*idEncoder)
	ms := t.Measurements
	p.tick++
	l := &p.layouts[0]
	found := false
	for i := range p.layouts {
		c := &p.layouts[i]
		if c.same(ms) {
			l, found = c, true
			break
		}
		if c.used < l.used {
			l = c
		}
	}
	l.used = p.tick
	e.headerKeys(t, &l.labelKeys, &l.paramKeys)
	if found {
		for i := range ms {
			binary.LittleEndian.PutUint64(l.enc[l.offs[i]:], math.Float64bits(ms[i].Value))
		}
	} else {
		l.enc, l.offs = e.appendMeasurements(l.enc[:0], ms, l.offs[:0], true)
		clear(l.keys)
		l.keys = l.keys[:0]
		for i := range ms {
			l.keys = append(l.keys, measurementKey{ms[i].Metric, ms[i].Unit, ms[i].Dims})
		}
	}
	e.b = append(e.b, l.enc...)
	sum := e.digest()
	if p.ids == nil || p.ids.n == len(p.ids.buf) {
		p.ids = new(idChunk)
	}
	id := p.ids.buf[p.ids.n : p.ids.n+IDLength]
	hex.Encode(id, sum[:IDLength/2])
	p.ids.n += IDLength
	return unsafe.String(&id[0], IDLength)
}

// same reports whether the metric, unit and dims of every measurement of
// ms are those of l.keys, by identity (the same string and slice data):
// the template holds them, so their memory is not reused, and strings and
// dims are never modified in place, so identical means equal.
func (l *idLayout) same(ms []Measurement) bool {
	if len(ms) != len(l.keys) || l.enc == nil {
		return false
	}
	for i := range ms {
		m, k := &ms[i], &l.keys[i]
		if unsafe.StringData(m.Metric) != unsafe.StringData(k.metric) || len(m.Metric) != len(k.metric) ||
			unsafe.StringData(m.Unit) != unsafe.StringData(k.unit) || len(m.Unit) != len(k.unit) ||
			unsafe.SliceData(m.Dims) != unsafe.SliceData(k.dims) || len(m.Dims) != len(k.dims) {
			return false
		}
	}
	return true
}
