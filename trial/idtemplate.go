package trial

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// IDTemplate computes ComputeIDSorted faster for a series of trials whose
// measurements differ from those of the trial before only in their values,
// as when a reader goes through a directory of results written by one
// tool for one configuration: the encoding of the measurements is kept,
// and only the values are written into it again. The zero value is ready
// to use; an IDTemplate must not be used concurrently.
type IDTemplate struct {
	keys []measurementKey // what the encoding is of, but the values
	enc  []byte           // appendMeasurements of those measurements
	offs []int32          // offset of each value in enc
}

// measurementKey holds the fields of a measurement that ComputeID encodes,
// except the value.
type measurementKey struct {
	metric, unit string
	dims         Dims
}

// ComputeIDSorted returns ComputeIDSorted(t).
func (p *IDTemplate) ComputeIDSorted(t *Trial) string {
	e := idEncoders.Get().(*idEncoder)
	e.header(t)
	ms := t.Measurements
	if p.same(ms) {
		for i := range ms {
			binary.LittleEndian.PutUint64(p.enc[p.offs[i]:], math.Float64bits(ms[i].Value))
		}
	} else {
		p.enc, p.offs = e.appendMeasurements(p.enc[:0], ms, p.offs[:0], true)
		clear(p.keys)
		p.keys = p.keys[:0]
		for i := range ms {
			p.keys = append(p.keys, measurementKey{ms[i].Metric, ms[i].Unit, ms[i].Dims})
		}
	}
	e.b = append(e.b, p.enc...)
	return e.sum()
}

// same reports whether the metric, unit and dims of every measurement of
// ms are those of p.keys, by identity (the same string and slice data):
// the template holds them, so their memory is not reused, and strings and
// dims are never modified in place, so identical means equal.
func (p *IDTemplate) same(ms []Measurement) bool {
	if len(ms) != len(p.keys) || p.enc == nil {
		return false
	}
	for i := range ms {
		m, k := &ms[i], &p.keys[i]
		if unsafe.StringData(m.Metric) != unsafe.StringData(k.metric) || len(m.Metric) != len(k.metric) ||
			unsafe.StringData(m.Unit) != unsafe.StringData(k.unit) || len(m.Unit) != len(k.unit) ||
			unsafe.SliceData(m.Dims) != unsafe.SliceData(k.dims) || len(m.Dims) != len(k.dims) {
			return false
		}
	}
	return true
}
