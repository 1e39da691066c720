package ingest

import (
	"errors"
	"math"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/trial"
)

// perfTokens is what the AIPerf reader (perfJSON) reads a document
// through: the fast scanner over an in-memory file, which gives up
// (ok=false) on anything unusual, or jsonTokens over the jsontext reader,
// which streams and records the positioned error. Every method consumes
// one value (or, for kind, none) and reports ok=false when reading must
// stop.
type perfTokens interface {
	// kind returns the first byte of the next value ('{', '[', '"', 'n',
	// 't', 'f', or a number's first byte; 0 at the end).
	kind() byte
	// open consumes the '{' or '[' (c) that must come next (what names
	// the value in errors); member then reads the name of member n of
	// the object, or its closing '}' (more=false), and element reports
	// whether element n of the array follows, or consumes its ']'. The
	// caller consumes each member's value and element. (No callbacks: a
	// closure passed through an interface escapes to the heap.)
	open(what string, c byte) bool
	member(what string, n int) (name []byte, more, ok bool)
	element(n int) (more, ok bool)
	skip() bool
	// text reads a scalar as a string (null: set=false; objects and
	// arrays are skipped with set=false); textBytes is text as bytes
	// valid until the next call.
	text() (v string, set, ok bool)
	textBytes() (v []byte, set, ok bool)
	// number reads a statistic: a number, a numeric string or null
	// (set=false); pos is where the file holds it. Errors name it
	// tag.name (tag alone for a nil name), built only by the reader that
	// reports them.
	number(tag string, name []byte) (v float64, pos numPos, set, ok bool)
	// end checks that nothing follows the document.
	end() bool
}

// readPerfFast reads an in-memory AIPerf or GenAI-Perf JSON document in one
// pass with the scanner. It returns ok=false, and nothing else, for
// anything unusual (invalid JSON, a value of the wrong type, names with
// escapes, a negative or non-finite statistic, ...): the caller then uses
// readPerfJSON, the same reading through the jsontext reader, which gives
// the same trials or the positioned error.
func readPerfFast(data []byte, src *source, f Format, r *reader) ([]trial.Trial, bool) {
	return readPerfFastMarks(data, src, f, r, nil)
}

// readPerfFastMarks is readPerfFast that also collects, when marks is not
// nil, the marks Detect needs of the strings it scans (readGuessed).
func readPerfFastMarks(data []byte, src *source, f Format, r *reader, marks *headMarks) ([]trial.Trial, bool) {
	tool := trial.ToolAIPerf
	if f == FormatGenAIPerfJSON {
		tool = trial.ToolGenAIPerf
	}
	s := &r.scan
	*s = scanner{data: data, marks: marks, cols: r.lim.maxColumns()}
	p := &perfJSON{t: s, b: newBuilderIn(tool, src, f, r.spare.takeMap(8)), names: r.names, seq: &r.seq, bseq: &r.bseq, dims: &r.dims, blocks: r.blocks, genai: f == FormatGenAIPerfJSON,
		stats: r.stats[:0], path: r.path[:0], with: r.with[:0]}
	p.b.t.Params = r.spare.takeMap(max(r.nparams, 16))
	r.recs.reset()
	p.b.recs, p.b.memo = &r.recs, &r.memo
	r.recs.spare = r.spare
	defer func() { r.recs.spare = nil }() // the pooled reader must not pin the Dataset's spares
	ok := p.document()
	s.data, s.marks = nil, nil // the pooled reader must not pin the file
	if !ok {
		r.spare.giveMap(p.b.t.Params)
		r.spare.giveMap(p.b.t.Labels)
		return nil, false
	}
	r.stats, r.path, r.with = p.stats[:0], p.path[:0], p.with[:0]
	r.nparams = len(p.b.t.Params)
	if len(p.b.t.Params) == 0 { // as if SetParam was never called
		r.spare.giveMap(p.b.t.Params)
		p.b.t.Params = nil
	}
	t := p.finish()
	// Every parameter and label but the tool's went through the builder
	// (noteText), every measurement through the records.
	r.fastBounded = !p.b.long && p.b.text+boundSlack <= MaxTrialText && !r.recs.long()
	return []trial.Trial{t}, true
}

// boundSlack is room, in the fast AIPerf reader's count of a trial's
// parameter and label text, for the text set without the builder (the
// tool label).
const boundSlack = 256

// The scanner's perfTokens methods.

func (s *scanner) kind() byte { return s.ws() }

func (s *scanner) open(_ string, c byte) bool { return s.enter(c) }

