package ingest

import (
	"bytes"
	"encoding/json"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// FormatParetoJSONL is what `pareto trials --format jsonl` writes: one
// trial.Trial JSON object per line. Its trials are read back as they were
// exported, IDs and sources included, so an export ingested again adds
// nothing new to a study that holds it.
const FormatParetoJSONL Format = "pareto-jsonl"

// isParetoJSONL reports whether a (trimmed) head starts like an encoded
// trial.Trial: its fields in declaration order, ID first.
func isParetoJSONL(head []byte) bool {
	return bytes.HasPrefix(head, []byte(`{"id":"`)) && bytes.Contains(head, []byte(`,"source":{"path":`)) &&
		bytes.Contains(head, []byte(`"measurements":`))
}

// ReadParetoJSONL reads a `pareto trials --format jsonl` export from r,
// within the default Limits; name is used in errors. Secrets in its
// parameters, labels and warnings are redacted (trial.Trial.Redact); IDs
// are kept as written. Non-finite measurement values and workload fields,
// written as strings, are read back (see trial.Measurement and
// trial.Workload).
func ReadParetoJSONL(r io.Reader, name string) ([]trial.Trial, error) {
	src := &source{path: name}
	if f, ok := r.(*os.File); ok { // errors re-read the file for their line
		if off, err := f.Seek(0, io.SeekCurrent); err == nil {
			src.file, src.base = f, off
		}
	}
	max := Limits{}.maxRecord()
	dec := jsontext.NewDecoder(&guardReader{r: r, g: &tokenGuard{max: int64(max), src: src, off: src.base}}, decOpts...)
	ts, err := readParetoJSONL(&jreader{d: dec, src: src, names: map[string]string{}, max: max})
	if err != nil {
		return ts, src.wrap(err, dec.InputOffset())
	}
	return ts, checkTrials(ts, name, nil, src.file)
}

// readParetoJSONL decodes one trial per top-level value.
func readParetoJSONL(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	for j.d.PeekKind() != 0 {
		v, err := j.d.ReadValue()
		if err != nil {
			return out, err
		}
		if j.max > 0 && len(v) > j.max {
			return out, j.src.errorAt(j.src.base+j.valueStart(v), ErrTooLarge, "trial %d: %s, over the record size limit of %s (max_record_size)",
				len(out)+1, textin.Size(int64(len(v))), textin.Size(int64(j.max)))
		}
		out = append(out, trial.Trial{})
		if err := json.Unmarshal(v, &out[len(out)-1]); err != nil {
			return out[:len(out)-1], j.src.errorAt(j.src.base+j.valueStart(v), nil, "trial %d: %v", len(out), err)
		}
		out[len(out)-1].Redact() // a hand-made or older export may hold secrets
	}
	return out, j.expectEnd()
}
