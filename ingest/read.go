package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// StreamThreshold is the file size above which ReadFile streams the file
// through the decoder instead of reading it into memory, so that vLLM files
// with megabytes of per-request arrays are never held in memory.
const StreamThreshold = 512 << 10

// ReadFile reads every trial of one benchmark file, detecting the format
// from its content, within the default Limits. On a problem it returns a
// *SyntaxError ("path:line:col: message"); for multi-record files (JSONL,
// appended objects) the trials read before the problem are returned with
// the error. Named pipes, devices and sockets are refused (ErrNotRegular),
// and a panic while reading becomes a *safe.InternalError.
func ReadFile(path string) ([]trial.Trial, error) { return readFileAt(path, "", Limits{}) }

// readFileAt is ReadFile within lim, with key as the trial.Source.Key of
// the trials.
func readFileAt(path, key string, lim Limits) ([]trial.Trial, error) {
	return withReader(lim, func(r *reader) ([]trial.Trial, error) {
		r.key = key
		return r.safeReadFile(path)
	})
}

// ReadBytes reads every trial from data. Bare Infinity/NaN literals in data
// are rewritten in place (see FORMATS.md §1), so data is modified.
func ReadBytes(data []byte, name string) ([]trial.Trial, error) {
	return readBytesLimited(data, name, Limits{})
}

func readBytesLimited(data []byte, name string, lim Limits) ([]trial.Trial, error) {
	return withReader(lim, func(r *reader) ([]trial.Trial, error) { return r.safeReadBytes(data, name) })
}

// withReader runs fn with a pooled reader set to lim. A reader that
// panicked is dropped rather than pooled: its scratch state may be
// inconsistent.
func withReader(lim Limits, fn func(r *reader) ([]trial.Trial, error)) ([]trial.Trial, error) {
	r := readers.Get().(*reader)
	r.lim, r.key = lim, ""
	ts, err := fn(r)
	if !isInternal(err) {
		readers.Put(r)
	}
	return ts, err
}

func isInternal(err error) bool {
	var ie *safe.InternalError
	return err != nil && errors.As(err, &ie)
}

// safeReadFile is readFile with a panic turned into an error for path.
func (r *reader) safeReadFile(path string) (ts []trial.Trial, err error) {
	defer safe.Recover(&err, "reading", path)
	return r.readFile(path)
}

// safeReadBytes is readBytes with a panic turned into an error for name.
func (r *reader) safeReadBytes(data []byte, name string) (ts []trial.Trial, err error) {
	defer safe.Recover(&err, "reading", name)
	return r.readBytes(data, name)
}

// panicHook, set by tests only, is called with the name of every input
// read in memory (readBytes, ReadTable), so that a test can make reading
// one of them panic.
var panicHook func(name string)

// reader holds per-goroutine scratch state reused across files.
type reader struct {
	key   string // trial.Source.Key of the next file's trials (see Load)
	buf   []byte
	dec   *jsontext.Decoder
	names map[string]string
	// scratch of the fast AIPerf reader
	scan    scanner
	recs    records
	stats   []statValue
	with    []statValue
	path    []byte
	dims    dimsCache
	blocks  map[blockKey]blockUnits
	nparams int         // params of the last file, to size the next map
	memo    paramMemo   // the fast AIPerf reader\'s parameters and labels, as in the files before
	seq     []string    // the names the fast AIPerf reader interned in the file before, in order (perfJSON.native)
	bseq    []blockMemo // the metric blocks of the file before, in order (perfJSON.metricUnits)
	guess   Format      // format of the last file read (readGuessed)
	slow    bool        // tests: always use the jsontext readers
	lim     Limits      // of the current read
	noIDs   bool        // the trials of benchmark result files get no ID (LoadOptions.NoIDs)
	deploy  *trial.GPUs // readSettings.deploy
	spare   *spares     // readSettings.spare
	// fastBounded says the fast AIPerf reader's last trial has every name
	// and value within its bound (records.long, builder.long); bounded
	// that the trials readData returns are such a trial (readGuessed), so
	// that readBytes does not look at them again (checkTrialsNUL).
	fastBounded, bounded bool
	// part, when set, takes the trials of a file of many records as they
	// are read, a batch at a time (jreader.emit): readFile then returns
	// only those read after the last batch.
	part func(ts []trial.Trial) error
}

