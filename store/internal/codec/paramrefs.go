package codec

import (
	"errors"
	"maps"
	"strconv"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/trial"
)

// Parameter references. A table's numeric cells are both parameters (their
// text) and measurements (their value): a row of a generic table would
// keep every number twice. A parameter whose name is the name of one of
// the trial's measurements (refName) and whose text is the shortest form
// of its value (strconv.FormatFloat(v, 'g', -1, 64)) is therefore not
// stored in the params JSON but as bit j of the trial's param_refs, j the
// index of that measurement: a read gives the text back from the value.
// Bits from 63 on are not used (the measurements after the 63rd keep
// their parameters as text).

// refName is the name a measurement gives a parameter: its native name,
// else its metric.
func refName(m *trial.Measurement) string {
	if m.Native != "" {
		return m.Native
	}
	return m.Metric
}

// ParamRefs returns the bits of the parameters of t that its measurements
// give back, see "Parameter references". The first measurement of a name
// is the one referenced.
func ParamRefs(t *trial.Trial) int64 {
	if len(t.Params) == 0 {
		return 0
	}
	var refs int64
	var buf [32]byte
	ms := t.Measurements
	for j := range min(len(ms), 63) {
		name := refName(&ms[j])
		text, ok := t.Params[name]
		if !ok || len(text) > len(buf) || !utf8.ValidString(name) || claimed(ms[:j], name) {
			continue
		}
		if string(strconv.AppendFloat(buf[:0], ms[j].Value, 'g', -1, 64)) == text {
			refs |= 1 << j
		}
	}
	return refs
}

// claimed reports whether a measurement of ms (those before the one
// considered) is named name: a name is referenced by its first
// measurement or by none.
func claimed(ms []trial.Measurement, name string) bool {
	for j := range ms {
		if refName(&ms[j]) == name {
			return true
		}
	}
	return false
}

// referenced reports whether refs references a measurement of ms named
// name.
func referenced(name string, refs int64, ms []trial.Measurement) bool {
	for j := range min(len(ms), 63) {
		if refs&(1<<j) != 0 && refName(&ms[j]) == name {
			return true
		}
	}
	return false
}

// withRefs returns params with the parameters that refs references in ms
// added; params is not modified (it may be shared).
func withRefs(params map[string]string, refs int64, ms []trial.Measurement) map[string]string {
	if refs == 0 {
		return params
	}
	out := make(map[string]string, len(params)+min(len(ms), 63))
	maps.Copy(out, params)
	for j := range min(len(ms), 63) {
		if refs&(1<<j) != 0 {
			out[refName(&ms[j])] = strconv.FormatFloat(ms[j].Value, 'g', -1, 64)
		}
	}
	return out
}

// Params decodes a trial's params from their stored JSON (DecodeMap) and
// its param_refs over its measurements ms, as decoded from the row.
func (d *Decoder) Params(stored []byte, refs int64, ms []trial.Measurement) (map[string]string, error) {
	m, err := d.DecodeMap(stored)
	if err != nil {
		return nil, err
	}
	if refs>>min(len(ms), 63) != 0 || refs < 0 {
		return nil, errBadRefs
	}
	return withRefs(m, refs, ms), nil
}

// errBadRefs reports param_refs naming a measurement the trial lacks.
var errBadRefs = errors.New("param_refs name measurements the trial does not have")
