package ingest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// Limits bound what reading one input may hold in memory, so that a huge,
// endless or hostile input is an error naming it rather than a process
// that grows without end. A zero field means its default. An error over
// a limit names it as a field in lower snake case, in parentheses
// ("(max_record_size)"), for a caller to say how it raises it (the
// command line: --max-record-size).
type Limits struct {
	// MaxInputSize is the largest input read, in bytes: a larger file is
	// refused before it is read, and standard input is read up to it
	// (0: DefaultMaxInputSize; negative: no limit).
	MaxInputSize int64
	// MaxRecordSize is the largest record held in memory while reading, in
	// bytes: a line of a CSV or JSONL file (tables, AIPerf CSV), one JSON
	// string or number, or one JSON value read whole (a trial of a pareto
	// JSONL export, an element of a table's JSON array). Values skipped
	// while streaming (per-request arrays) are not held and not bounded
	// (0: DefaultMaxRecordSize).
	MaxRecordSize int
	// MaxColumns is the most columns of one table row (a CSV header, a
	// JSONL object) and members of one JSON object a reader walks (0:
	// DefaultMaxColumns): a wider one is an error at the first column or
	// member over it, before it is held, so that what a row costs stays
	// bounded by its size.
	MaxColumns int
}

// Default limits.
const (
	DefaultMaxInputSize  = 1 << 30
	DefaultMaxRecordSize = table.DefaultMaxRecordSize
	DefaultMaxColumns    = table.DefaultMaxColumns
)

// maxColumns returns the column and member limit.
func (l Limits) maxColumns() int {
	if l.MaxColumns <= 0 {
		return DefaultMaxColumns
	}
	return l.MaxColumns
}

// ColumnLimit returns the column and member limit in effect.
func (l Limits) ColumnLimit() int { return l.maxColumns() }

// Bounds on the names and values a trial may hold (a longer one is an
// error for its file, naming it): the store and every output handle them
// as small strings.
const (
	// MaxNameLen bounds metric names, units, native names, dims keys,
	// label keys and parameter keys.
	MaxNameLen = 1 << 10
	// MaxLabelLen bounds label and dims values.
	MaxLabelLen = 64 << 10
	// MaxParamLen bounds parameter values.
	MaxParamLen = 1 << 20
	// MaxTrialText bounds the total of a trial's parameter and label
	// names and values (the store holds them in one row).
	MaxTrialText = 16 << 20
)

// maxInput returns the input size limit (-1: none).
func (l Limits) maxInput() int64 {
	switch {
	case l.MaxInputSize == 0:
		return DefaultMaxInputSize
	case l.MaxInputSize < 0:
		return -1
	}
	return l.MaxInputSize
}

// RecordLimit returns the record size limit in effect.
func (l Limits) RecordLimit() int { return l.maxRecord() }

// maxRecord returns the record size limit.
func (l Limits) maxRecord() int {
	if l.MaxRecordSize <= 0 {
		return DefaultMaxRecordSize
	}
	return l.MaxRecordSize
}

// ErrTooLarge is returned (wrapped) for an input or a record over its
// limit.
var ErrTooLarge = errors.New("over the size limit")

// ErrNotRegular is returned (wrapped) for a path that is a named pipe, a
// device or a socket: such a file may never end (a FIFO, /dev/zero), so it
// is not read.
var ErrNotRegular = errors.New("not a regular file")

// Stat returns the file information of path, or an error when path cannot
// be read as an input: it does not exist, it is not a regular file (nor a
// directory), or it is larger than the input size limit.
func (l Limits) Stat(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return st, l.check(path, st)
}

// check is Stat for file information already at hand.
func (l Limits) check(path string, st fs.FileInfo) error {
	switch {
	case st.IsDir():
		return nil
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, fileKind(st.Mode()))
	}
	return l.checkSize(path, st.Size())
}

