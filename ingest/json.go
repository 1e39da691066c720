package ingest

// JSON is decoded with github.com/go-json-experiment/json/jsontext (the
// encoding/json/v2 token layer) rather than encoding/json: it streams tokens
// without building maps, so a reader keeps only the numbers it needs; its
// SkipValue walks megabyte per-request arrays token by token without holding
// them in memory; concatenated objects (vLLM --append-result) and JSONL are
// just a stream of top-level values; and its SyntacticError carries the byte
// offset that SyntaxError turns into path:line:col. The semantic layer
// (Unmarshal) is not used at all.

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/trial"
)

var decOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(false)}

// jreader wraps a jsontext.Decoder with the few operations readers need.
type jreader struct {
	d     *jsontext.Decoder
	src   *source
	key   []byte                  // scratch for unescaped names
	names map[string]string       // interned names, shared across files of one reader
	max   int                     // the record size limit, for values read whole
	cols  int                     // the members of one object (Limits.MaxColumns; 0: DefaultMaxColumns)
	size  int64                   // the input's size in bytes, when known (0 otherwise)
	plans map[string]*servingPlan // member names of vLLM/SGLang records, per file
	first planNext                // the plans records began with last (planAfter)
	// rec is the reused state of the records of one file (JSONL and
	// appended results): see recordScratch.
	rec recordScratch
	// emit, when set, takes the records read so far, streamBatch at a
	// time (pass), so that a file of many records is never held whole;
	// emitted counts the trials it took.
	emit    func(ts []trial.Trial) error
	emitted int
	// skip is how many records of a vLLM or SGLang file the readers skip:
	// those the scanner read before it gave up (servingFast).
	skip int
	flat perfJSON // flattens parameters of vLLM and SGLang records
	bld  builder  // the builder of the record being read (builder)
}

// flattener returns the perfJSON that flattens the parameters of the
// file's vLLM and SGLang records read through t.
func (j *jreader) flattener(t perfTokens) *perfJSON {
	_, named := t.(*jsonTokens)
	j.flat = perfJSON{t: t, names: j.names, path: j.flat.path[:0], named: named}
	return &j.flat
}

// streamBatch is how many records of a streamed file are handed on at
// once (jreader.emit): about 1 MB of trials.
const streamBatch = 256

// recordScratch is what the records of one file reuse: the measurement
// buffer each record appends to (its trial gets one exact copy, sorted),
// and the sizes of the previous record's maps, to allocate the next ones
// at their size. Records of one file are alike, so nothing grows after
// the first.
type recordScratch struct {
	ms             []trial.Measurement
	refs           []measRef           // the record's measurements (builder.refs)
	tmpl           []trial.Measurement // the templates refs name: measurements but their value
	tmplOf         map[tmplKey]int32   // the templates of measurements not read through a plan
	longTmpl       bool                // a template may hold a name over its bound (builder.long)
	sort           sortCache
	params, labels int
	memo           paramMemo
	id             trial.IDTemplate // the IDs of the records' layout
	errorRate      errorRateTmpl    // the error rate finish adds to the records
	// spare, when set (LoadOptions.Transient, a streamed vLLM or SGLang
	// file), is where the records' measurement slices and parameter and
	// label maps come from, and the batch of trials handed on is filled
	// again (jreader.pass).
	spare *spares
}

// errorRateTmpl is the unit conversion and template (as addUnitsIn keeps
// it) of the error rate of a file's records.
type errorRateTmpl struct {
	u     unitConv
	tmpl  int32
	known bool // u is worked out
}

// grow makes room in out for the records the rest of the input holds at
// the size of those read so far (n of them), so that a file of many
// records does not copy its trials as the slice grows.
func (j *jreader) grow(out []trial.Trial, n int) []trial.Trial {
	if j.emit != nil {
		return slices.Grow(out, streamBatch-len(out))
	}
	read := j.d.InputOffset()
	if n != 1 || j.size <= read || read <= 0 {
		return out
	}
	return slices.Grow(out, int(min((j.size-read)/read+1, 1<<20)))
}

// pass hands the records out on to j.emit once there are streamBatch of
// them and one holds a measurement (a file of records without any is no
// result: Load says so of the whole file), and returns what remains to
// collect. Without emit it returns out.
func (j *jreader) pass(out []trial.Trial) ([]trial.Trial, error) {
	if j.emit == nil || len(out) < streamBatch {
		return out, nil
	}
	if j.emitted == 0 && (len(out)%streamBatch != 0 || !measured(out)) {
		return out, nil
	}
	err := j.emit(out)
	j.emitted += len(out)
	if j.rec.spare != nil { // Each keeps neither the batch nor its trials' memory (Transient)
		return out[:0], err
	}
	return nil, err
}