var readers = sync.Pool{New: func() any { return newReader() }}

func newReader() *reader {
	return &reader{dec: jsontext.NewDecoder(emptyReader), names: map[string]string{}, blocks: map[blockKey]blockUnits{}}
}

func (r *reader) readFile(path string) ([]trial.Trial, error) {
	data, grown, ok := readSmall(path, r.buf, r.lim.maxInput())
	r.buf = grown[:0]
	if ok {
		return r.readBytes(data, path)
	}
	f, _, err := r.lim.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := r.lim.check(path, fi); err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	if fi.Size() > StreamThreshold {
		return r.readStream(f, path, fi.Size())
	}
	need := int(fi.Size()) + 1
	if cap(r.buf) < need {
		r.buf = make([]byte, 0, need+need/4)
	}
	buf := r.buf[:cap(r.buf)]
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n == len(buf) { // grew since Stat
		rest, err := r.lim.readAll(f, path, 0, false)
		if err != nil {
			return nil, err
		}
		buf = append(buf, rest...)
		n = len(buf)
		if err := r.lim.checkSize(path, int64(n)); err != nil {
			return nil, err
		}
	}
	r.buf = buf[:0]
	return r.readBytes(buf[:n], path)
}

func (r *reader) readBytes(data []byte, name string) ([]trial.Trial, error) {
	if panicHook != nil {
		panicHook(name)
	}
	if o, bom := textin.UTF16(data); o != textin.NotUTF16 {
		data = textin.Decode(data, o, bom)
	}
	data = bytes.TrimPrefix(data, utf8BOM) // as editors on Windows write it; positions count after it
	r.bounded = false
	ts, err := r.readData(data, name)
	if err == nil {
		err = checkTrialsNUL(ts, 0, name, data, nil, mayHoldNUL(data), r.bounded)
	}
	r.bounded = false
	return ts, err
}

// utf8BOM is the byte order mark some editors write at the start of UTF-8
// text.
var utf8BOM = []byte("\xef\xbb\xbf")

// readData is readBytes for UTF-8 data, without the checks of names.
func (r *reader) readData(data []byte, name string) ([]trial.Trial, error) {
	src := &source{path: name, key: r.key, data: data, noIDs: r.noIDs, deploy: r.deploy}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &SyntaxError{File: name, Line: 1, Col: 1, Msg: "empty file", Err: ErrEmpty}
	}
	if r.guess == FormatAIPerfJSON && !r.slow {
		if ts, ok := r.readGuessed(data, src); ok {
			if err := checkUTF8(data, src); err != nil {
				return nil, err
			}
			return src.result(ts, nil)
		}
	}
	format := Detect(data[:min(len(data), HeadSize)], name)
	r.guess = format
	if isJSON(format) && needsRewrite(data) {
		rw := new(nanRewriter)
		rw.rewrite(data, true)
		if len(rw.lits.at) > 0 {
			src.lits = &rw.lits
		}
	}
	e := entry(format)
	switch {
	case e == nil:
		return nil, unknownFormat(src, data)
	case e.silent:
		return nil, nil
	case e.notResult != "":
		return nil, &NotResultError{Path: src.path, What: e.notResult}
	}
	if err := checkUTF8(data, src); err != nil {
		return nil, err
	}
	if e.readMem != nil {
		return src.result(e.readMem(data, src, format, r.lim.maxRecord()))
	}
	if max := r.lim.maxRecord(); len(data) > max {
		g := tokenGuard{max: int64(max), src: src}
		if err := g.scan(data); err != nil {
			return nil, err
		}
	}
	if e.readFast != nil && !r.slow && src.lits == nil { // the scanner tells no literal from a string
		if ts, ok := e.readFast(data, src, format, r); ok {
			return src.result(ts, nil)
		}
	}
	r.dec.Reset(bytes.NewBuffer(data), decOpts...)
	ts, err := readJSON(&jreader{d: r.dec, src: src, names: r.names, max: r.lim.maxRecord(), cols: r.lim.maxColumns(), size: int64(len(data))}, format)
	r.dec.Reset(emptyReader)
	return src.result(ts, src.wrap(err, int64(len(data))))
}