// checkSize reports an input of size bytes over the input size limit.
func (l Limits) checkSize(path string, size int64) error {
	if max := l.maxInput(); max >= 0 && size > max {
		return fmt.Errorf("%s: %s, %w of %s (max_input_size)",
			path, textin.Size(size), ErrTooLarge, textin.Size(max))
	}
	return nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// ReadFile reads a regular file whole, after checking it as Stat does.
func (l Limits) ReadFile(path string) ([]byte, error) {
	f, st, err := l.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return l.readAll(f, path, st.Size(), false)
}

// open opens a regular file after checking it as Stat does, before
// opening: opening a named pipe waits for a writer.
func (l Limits) open(path string) (*os.File, os.FileInfo, error) {
	st, err := l.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		return nil, nil, fmt.Errorf("%s: is a directory", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, st, nil
}

// ReadAll reads r (standard input, a pipe) up to the input size limit;
// name is used in errors. Binary data (CheckHead) is an error as soon as
// the first bytes are read, so that an endless stream of zeros is not
// read up to the limit.
func (l Limits) ReadAll(r io.Reader, name string) ([]byte, error) {
	return l.readAll(r, name, 0, true)
}

// readAll reads r whole, with room for size bytes first; head says r
// starts at the start of the input, to be checked with CheckHead.
func (l Limits) readAll(r io.Reader, name string, size int64, head bool) ([]byte, error) {
	limit := l.maxInput()
	if limit >= 0 {
		r = io.LimitReader(r, limit+1)
	}
	buf := make([]byte, 0, max(min(size+1, 1<<30), 1024))
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if head && (len(buf) >= 512 || err != nil) {
			head = false
			if err := CheckHead(buf, name); err != nil {
				return nil, err
			}
		}
		if limit >= 0 && int64(len(buf)) > limit {
			return nil, fmt.Errorf("%s: more than %s, %w (max_input_size)",
				name, textin.Size(limit), ErrTooLarge)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// CheckHead returns an error for an input whose first bytes no reader
// reads: binary data (ErrBinary), positioned at its first NUL byte.
func CheckHead(head []byte, name string) error {
	if i, ok := textin.Binary(head[:min(len(head), 512)]); ok {
		return binaryError(&source{path: name, data: head}, i)
	}
	return nil
}

// checkTrials reports the first name or value of ts that holds a NUL byte
// (checkNUL) or is longer than its bound (MaxNameLen, MaxLabelLen,
// MaxParamLen), positioned where the input (data in memory, or file) holds
// it when it can be found.
func checkTrials(ts []trial.Trial, path string, data []byte, file *os.File) error {
	return checkTrialsNUL(ts, 0, path, data, file, data == nil || mayHoldNUL(data), false)
}

// checkTrialsNUL is checkTrials for input that may (nul) or cannot hold a
// NUL in its texts: a stream says so from the bytes it passed on. first
// is how many trials of the input came before ts (a stream checks its
// trials batch by batch), for the "trial N" of a message. bounded says
// the builders of ts found every name and value within its bound
// (builder.long): they are not looked at again.
func checkTrialsNUL(ts []trial.Trial, first int, path string, data []byte, file *os.File, nul, bounded bool) error {
	if nul {
		if err := checkNUL(ts, first, &source{path: path, data: data, file: file}); err != nil {
			return err
		}
	}
	if bounded {
		return nil
	}
	for i := range ts {
		what, v, max := overLong(&ts[i])
		switch {
		case what == "":
		case v == "":
			return fmt.Errorf("%s: trial %d: %s: %w", path, first+i+1, what, ErrTooLarge)
		default:
			src := &source{path: path, data: data, file: file}
			return src.tooLong(what, v, max)
		}
	}
	return nil
}

// overLong returns the first name or value of t longer than its bound:
// what it is, the text and the bound ("" when there is none; only what
// when the parameters and labels are too long together).
func overLong(t *trial.Trial) (what, v string, max int) {
	var lastDims trial.Dims
	for i := range t.Measurements {
		m := &t.Measurements[i]
		// The OR of the lengths is at least each of them (and, MaxNameLen
		// being a power of two, below it when all are): one test.
		if len(m.Metric)|len(m.Unit)|len(m.SourceUnit)|len(m.Native) >= MaxNameLen {
			switch {
			case len(m.Native) > MaxNameLen:
				return "metric name", m.Native, MaxNameLen
			case len(m.Metric) > MaxNameLen:
				return "metric name", m.Metric, MaxNameLen
			case len(m.SourceUnit) > MaxNameLen:
				return "unit", m.SourceUnit, MaxNameLen
			case len(m.Unit) > MaxNameLen:
				return "unit", m.Unit, MaxNameLen
			}
		}
		if len(m.Dims) > 0 && !sameDims(m.Dims, lastDims) {
			lastDims = m.Dims
			for _, d := range m.Dims {
				if len(d.Key) > MaxNameLen {
					return "dimension name", d.Key, MaxNameLen
				}
				if len(d.Value) > MaxLabelLen {
					return "dimension value", d.Value, MaxLabelLen
				}
			}
		}
	}
	total := 0
	if what, v, max = overLongIn(t.Labels, "label", MaxLabelLen, &total); what != "" {
		return what, v, max
	}
	if what, v, max = overLongIn(t.Params, "parameter", MaxParamLen, &total); what != "" {
		return what, v, max
	}
	if total > MaxTrialText {
		return fmt.Sprintf("its parameters and labels hold %s, more than %s", textin.Size(int64(total)), textin.Size(MaxTrialText)), "", 0
	}
	return "", "", 0
}

// measurementLong reports whether a name or dims value of m may be over
// its bound (overLong).
func measurementLong(m *trial.Measurement) bool {
	if len(m.Metric)|len(m.Unit)|len(m.SourceUnit)|len(m.Native) >= MaxNameLen {
		return true
	}
	for _, d := range m.Dims {
		if len(d.Key) > MaxNameLen || len(d.Value) > MaxLabelLen {
			return true
		}
	}
	return false
}

// overLongIn is overLong for t's labels or parameters m (kind "label" or
// "parameter"): the first name longer than MaxNameLen or value longer than
// maxValue. It adds the length of every name and value it passes to total.
func overLongIn(m map[string]string, kind string, maxValue int, total *int) (what, v string, max int) {
	for k, val := range m {
		*total += len(k) + len(val)
		if len(k) > MaxNameLen {
			return kind + " name", k, MaxNameLen
		}
		if len(val) > maxValue {
			return kind + " " + textin.Excerpt(k) + " value", val, maxValue
		}
	}
	return "", "", 0
}