// topRecord reads record index of a file of top-level records (JSONL,
// appended results) with read, handing it on with those before (out,
// pass), or skips it when the scanner read it before (j.skip). The record
// gets the line of the byte after the one before; the first record of a
// vLLM file gets none, a record at the file's first byte line 1.
func (j *jreader) topRecord(out []trial.Trial, index int, t *jsonTokens, p *perfJSON,
	read func(j *jreader, t perfTokens, p *perfJSON, index int) (trial.Trial, bool)) ([]trial.Trial, error) {
	if index < j.skip {
		return out, j.d.SkipValue()
	}
	start := j.src.base + j.d.InputOffset()
	tr, ok := read(j, t, p, index)
	if !ok {
		return out, t.failure()
	}
	switch {
	case start == 0 && tr.Source.Format == string(FormatSGLang):
		tr.Source.Line = 1
	case index > 0 || j.src.base > 0 || tr.Source.Format == string(FormatSGLang):
		tr.Source.Line, _ = j.src.lineCol(start + 1)
	}
	return j.pass(append(j.grow(out, len(out)), tr))
}

// builder returns a builder for the next record of the file, with its
// measurements in the reused buffer and its maps sized as the previous
// record's.
func (j *jreader) builder(tool string, format Format) *builder {
	b := &j.bld                                                              // one per record at a time: finish hands the trial on by value
	*b = builder{tool: tool, scratch: &j.rec, memo: &j.rec.memo, src: j.src} // newBuilder, with the maps at their size
	b.t.Source = trial.Source{Path: j.src.path, Key: j.src.key, Format: string(format)}
	b.t.Failed = -1
	b.t.Labels = j.rec.spare.takeMap(max(8, j.rec.labels))
	b.setLabel(trial.LabelTool, tool)
	if b.refs = len(j.rec.tmpl) < maxTemplates; b.refs {
		j.rec.refs = j.rec.refs[:0]
	} else {
		b.t.Measurements = j.rec.ms[:0]
	}
	if j.d != nil {
		j.src.lits.drop(j.d.InputOffset())
	}
	if j.rec.params > 0 {
		b.t.Params = j.rec.spare.takeMap(j.rec.params)
	}
	return b
}

// internIn returns b as a string from names, adding it while names is
// small (nil names intern nothing).
func internIn(names map[string]string, b []byte) string {
	if s, ok := names[string(b)]; ok {
		return s
	}
	s := string(b)
	if names != nil && len(names) < 4096 {
		names[s] = s
	}
	return s
}

// valueStart returns the offset where the last read value v started.
func (j *jreader) valueStart(v []byte) int64 { return j.d.InputOffset() - int64(len(v)) }

// typeError reports a value of the wrong JSON type.
func (j *jreader) typeError(name string, v []byte, want string) error {
	return j.src.errorAt(j.src.base+j.valueStart(v), nil, "%s: want %s, got %s", name, want, j.kindOf(v))
}

// kindOf is kindName of the last read value v, naming a rewritten
// non-finite literal as the file writes it.
func (j *jreader) kindOf(v []byte) string {
	if len(v) >= 2 && v[0] == '"' {
		if lit, ok := j.literalAt(j.valueStart(v), v[1:len(v)-1]); ok {
			return lit
		}
	}
	return kindName(v)
}

// literalAt returns the non-finite literal (Infinity, -Infinity, NaN) the
// file holds where the string token with this body (between its quotes,
// as read) starts, at decoder offset off, when the tolerant pre-pass put
// that string there (a genuine string "N" stays a string).
func (j *jreader) literalAt(off int64, body []byte) (string, bool) {
	if !j.src.lits.any() {
		return "", false
	}
	return j.src.lits.literal(off, string(body))
}

