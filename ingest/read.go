package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/pareto-llm/pareto/trial"
)

// StreamThreshold is the file size above which ReadFile streams the file
// through the decoder instead of reading it into memory, so that vLLM files
// with megabytes of per-request arrays are never held in memory.
const StreamThreshold = 512 << 10

// ReadFile reads every trial of one benchmark file, detecting the format
// from its content. On a problem it returns a *SyntaxError
// ("path:line:col: message"); for multi-record files (JSONL, appended
// objects) the trials read before the problem are returned with the error.
func ReadFile(path string) ([]trial.Trial, error) { return readFileAt(path, "") }

// readFileAt is ReadFile with key as the trial.Source.Key of the trials.
func readFileAt(path, key string) ([]trial.Trial, error) {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	r.key = key
	return r.readFile(path)
}

// Read reads every trial from r; name is used for error messages, in
// trial.Source.Path and as a format hint. The input is read into memory.
func Read(r io.Reader, name string) ([]trial.Trial, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ReadBytes(data, name)
}

// ReadBytes reads every trial from data. Bare Infinity/NaN literals in data
// are rewritten in place (see FORMATS.md §1), so data is modified.
func ReadBytes(data []byte, name string) ([]trial.Trial, error) {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	r.key = ""
	return r.readBytes(data, name)
}

// reader holds per-goroutine scratch state reused across files.
type reader struct {
	key   string // trial.Source.Key of the next file's trials (see Load)
	buf   []byte
	dec   *jsontext.Decoder
	names map[string]string
	// scratch of the fast AIPerf reader
	recs    records
	stats   []statValue
	with    []statValue
	path    []byte
	dims    dimsCache
	blocks  map[blockKey]blockUnits
	nparams int    // params of the last file, to size the next map
	guess   Format // format of the last file read (readGuessed)
	slow    bool   // tests: always use the jsontext readers
}

var readers = sync.Pool{New: func() any {
	return &reader{dec: jsontext.NewDecoder(emptyReader), names: map[string]string{}, blocks: map[blockKey]blockUnits{}}
}}

func (r *reader) readFile(path string) ([]trial.Trial, error) {
	data, grown, ok := readSmall(path, r.buf)
	r.buf = grown[:0]
	if ok {
		return r.readBytes(data, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	if fi.Size() > StreamThreshold {
		return r.readStream(f, path)
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
		rest, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		buf = append(buf, rest...)
		n = len(buf)
	}
	r.buf = buf[:0]
	return r.readBytes(buf[:n], path)
}

func (r *reader) readBytes(data []byte, name string) ([]trial.Trial, error) {
	src := &source{path: name, key: r.key, data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &SyntaxError{Path: name, Line: 1, Col: 1, Msg: "empty file", Err: ErrEmpty}
	}
	if r.guess == FormatAIPerfJSON && !r.slow {
		if ts, ok := r.readGuessed(data, src); ok {
			return ts, nil
		}
	}
	format := Detect(data[:min(len(data), HeadSize)], name)
	r.guess = format
	if isJSON(format) && needsRewrite(data) {
		var rw nanRewriter
		rw.rewrite(data, true)
	}
	switch format {
	case FormatAIPerfCSV, FormatGenAIPerfCSV:
		return readPerfCSV(data, src, format)
	case FormatUnknown:
		return nil, unknownFormat(src, data)
	case FormatPyTorchSidecar:
		return nil, nil
	}
	if (format == FormatAIPerfJSON || format == FormatGenAIPerfJSON) && !r.slow {
		if ts, ok := readPerfFast(data, src, format, r, nil); ok {
			return ts, nil
		}
	}
	r.dec.Reset(bytes.NewBuffer(data), decOpts...)
	ts, err := readJSON(&jreader{d: r.dec, src: src, names: r.names}, format)
	r.dec.Reset(emptyReader)
	return ts, src.wrap(err, int64(len(data)))
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
	ts, ok := readPerfFast(data, src, FormatAIPerfJSON, r, &marks)
	if !ok || detectFromMarks(&marks, base) != FormatAIPerfJSON {
		return nil, false
	}
	return ts, true
}

func (r *reader) readStream(f *os.File, path string) ([]trial.Trial, error) {
	head := make([]byte, 4<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = head[:n]
	src := &source{path: path, key: r.key, file: f}
	format := Detect(head, path)
	if !isJSON(format) || format == FormatUnknown || format == FormatPyTorchSidecar {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return r.readBytes(data, path)
	}
	in := newTolerantReader(io.MultiReader(bytes.NewReader(head), f))
	dec := jsontext.NewDecoder(in, decOpts...)
	ts, err := readJSON(&jreader{d: dec, src: src, names: r.names}, format)
	return ts, src.wrap(err, dec.InputOffset())
}

func isJSON(f Format) bool { return f != FormatAIPerfCSV && f != FormatGenAIPerfCSV }

func unknownFormat(src *source, data []byte) error {
	msg := "not a recognised benchmark result (vLLM, SGLang, AIPerf, GenAI-Perf, inference-perf, guidellm)"
	if bytes.IndexByte(data[:min(len(data), 512)], 0) >= 0 {
		msg = "binary data, not a benchmark result"
	}
	return &SyntaxError{Path: src.path, Line: 1, Col: 1, Msg: msg, Err: ErrUnknownFormat}
}

// readJSON dispatches a JSON format to its reader.
func readJSON(j *jreader, f Format) ([]trial.Trial, error) {
	switch f {
	case FormatVLLM:
		return readVLLM(j)
	case FormatSGLang:
		return readSGLang(j)
	case FormatAIPerfJSON, FormatGenAIPerfJSON:
		return readPerfJSON(j, f)
	case FormatInferencePerf:
		return readInferencePerf(j)
	case FormatGuideLLM:
		return readGuideLLM(j)
	case FormatVLLMNightly:
		return readVLLMNightly(j)
	case FormatParetoJSONL:
		return readParetoJSONL(j)
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownFormat, f)
}

// emptyReader parks pooled decoders so they do not pin the last input.
var emptyReader = bytes.NewReader(nil)