func (s *scanner) member(_ string, n int) ([]byte, bool, bool) {
	more, ok := s.more(n == 0, '}')
	if !ok || n > s.cols {
		return nil, false, false
	}
	if !more {
		return nil, false, true
	}
	name, ok := s.name()
	return name, ok, ok
}

func (s *scanner) element(n int) (bool, bool) { return s.more(n == 0, ']') }

func (s *scanner) textBytes() ([]byte, bool, bool) {
	switch c := s.ws(); {
	case c == '"':
		raw, plain, ok := s.str()
		if ok && !plain {
			var v string
			v, ok = unquote(raw, false)
			raw = []byte(v)
		}
		return raw, ok, ok
	case c >= '0' && c <= '9': // a number, as written (text)
		raw, ok := s.rawNumber()
		return raw, true, ok
	}
	v, set, ok := s.text()
	return []byte(v), set, ok
}

// number gives up on a statistic of the wrong type and on negative and
// non-finite values: the jsontext reader decides those at their position
// (valueOK).
func (s *scanner) number(string, []byte) (float64, numPos, bool, bool) {
	var v float64
	switch s.ws() {
	case '{', '[', 't', 'f':
		return 0, numPos{}, false, false
	case 'n':
		return 0, numPos{}, false, s.literal("null")
	case '"':
		raw, plain, ok := s.str()
		if !ok || !plain {
			return 0, numPos{}, false, false
		}
		if v, ok = parseFloatText(string(raw)); !ok {
			return 0, numPos{}, false, false
		}
	default:
		var ok bool
		if v, ok = s.float(); !ok {
			return 0, numPos{}, false, false
		}
	}
	if !(v >= 0 && v <= math.MaxFloat64) {
		return 0, numPos{}, false, false
	}
	return v, numPos{}, true, true
}

func (s *scanner) end() bool {
	s.ws()
	return s.pos == len(s.data)
}

// jsonTokens are perfTokens over the jsontext reader j: the first error
// is kept for failure.
type jsonTokens struct {
	j   *jreader
	err error
}

// errStopped is the failure of a read that stopped without an error of
// its own (a bug: every stop comes from a token method that keeps one).
var errStopped = errors.New("ingest: AIPerf read stopped without an error")

// keep records err and reports whether reading goes on.
func (t *jsonTokens) keep(err error) bool {
	if err != nil && t.err == nil {
		t.err = err
	}
	return err == nil
}

// failure returns the error that stopped the reading.
func (t *jsonTokens) failure() error {
	if t.err == nil {
		return errStopped
	}
	return t.err
}

func (t *jsonTokens) kind() byte { return byte(t.j.d.PeekKind()) }

func (t *jsonTokens) open(what string, c byte) bool {
	return t.keep(t.j.open(what, jsontext.Kind(c)))
}

func (t *jsonTokens) member(what string, n int) ([]byte, bool, bool) {
	name, more, err := t.j.member(what, n)
	return name, more, t.keep(err)
}

func (t *jsonTokens) element(int) (bool, bool) {
	more, err := t.j.element()
	return more, t.keep(err)
}

func (t *jsonTokens) skip() bool { return t.keep(t.j.d.SkipValue()) }

func (t *jsonTokens) text() (string, bool, bool) {
	v, set, err := t.j.text()
	return v, set, t.keep(err)
}

func (t *jsonTokens) textBytes() ([]byte, bool, bool) {
	v, set, err := t.j.text()
	return []byte(v), set, t.keep(err)
}

func (t *jsonTokens) number(tag string, name []byte) (float64, numPos, bool, bool) {
	what := tag
	if name != nil {
		what = tag + "." + string(name)
	}
	v, set, err := t.j.number(what)
	return v, t.j.src.num, set, t.keep(err)
}

func (t *jsonTokens) end() bool { return t.keep(t.j.expectEnd()) }

// object reads the object that follows through p.t, calling fn for each
// member name; fn must consume the member's value.
func (p *perfJSON) object(what string, fn func(name []byte) bool) bool {
	t := p.t
	if !t.open(what, '{') {
		return false
	}
	for n := 0; ; n++ {
		name, more, ok := t.member(what, n)
		if !ok || !more {
			return ok
		}
		if !fn(name) {
			return false
		}
	}
}

// array reads the array that follows through p.t, calling fn for each
// element; fn must consume it.
func (p *perfJSON) array(what string, fn func(i int) bool) bool {
	t := p.t
	if !t.open(what, '[') {
		return false
	}
	for i := 0; ; i++ {
		more, ok := t.element(i)
		if !ok || !more {
			return ok
		}
		if !fn(i) {
			return false
		}
	}
}