// readGuessed reads data as an AIPerf JSON file, as the previous file
// was, detecting the format from the marks of the strings the fast reader
// scans (detectFromMarks) instead of in a pass of its own. ok is false, and
// readBytes goes on as usual, unless the fast reader read the whole
// document and Detect would have said AIPerf JSON.
func (r *reader) readGuessed(data []byte, src *source) ([]trial.Trial, bool) {
	base := strings.ToLower(filepath.Base(src.path))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(data) > HeadSize || strings.HasSuffix(base, ".pytorch.json") || len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	marks := headMarks{h: trimmed}
	ts, ok := readPerfFastMarks(data, src, FormatAIPerfJSON, r, &marks)
	bounded := r.fastBounded
	r.fastBounded = false
	if !ok || detectFromMarks(&marks, base) != FormatAIPerfJSON {
		return nil, false
	}
	r.bounded = bounded
	return ts, true
}

// readStream reads the file f of size bytes: JSON through the decoder, as
// it streams; anything else in memory, once its head says it is worth it.
func (r *reader) readStream(f *os.File, path string, size int64) ([]trial.Trial, error) {
	head := make([]byte, HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = head[:n]
	src := &source{path: path, key: r.key, file: f, noIDs: r.noIDs, deploy: r.deploy}
	format := Detect(head[:min(n, 4<<10)], path)
	if format == FormatUnknown { // as readBytes would see it
		format = Detect(head, path)
	}
	if o, _ := textin.UTF16(head); o != textin.NotUTF16 || bytes.HasPrefix(head, utf8BOM) {
		format = FormatUnknown // transcoded, or its mark dropped, by readBytes
	} else if format == FormatUnknown {
		return nil, unknownFormat(src, head)
	}
	if e := entry(format); e != nil && e.silent {
		return nil, nil
	}
	if what := notResult(format); what != "" {
		return nil, &NotResultError{Path: path, What: what}
	}
	if !isJSON(format) || format == FormatUnknown {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		data, err := r.lim.readAll(f, path, size, false)
		if err != nil {
			return nil, err
		}
		return r.readBytes(data, path)
	}
	rest := io.MultiReader(bytes.NewReader(head), f)
	skip := 0
	if servingFormat(format) && !r.slow && r.lim.maxRecord() >= fastMax {
		ts, read, err := r.readServingStream(rest, src, format, f)
		if read >= 0 {
			return ts, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rest, skip = f, -read-1
	}
	g := &tokenGuard{max: int64(r.lim.maxRecord()), src: src}
	in := newTolerantReader(&guardReader{r: rest, g: g})
	src.lines = &lineIndex{}
	in.lines = src.lines
	in.rw.lits.forward = true
	src.lits = &in.rw.lits
	dec := jsontext.NewDecoder(in, decOpts...)
	j := &jreader{d: dec, src: src, names: r.names, max: r.lim.maxRecord(), cols: r.lim.maxColumns(), size: size, skip: skip, emitted: skip}
	if r.part != nil {
		// Records are checked and handed on a batch at a time, as the
		// whole file is below.
		j.emit = func(ts []trial.Trial) error {
			if src.bad != nil {
				return src.bad
			}
			if err := checkTrialsNUL(ts, j.emitted, path, nil, f, in.mayNUL, false); err != nil {
				return err
			}
			return r.part(ts)
		}
	}
	ts, err := readJSON(j, format)
	if err != nil {
		return ts, src.wrap(err, dec.InputOffset())
	}
	if ts, err = src.result(ts, nil); err != nil {
		return nil, err
	}
	return ts, checkTrialsNUL(ts, j.emitted, path, nil, f, in.mayNUL, false)
}

// readServingStream reads the vLLM or SGLang records of the streamed file
// f (the bytes of in) with the scanner (servingFast). read is how many
// trials it read, with ts and err the result of the file; or, when the
// scanner gave up, -1 less the number of trials already handed on to
// r.part, which the jsontext reader is to skip.
func (r *reader) readServingStream(in io.Reader, src *source, format Format, f *os.File) (ts []trial.Trial, read int, err error) {
	j := &jreader{src: src, names: r.names, max: r.lim.maxRecord(), cols: r.lim.maxColumns()}
	j.rec.spare = r.spare
	fs := &servingFast{j: j, s: &r.scan, format: format, in: in, buf: make([]byte, fastBuf)}
	defer func() { r.scan = scanner{} }()
	if r.part != nil {
		j.emit = func(ts []trial.Trial) error {
			if err := checkTrialsNUL(ts, j.emitted, src.path, nil, f, fs.nul, !fs.long); err != nil {
				return err
			}
			return r.part(ts)
		}
	}
	ts, ok, err := fs.read()
	if err != nil {
		return nil, 0, src.wrap(err, fs.off)
	}
	if !ok {
		return nil, -1 - j.emitted, nil
	}
	if ts, err = src.result(ts, nil); err != nil {
		return nil, 0, err
	}
	return ts, j.emitted + len(ts), checkTrialsNUL(ts, j.emitted, src.path, nil, f, fs.nul, !fs.long)
}

// unknownFormat is the error for data no reader claims, and the one rule
// of what such a file is (docs/FORMATS.md, "Files no reader claims"):
//   - binary data (a NUL byte near its start) or text that is not UTF-8:
//     what it is cannot be told (ErrBinary, or errNotText; both wrap
//     ErrUnknownFormat): found in a directory it is unknown_format; named,
//     binary data is an error, and other text is read as below;
//   - a whole, valid JSON array or pretty-printed JSON document
//     (notTable): no generic table and no result, a *NotResultError saying so, the same
//     named on its own or found in a directory;
//   - anything else (a CSV, JSONL, a README, a log): ErrUnknownFormat;
//     named on its own it is read as a generic table, found in a
//     directory it is not_a_result (Dataset.unclaimedInDir).
func unknownFormat(src *source, data []byte) error {
	if i, ok := textin.Binary(data[:min(len(data), 512)]); ok {
		return binaryError(src, i)
	}
	if what := notTable(data); what != "" && jsontext.Value(bytes.TrimSpace(data)).IsValid() {
		return &NotResultError{Path: src.path, What: what} // whole: a cut file stays positioned
	}
	if i := invalidUTF8(data); i >= 0 {
		return src.errorAt(int64(i), errors.Join(errNotText, ErrUnknownFormat),
			"not UTF-8 text (byte 0x%02x): not a benchmark result or a CSV/JSONL table pareto reads", data[i])
	}
	msg := "not a recognised benchmark result (" + readerNames() + ")"
	return &SyntaxError{File: src.path, Line: 1, Col: 1, Msg: msg, Err: ErrUnknownFormat}
}

// ErrBinary is returned (wrapped, with ErrUnknownFormat) for input that
// holds NUL bytes near its start: binary data, read neither as a result
// nor as a table.
var ErrBinary = errors.New("binary data")

// errNotText is returned (wrapped, with ErrUnknownFormat) for input of
// no known format that is not UTF-8 text: its encoding is not one pareto
// reads, so what it is cannot be told.
var errNotText = errors.New("not UTF-8 text")

// binaryError reports binary data with its first NUL at offset off.
func binaryError(src *source, off int) error {
	return src.errorAt(int64(off), errors.Join(ErrBinary, ErrUnknownFormat),
		"binary data (a NUL byte), not a benchmark result or a CSV/JSONL table")
}

// invalidUTF8 returns the offset of the first byte of data that is not
// UTF-8, or -1; a character cut at the end of data (a file's head) is
// not counted.
func invalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRune(data[i:]) {
				return -1
			}
			return i
		}
		i += n
	}
	return -1
}

// emptyReader parks pooled decoders so they do not pin the last input.
var emptyReader = bytes.NewReader(nil)
