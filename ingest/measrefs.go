package ingest

import (
	"math"

	"github.com/pareto-llm/pareto/trial"
)

// The measurements of a vLLM or SGLang record are kept, while it is read,
// as references to templates (recordScratch.refs): the metric, dims,
// units and native name of each measurement are those of a record before,
// only the value is new. Writing a 16-byte pointer-free reference instead
// of a 96-byte measurement of five pointers (each a write barrier while
// the collector marks), and comparing template numbers instead of names
// to find the record's layout (sortCache.orderOf), leaves one write of
// each measurement: into the trial's sorted copy.

// measRef is a measurement of the record being read: its template
// (recordScratch.tmpl) and its value.
type measRef struct {
	tmpl int32
	v    float64
}

// tmplKey identifies a template of a measurement not read through a
// plan (builder.add): its names, and its dims by identity (dimsKey).
type tmplKey struct {
	metric, unit, native, src string
	dims                      dimsKey
}

// maxTemplates bounds the templates of a file: past it, its records keep
// their measurements whole (a file of ever new member names).
const maxTemplates = 1 << 14

// appendMeasurement adds m to the record's measurements: to
// t.Measurements, or as a reference to its template. tmpl, when not nil,
// gets 1 + the template's index, for the next measurement of the same
// names (a plan's; addUnitsIn then adds only its value).
func (b *builder) appendMeasurement(tmpl *int32, m trial.Measurement) {
	if !b.refs {
		b.long = b.long || measurementLong(&m)
		b.t.Measurements = append(b.t.Measurements, m)
		return
	}
	id := b.scratch.template(m)
	if tmpl != nil {
		*tmpl = id + 1
	}
	b.appendRef(id, m.Value)
}

// appendRef adds to the record's references the value v of template id.
func (b *builder) appendRef(id int32, v float64) {
	s := b.scratch
	b.long = b.long || s.longTmpl
	s.refs = append(s.refs, measRef{tmpl: id, v: v})
}

// template returns the index of the template of m's names.
func (s *recordScratch) template(m trial.Measurement) int32 {
	k := tmplKey{metric: m.Metric, unit: m.Unit, native: m.Native, src: m.SourceUnit, dims: keyOf(m.Dims)}
	if id, ok := s.tmplOf[k]; ok {
		return id
	}
	if s.tmplOf == nil {
		s.tmplOf = map[tmplKey]int32{}
	}
	m.Value = 0
	s.longTmpl = s.longTmpl || measurementLong(&m)
	id := int32(len(s.tmpl))
	s.tmpl = append(s.tmpl, m)
	s.tmplOf[k] = id
	return id
}

// keepCounts is keepCounts for the record's references.
func (s *recordScratch) keepCounts() {
	s.refs = keepCountsOf(s.refs, func(r measRef) string { return s.tmpl[r.tmpl].Metric })
}

// measurements returns the record's measurements, sorted as sortCopy
// sorts them: in the order of the layout of the same templates, or
// through sortCopy (which then keeps the layout, and the templates are
// noted for the next record).
func (s *recordScratch) measurements() []trial.Measurement {
	refs := s.refs
	if l := s.sort.ofRefs(refs); l != nil {
		out := s.spare.take(len(l.sorted))
		copy(out, l.sorted) // one copy of the names, then the values without pointers
		for j, i := range l.order {
			out[j].Value = refs[i].v
		}
		return out
	}
	s.ms = s.ms[:0]
	for _, r := range refs {
		m := s.tmpl[r.tmpl]
		m.Value = r.v
		s.ms = append(s.ms, m)
	}
	out := sortCopy(s.ms, &s.sort)
	if l := s.sort.find(s.ms); l != nil {
		l.tmpls = l.tmpls[:0]
		for _, r := range refs {
			l.tmpls = append(l.tmpls, r.tmpl)
		}
		clear(l.sorted)
		l.sorted = l.sorted[:0]
		for _, i := range l.order {
			m := s.tmpl[refs[i].tmpl] // templates are never changed once made
			l.sorted = append(l.sorted, m)
		}
	}
	return out
}

// ofRefs returns the layout whose records had the templates of refs, nil
// when none is known (or a value is NaN).
func (c *sortCache) ofRefs(refs []measRef) *sortLayout {
	if len(refs) == 0 {
		return nil
	}
next:
	for i := range c.layouts {
		l := &c.layouts[i]
		if !l.valid || len(l.tmpls) != len(refs) {
			continue
		}
		for j, r := range refs {
			if r.tmpl != l.tmpls[j] || math.IsNaN(r.v) {
				continue next
			}
		}
		return l
	}
	return nil
}
