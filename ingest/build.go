package ingest

import (
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// builder accumulates one trial.
type builder struct {
	t     trial.Trial
	tool  string
	known bool // t.Succeeded was set from the file
	// recs, when set, collects the measurements instead of t.Measurements
	// (fast AIPerf reader).
	recs *records
	// scratch, when set, holds the buffer t.Measurements was started in
	// (or, with refs, the record's references to its measurements),
	// reused by the next record (jreader.builder): finish gives the trial
	// its own copy.
	scratch *recordScratch
	// refs: the measurements are kept in scratch.refs (appendMeasurement).
	refs bool
	// long: a name or value of t may be over its bound (overLong), or
	// its parameters and labels hold text (their total so far) over
	// MaxTrialText.
	long bool
	text int
	// memo, when set, remembers the redacted parameters and labels of the
	// records or files read before (paramMemo).
	memo *paramMemo
	// src is the file read, where damaged values are kept (valueOK).
	src *source
}

func newBuilder(tool string, src *source, format Format) *builder {
	return newBuilderIn(tool, src, format, nil)
}

// newBuilderIn is newBuilder whose trial's labels are set in labels, an
// empty map (nil: a new one).
func newBuilderIn(tool string, src *source, format Format, labels map[string]string) *builder {
	b := &builder{tool: tool, src: src}
	b.t.Labels = labels
	b.t.Source = trial.Source{Path: src.path, Key: src.key, Format: string(format)}
	b.t.Failed = -1
	b.t.SetLabel(trial.LabelTool, tool)
	return b
}

// add appends a measurement after unit normalisation; non-finite and
// damaged values are not measurements (valueOK).
func (b *builder) add(metric string, dims trial.Dims, v float64, srcUnit, native string) {
	val, unit := trial.NormalizeUnit(v, srcUnit)
	if unit == "" {
		if m, ok := trial.Lookup(metric); ok {
			unit = m.Unit
		}
	}
	if !b.valueOK(metric, dims, unit, native, v) {
		return
	}
	b.appendMeasurement(nil, trial.Measurement{
		Metric: metric, Dims: dims, Value: val, Unit: unit, Native: native, SourceUnit: srcUnit,
	})
}

// unitConv is the normalisation of one source unit, worked out once for
// the values of a block.
type unitConv struct {
	src, unit string // source and normalised unit
	same      bool   // trial.NormalizeUnit leaves values unchanged
}

// units works out the normalisation of srcUnit for metric, as add does.
func (b *builder) units(metric, srcUnit string) unitConv {
	one, unit := trial.NormalizeUnit(1, srcUnit)
	other, _ := trial.NormalizeUnit(2.5, srcUnit)
	if unit == "" {
		if m, ok := trial.Lookup(metric); ok {
			unit = m.Unit
		}
	}
	return unitConv{src: srcUnit, unit: unit, same: one == 1 && other == 2.5}
}

// addUnits is add with the unit normalisation worked out by units.
func (b *builder) addUnits(metric string, dims trial.Dims, v float64, u unitConv, native string) {
	b.addUnitsIn(nil, metric, dims, v, u, native)
}

// addUnitsIn is addUnits keeping the measurement's template in *tmpl
// (appendMeasurement).
func (b *builder) addUnitsIn(tmpl *int32, metric string, dims trial.Dims, v float64, u unitConv, native string) {
	if !b.valueOK(metric, dims, u.unit, native, v) {
		return
	}
	if !u.same {
		v, _ = trial.NormalizeUnit(v, u.src)
	}
	if b.refs && tmpl != nil && *tmpl > 0 { // the template holds the names (appendMeasurement): no measurement to build
		b.appendRef(*tmpl-1, v)
		return
	}
	b.appendMeasurement(tmpl, trial.Measurement{
		Metric: metric, Dims: dims, Value: v, Unit: u.unit, Native: native, SourceUnit: u.src,
	})
}

// addNative maps a tool's native metric name through the registry and
// appends it with the statistic stat ("" for a scalar).
func (b *builder) addNative(native, stat string, v float64, srcUnit string) {
	metric := native
	if c, ok := trial.Canonical(b.tool, native); ok {
		metric = c
	}
	var dims trial.Dims
	if stat != "" {
		dims = trial.StatDims(stat)
	}
	b.add(metric, dims, v, srcUnit, native)
}

// finish applies the rules shared by all readers: error counts and rate,
// the all-failed rule, and the ID.
func (b *builder) finish() trial.Trial {
	t := &b.t
	if t.Succeeded == 0 && (b.known || t.Failed > 0) && t.Problem == "" {
		t.Problem = trial.ProblemNoSuccess
	}
	if b.recs != nil {
		return b.finishRecords()
	}
	if t.Problem == trial.ProblemNoSuccess {
		if b.refs {
			b.scratch.keepCounts()
		} else {
			t.Measurements = keepCounts(t.Measurements)
		}
	}
	if t.Failed >= 0 && t.Succeeded+t.Failed > 0 {
		if s := b.scratch; b.refs {
			if !s.errorRate.known {
				s.errorRate.u, s.errorRate.known = b.units(trial.ErrorRate, trial.UnitRatio), true
			}
			b.addUnitsIn(&s.errorRate.tmpl, trial.ErrorRate, nil, t.ErrorRate(), s.errorRate.u, "") // as add does
		} else {
			b.add(trial.ErrorRate, nil, t.ErrorRate(), trial.UnitRatio, "")
		}
	}
	switch s := b.scratch; {
	case s != nil:
		s.params, s.labels = len(t.Params), len(t.Labels)
		if b.refs {
			t.Measurements = s.measurements()
		} else {
			s.ms = t.Measurements[:0] // grown, for the next record (the jreader, and its pins, end with the file)
			t.Measurements = sortCopy(t.Measurements, &s.sort)
		}
		if !b.noIDs() {
			t.ID = s.id.ComputeIDSorted(t) // records of a file repeat their layout
		}
	default:
		t.Measurements = sortMeasurements(t.Measurements)
		if !b.noIDs() {
			t.ID = trial.ComputeIDSorted(t) // what t.Finalize does once sorted
		}
	}
	t.Measurements = dedupe(t.Measurements)
	return *t
}

// noIDs reports whether the trial goes without an ID (LoadOptions.NoIDs).
func (b *builder) noIDs() bool { return b.src != nil && b.src.noIDs }

// finishRecords is the rest of finish for measurements in b.recs.
func (b *builder) finishRecords() trial.Trial {
	t, r := &b.t, b.recs
	if t.Problem == trial.ProblemNoSuccess {
		r.keepCounts()
	}
	if t.Failed >= 0 && t.Succeeded+t.Failed > 0 {
		r.add(r.block(trial.ErrorRate, "", b.units(trial.ErrorRate, trial.UnitRatio)), noDims, t.ErrorRate())
	}
	var dep *trial.Deployment
	if b.src != nil && b.src.deploy != nil {
		dep = fileDeployment(*b.src.deploy, t)
	}
	nrecs, nblocks, nwarn := len(r.recs), len(r.blocks), len(t.Warnings)
	derived := dep != nil && r.addPerGPU(dep, &t.Warnings)
	t.Measurements = r.measurements()
	if dep != nil && (!derived || r.mayRepeat(t.Measurements)) {
		// What Dataset.gpuCount does to a trial read without its
		// deployment, as the records cannot tell it apart.
		r.recs, r.blocks, t.Warnings = r.recs[:nrecs], r.blocks[:nblocks], t.Warnings[:nwarn]
		t.Measurements = dedupe(r.measurements())
		t.Deployment = dep
		trial.AddPerGPU(t, dep)
		if b.noIDs() {
			t.Sort()
		} else {
			t.Finalize()
		}
		return *t
	}
	t.Deployment = dep
	if !b.noIDs() {
		t.ID = r.idTemplate().ComputeIDSorted(t) // records.measurements gives the order of trial.Sort
	}
	t.Measurements = dedupe(t.Measurements)
	return *t
}

// hasRepeats reports whether dedupe would drop one of the sorted ms.
func hasRepeats(ms []trial.Measurement) bool {
	for i := 1; i < len(ms); i++ {
		if repeats(&ms[i-1], &ms[i]) {
			return true
		}
	}
	return false
}

// dedupe drops exact repeats in sorted measurements (guidellm writes the
// median twice, as median and as percentiles.p50). Dims count as repeated
// when they render the same (Dims.String).
func dedupe(ms []trial.Measurement) []trial.Measurement {
	n := 0 // ms[:n] is the result so far
	for i := range ms {
		m := &ms[i]
		if n > 0 {
			p := &ms[n-1]
			if repeats(p, m) {
				continue
			}
		}
		if n != i { // copy only once something was dropped
			ms[n] = *m
		}
		n++
	}
	return ms[:n]
}

// repeats reports whether m repeats p, for dedupe.
func repeats(p, m *trial.Measurement) bool {
	return p.Metric == m.Metric && p.Value == m.Value && p.Unit == m.Unit && sameDimsString(p.Dims, m.Dims)
}

// sameDimsString reports whether a.String() == b.String() without
// building the strings in the usual cases.
func sameDimsString(a, b trial.Dims) bool {
	if sameDims(a, b) {
		return true
	}
	if len(a) == len(b) {
		same := true
		for i := range a {
			if a[i] != b[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	if dimsStringLen(a) != dimsStringLen(b) {
		return false
	}
	var ab, bb [128]byte
	return string(appendDims(ab[:0], a)) == string(appendDims(bb[:0], b))
}

// appendDims appends d.String() to buf.
func appendDims(buf []byte, d trial.Dims) []byte {
	for i, x := range d {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(append(append(buf, x.Key...), '='), x.Value...)
	}
	return buf
}

// dimsStringLen is len(d.String()).
func dimsStringLen(d trial.Dims) int {
	n := max(len(d)-1, 0)
	for _, x := range d {
		n += len(x.Key) + 1 + len(x.Value)
	}
	return n
}

// keepCounts drops every measurement of an all-failed run except request
// counts, so that zeros written by tools never become latency points.
func keepCounts(ms []trial.Measurement) []trial.Measurement {
	return keepCountsOf(ms, func(m trial.Measurement) string { return m.Metric })
}

// keepCountsOf is keepCounts for items of any kind whose metric is
// metric's.
func keepCountsOf[T any](xs []T, metric func(T) string) []T {
	out := xs[:0]
	for _, x := range xs {
		if m := metric(x); m == trial.RequestCount || m == trial.ErrorRequestCount {
			out = append(out, x)
		}
	}
	return out
}

// setSucceeded records the number of successful requests.
func (b *builder) setSucceeded(v float64) {
	if v >= 0 && v < 1<<62 {
		b.t.Succeeded, b.known = int64(v), true
	}
}

// setFailed records the number of failed requests.
func (b *builder) setFailed(v float64) {
	if v >= 0 && v < 1<<62 {
		b.t.Failed = int64(v)
	}
}

func ftoa(v float64) string { return trial.FormatFloat(v) }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// paramMemo remembers, per parameter or label key, the last two values
// records of the file set and what they became (trial.RedactParam; for a
// number, its text): records repeating their setup, as every line of a
// JSONL file does, or alternating between two (vLLM --append-result
// files of two runs), neither redact nor format it again.
type paramMemo map[string]memoPair

// memoPair holds the latest value of a key first.
type memoPair [2]memoValue

type memoValue struct {
	raw, out string
	num      uint64 // the bits of a number's value
	isNum    bool
	set      bool // the entry holds a value
}

// maxMemo bounds a paramMemo: past it, new keys are not remembered.
const maxMemo = 256

func (m *paramMemo) remember(k string, v memoValue) {
	if *m == nil {
		*m = paramMemo{}
	}
	v.set = true
	if p, ok := (*m)[k]; ok {
		(*m)[k] = memoPair{v, p[0]}
	} else if len(*m) < maxMemo {
		(*m)[k] = memoPair{v}
	}
}

// memoText returns the remembered text value of key k that is raw.
func memoText[T string | []byte](m paramMemo, k string, raw T) (memoValue, bool) {
	for _, v := range m[k] {
		if v.set && !v.isNum && v.raw == string(raw) {
			return v, true
		}
	}
	return memoValue{}, false
}

// number returns the remembered number of k whose bits are bits.
func (m paramMemo) number(k string, bits uint64) (memoValue, bool) {
	for _, v := range m[k] {
		if v.set && v.isNum && v.num == bits {
			return v, true
		}
	}
	return memoValue{}, false
}

// redact is trial.RedactParam(k, v), remembered for the next record.
func (b *builder) redact(k, v string) string {
	if b.memo == nil {
		return trial.RedactParam(k, v)
	}
	if m, ok := memoText(*b.memo, k, v); ok {
		return m.out
	}
	out := trial.RedactParam(k, v)
	b.memo.remember(k, memoValue{raw: v, out: out})
	return out
}

// setParam is t.SetParam through the memo of the file's records.
func (b *builder) setParam(k, v string) {
	b.putParam(k, b.redact(k, v))
}

// putParam sets parameter k to v, which is redacted already.
func (b *builder) putParam(k, v string) {
	if b.t.Params == nil {
		b.t.Params = make(map[string]string, 16)
	}
	b.noteText(k, v, MaxParamLen)
	b.t.Params[k] = v
}

// noteText notes the name k and value v set in the trial (max: the bound
// of v) for b.long.
func (b *builder) noteText(k, v string, max int) {
	b.text += len(k) + len(v)
	if len(k) > MaxNameLen || len(v) > max || b.text > MaxTrialText {
		b.long = true
	}
}

// setLabel is t.SetLabel through the memo of the file's records.
func (b *builder) setLabel(k, v string) {
	if v == "" {
		return
	}
	if b.t.Labels == nil {
		b.t.Labels = make(map[string]string, 8)
	}
	v = b.redact(k, v)
	b.noteText(k, v, MaxLabelLen)
	b.t.Labels[k] = v
}

// setParamNum is t.SetParam(k, ftoa(v)) through the memo of the file's
// records.
func (b *builder) setParamNum(k string, v float64) {
	if b.memo == nil {
		b.t.SetParam(k, ftoa(v))
		return
	}
	bits := math.Float64bits(v)
	if m, ok := b.memo.number(k, bits); ok {
		b.putParam(k, m.out)
		return
	}
	out := trial.RedactParam(k, ftoa(v))
	b.memo.remember(k, memoValue{out: out, num: bits, isNum: true})
	b.putParam(k, out)
}
