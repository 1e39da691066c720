package ingest

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// Values a native result cannot hold (FORMATS.md "Values"): a negative
// latency, throughput or count (trial.NonNegative) is damage, an error for
// its file at the number's position, never a point; a NaN or Infinity is
// "not measured" in the formats whose writers produce it for a statistic
// they could not compute (Python's json.dumps: vLLM, SGLang, GenAI-Perf,
// inference-perf), left out with a warning on the trial, and an error in
// the others (AIPerf and guidellm write JSON through pydantic, which has
// no NaN; AIPerf's CSV neither).

// definesNonFinite reports whether format's writer puts NaN or Infinity
// for a measurement it could not compute.
func definesNonFinite(f Format) bool {
	switch f {
	case FormatVLLM, FormatVLLMNightly, FormatSGLang, FormatGenAIPerfJSON, FormatGenAIPerfCSV, FormatInferencePerf:
		return true
	}
	return false
}

// numPos is where the last number a reader read starts: a byte offset
// (JSON), or a line and column (CSV, line > 0).
type numPos struct {
	off       int64
	line, col int
}

// valueOK checks the value v of a measurement of metric (unit: its
// normalised unit) read from the file as native, at b.src's last number.
// It returns false when v is no measurement: a non-finite value (left
// out, with a warning where the format defines it) or damage (the file's
// error, kept in b.src). Derived values (native "") are only checked to
// be finite.
func (b *builder) valueOK(metric string, dims trial.Dims, unit, native string, v float64) bool {
	finite := !math.IsNaN(v) && !math.IsInf(v, 0)
	if native == "" || b.src == nil {
		return finite
	}
	if finite && (v >= 0 || !trial.NonNegative(metric, unit)) {
		return true
	}
	what := native
	if b.tool != trial.ToolVLLM && b.tool != trial.ToolSGLang { // their native names hold the statistic
		what = measureName(native, dims)
	}
	what = textin.Excerpt(what)
	switch {
	case !finite:
		if definesNonFinite(Format(b.t.Source.Format)) {
			b.t.Warnings = append(b.t.Warnings, fmt.Sprintf("%s is %s in the file: not measured, left out", what, nonFiniteText(v)))
			return false
		}
		b.src.badValue(fmt.Sprintf("%s: %s where a number is expected (%s writes no NaN or Infinity: the file is damaged)",
			what, nonFiniteText(v), b.tool))
		return false
	}
	b.src.badValue(fmt.Sprintf("%s: negative value %s (a latency, throughput or count cannot be negative: the file is damaged)",
		what, trial.FormatFloat(v)))
	return false
}

// measureName names a measurement as the file does: its native name and,
// when the name does not hold it, its statistic.
func measureName(native string, dims trial.Dims) string {
	what := native
	for _, d := range dims {
		if d.Key == trial.DimStatistic && !strings.Contains(native, d.Value) {
			what += "." + d.Value
		}
	}
	return what
}

// nonFiniteText renders a non-finite value as JSON writers spell it.
func nonFiniteText(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return "NaN"
}

// badValue keeps the first damaged value of the file, positioned at the
// last number read.
func (s *source) badValue(msg string) {
	if s.bad != nil {
		return
	}
	if s.num.line > 0 {
		s.bad = &SyntaxError{File: s.path, Line: s.num.line, Col: s.num.col, Msg: msg}
		return
	}
	s.bad = s.errorAt(s.num.off, nil, "%s", msg)
}

// result is what a reader of s returns: its trials, or the first damaged
// value it met (badValue).
func (s *source) result(ts []trial.Trial, err error) ([]trial.Trial, error) {
	if err == nil && s.bad != nil {
		return nil, s.bad
	}
	return ts, err
}

// checkUTF8 returns a positioned error at the first byte of data that is
// not UTF-8: native results are UTF-8 (Python's json.dumps writes ASCII
// with escapes; AIPerf and guidellm UTF-8), so such a byte is damage.
func checkUTF8(data []byte, src *source) error {
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return src.errorAt(src.base+int64(i), nil, "invalid UTF-8 (byte 0x%02x): the file is damaged or not UTF-8", data[i])
		}
		i += n
	}
	return nil
}

// TrialWarnings returns the warnings of ts as Warnings.Lines gives them.
func TrialWarnings(ts []trial.Trial) []string {
	var w Warnings
	w.Add(ts)
	return w.Lines()
}

// Warnings gathers the warnings of trials read from files, batch after
// batch, in the order Load hands the trials on (a file's trials together).
// The zero Warnings is empty and ready.
type Warnings struct {
	order []string               // each warning's text, in order of first appearance
	uses  map[string]*warningUse // by text
}

// warningUse is where a warning was given: the first file and, when the
// warning is the same in several files, how many.
type warningUse struct {
	first, last   string // the paths of the first and the latest file
	files, trials int
}

// Add gathers the warnings of ts.
func (w *Warnings) Add(ts []trial.Trial) {
	for i := range ts {
		for _, text := range ts[i].Warnings {
			u := w.uses[text]
			if u == nil {
				if w.uses == nil {
					w.uses = map[string]*warningUse{}
				}
				u = &warningUse{}
				w.uses[text] = u
				w.order = append(w.order, text)
			}
			if p := ts[i].Source.Path; u.files == 0 || p != u.last {
				if u.files == 0 {
					u.first = p
				}
				u.last = p
				u.files++
			}
			u.trials++
		}
	}
}

// Lines returns each warning gathered once, in order of first appearance,
// as "PATH: warning", with the number of trials it was given for when more
// than one (a JSONL file of many records warns once per damaged key); a
// warning given by the trials of several files (2,000 AIPerf exports
// without the GPUs allocated) is "PATH and N other files: warning", PATH
// the first. Each line goes through the redaction policy
// (trial.RedactText: a key may be a token).
func (w *Warnings) Lines() []string {
	lines := make([]string, 0, len(w.order))
	for _, text := range w.order {
		u := w.uses[text]
		line := u.first
		switch {
		case u.files == 2:
			line += " and 1 other file"
		case u.files > 2:
			line += fmt.Sprintf(" and %d other files", u.files-1)
		}
		line += ": " + text
		if u.trials > u.files {
			line += fmt.Sprintf(" (%d trials)", u.trials)
		}
		lines = append(lines, trial.RedactText(line))
	}
	return lines
}