func kindName(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch jsontext.Value(v).Kind() {
	case '"':
		return "string " + trial.Excerpt(string(v))
	case '0':
		return "number " + truncate(string(v), 40)
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	}
	return "invalid value"
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// object reads an object, calling fn for each member name. fn must consume
// the member's value (read or skip it). The name is only valid until the
// next decoder call.
func (j *jreader) object(what string, fn func(name []byte) error) error {
	if err := j.open(what, '{'); err != nil {
		return err
	}
	for n := 0; ; n++ {
		name, more, err := j.member(what, n)
		if err != nil || !more {
			return err
		}
		if err := fn(name); err != nil {
			return err
		}
	}
}

// open consumes the '{' or '[' (kind) that must come next; what names the
// value in the error when it is of another type.
func (j *jreader) open(what string, kind jsontext.Kind) error {
	if k := j.d.PeekKind(); k != kind {
		v, err := j.d.ReadValue()
		if err != nil {
			return err
		}
		want := "object"
		if kind == '[' {
			want = "array"
		}
		return j.typeError(what, v, want)
	}
	_, err := j.d.ReadToken()
	return err
}

// member reads the name of member n of the object opened by open, or
// consumes its closing '}' (more=false). The name is only valid until the
// next decoder call.
func (j *jreader) member(what string, n int) (name []byte, more bool, err error) {
	if j.d.PeekKind() == '}' {
		_, err := j.d.ReadToken()
		return nil, false, err
	}
	limit := j.cols
	if limit <= 0 {
		limit = DefaultMaxColumns
	}
	v, err := j.d.ReadValue()
	if err != nil {
		return nil, false, err
	}
	if n == limit {
		return nil, false, j.src.errorAt(j.src.base+j.valueStart(v), ErrTooLarge,
			"%s: more than %d members in one object, over the limit (max_columns)", what, limit)
	}
	name = v[1 : len(v)-1]
	if lit, ok := j.literalAt(j.valueStart(v), name); ok {
		return nil, false, j.src.errorAt(j.src.base+j.valueStart(v), nil, "%s: %s where a member name is expected", what, lit)
	}
	if bytes.IndexByte(name, '\\') >= 0 {
		j.key, err = jsontext.AppendUnquote(j.key[:0], v)
		if err != nil {
			return nil, false, err
		}
		name = j.key
	}
	return name, true, nil
}

// element reports whether another element of the array opened by open
// follows, or consumes its closing ']' (more=false).
func (j *jreader) element() (more bool, err error) {
	if j.d.PeekKind() != ']' {
		return true, nil
	}
	_, err = j.d.ReadToken()
	return false, err
}

// array reads an array, calling fn for each element; fn must consume it.
func (j *jreader) array(what string, fn func(i int) error) error {
	if err := j.open(what, '['); err != nil {
		return err
	}
	for i := 0; ; i++ {
		more, err := j.element()
		if err != nil || !more {
			return err
		}
		if err := fn(i); err != nil {
			return err
		}
	}
}

// number reads a number, accepting null (ok=false), the rewritten
// non-finite literals (literalAt) and numeric strings such as "inf" or
// "12.5".
func (j *jreader) number(name string) (v float64, ok bool, err error) {
	raw, err := j.d.ReadValue()
	if err != nil {
		return 0, false, err
	}
	j.src.num = numPos{off: j.src.base + j.valueStart(raw)}
	switch raw[0] {
	case 'n':
		return 0, false, nil
	case '"':
		body := raw[1 : len(raw)-1]
		if lit, ok := j.literalAt(j.valueStart(raw), body); ok {
			f, _ := parseFloatText(lit)
			return f, true, nil
		}
		f, ok := parseFloatText(string(body))
		if !ok {
			return 0, false, j.typeError(name, raw, "number")
		}
		return f, true, nil
	case '{', '[', 't', 'f':
		return 0, false, j.typeError(name, raw, "number")
	}
	f, ok := parseNumber(raw)
	if !ok {
		return 0, false, j.typeError(name, raw, "number")
	}
	return f, true, nil
}

// parseFloatText parses the string forms of numbers found in benchmark
// files: "inf", "Infinity", "nan" and plain numbers.
func parseFloatText(s string) (float64, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	case "nan":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil
}

// text reads a scalar and renders it as a string: strings unquoted, numbers,
// booleans and the rewritten non-finite literals (literalAt) as written,
// null as ok=false. Objects and arrays are skipped with ok=false.
func (j *jreader) text() (s string, ok bool, err error) {
	switch j.d.PeekKind() {
	case '{', '[':
		return "", false, j.d.SkipValue()
	case 'n':
		_, err := j.d.ReadValue()
		return "", false, err
	case '"':
		tok, err := j.d.ReadToken()
		if err != nil {
			return "", false, err
		}
		s := tok.String()
		// a rewritten literal has no escapes: it starts len(s)+2 bytes back
		if lit, ok := j.src.lits.literal(j.d.InputOffset()-int64(len(s))-2, s); ok {
			return lit, true, nil
		}
		return s, true, nil
	}
	raw, err := j.d.ReadValue()
	if err != nil {
		return "", false, err
	}
	return string(raw), true, nil
}

// flatten reads any value into dotted params: objects add ".key", arrays of
// scalars are joined with ",", arrays of objects add ".index". Empty strings
// and nulls are dropped (GenAI-Perf writes "" for None).
func (j *jreader) flatten(prefix string, set func(k, v string)) error {
	switch j.d.PeekKind() {
	case '{':
		return j.object(prefix, func(name []byte) error {
			return j.flatten(joinKey(prefix, string(name)), set)
		})
	case '[':
		var scalars []string
		err := j.array(prefix, func(i int) error {
			if k := j.d.PeekKind(); k == '{' || k == '[' {
				return j.flatten(joinKey(prefix, strconv.Itoa(i)), set)
			}
			s, ok, err := j.text()
			if ok {
				scalars = append(scalars, s)
			}
			return err
		})
		if len(scalars) > 0 {
			set(prefix, strings.Join(scalars, ","))
		}
		return err
	}
	s, ok, err := j.text()
	if ok && s != "" {
		set(prefix, s)
	}
	return err
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// expectEnd checks that nothing but whitespace follows the last value.
func (j *jreader) expectEnd() error {
	if k := j.d.PeekKind(); k != 0 {
		v, err := j.d.ReadValue()
		if err != nil {
			return err
		}
		return j.src.errorAt(j.src.base+j.valueStart(v), nil, "unexpected %s after the end of the document", j.kindOf(v))
	}
	_, err := j.d.ReadToken() // surfaces a pending syntax error, io.EOF otherwise
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
