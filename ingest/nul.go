package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// ErrNUL is returned (wrapped) for a name or value that holds a NUL byte
// (U+0000). No store keeps one the same way (SQLite would, PostgreSQL
// refuses the text), so no reader passes one on: the input is an error,
// positioned where the value is found, whichever store it is for.
var ErrNUL = errors.New("holds a NUL byte")

// mayHoldNUL reports whether data may decode to a text holding a NUL: it
// holds a NUL byte, or a backslash (which may start an escape of one, as
// JSON's \u0000). Inputs without either (most) are not checked trial by
// trial; two IndexByte passes cost about 1% of reading a vLLM result, a
// search for the escape itself several times that.
func mayHoldNUL(data []byte) bool {
	return bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\\') >= 0
}

// checkNUL reports the first name or value of ts that holds a NUL byte,
// positioned in src when the text before the NUL is found there; first
// is how many trials of src came before ts.
func checkNUL(ts []trial.Trial, first int, src *source) error {
	for i := range ts {
		what, v := nulField(&ts[i])
		if what == "" {
			continue
		}
		msg := fmt.Sprintf("%s %s %s, which no store keeps", what, textin.Excerpt(v), ErrNUL)
		if before := v[:strings.IndexByte(v, 0)]; src != nil && before != "" {
			if off := src.find([]byte(before[:min(len(before), 64)])); off >= 0 {
				return src.errorAt(off, ErrNUL, "%s", msg)
			}
		}
		e := &SyntaxError{Msg: fmt.Sprintf("trial %d: %s", first+i+1, msg), Err: ErrNUL}
		if src != nil {
			e.File = src.path
		}
		return e
	}
	return nil
}

// nulField returns the first name or value of t holding a NUL byte: what
// it is and the text ("" when there is none).
func nulField(t *trial.Trial) (what, v string) {
	has := func(s string) bool { return strings.IndexByte(s, 0) >= 0 }
	for i := range t.Measurements {
		m := &t.Measurements[i]
		switch {
		case has(m.Native):
			return "metric name", m.Native
		case has(m.Metric):
			return "metric name", m.Metric
		case has(m.SourceUnit):
			return "unit", m.SourceUnit
		case has(m.Unit):
			return "unit", m.Unit
		}
		for _, d := range m.Dims {
			if has(d.Key) {
				return "dimension name", d.Key
			}
			if has(d.Value) {
				return "dimension " + textin.Excerpt(d.Key) + " value", d.Value
			}
		}
	}
	for k, v := range t.Labels {
		if has(k) {
			return "label name", k
		}
		if has(v) {
			return "label " + textin.Excerpt(k) + " value", v
		}
	}
	for k, v := range t.Params {
		if has(k) {
			return "parameter name", k
		}
		if has(v) {
			return "parameter " + textin.Excerpt(k) + " value", v
		}
	}
	for _, w := range t.Warnings {
		if has(w) {
			return "warning", w
		}
	}
	if has(t.Problem) {
		return "problem", t.Problem
	}
	if t.Deployment != nil && has(t.Deployment.Config) {
		return "configuration", t.Deployment.Config
	}
	return "", ""
}
