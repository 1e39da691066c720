package ingest

import (
	"errors"

	"github.com/pareto-llm/pareto/trial"
)

// Files of many records (SGLang JSONL, vLLM --append-result) are handed on
// as they are read, a batch of streamBatch trials at a time, when Load has
// LoadOptions.Each and Batches: a file of 10⁵ records is then never held
// whole. The batches of a file before its first bad record are kept, and
// the file is listed as unreadable at that record, with its line and
// field.

// errLoadStopped ends the read of a file once LoadOptions.Each has failed: the
// file is then neither added nor skipped (Load returns Each's error).
var errLoadStopped = errors.New("ingest: loading stopped")

// passOn takes a batch of the trials of files[i] as they are read (next is
// the first file not yet added): it adds them when the files before it
// are done, and holds them in results[i] until then. passed[i] says some
// went on.
func (d *Dataset) passOn(files []string, i, next int, ts []trial.Trial, results [][]trial.Trial, passed []bool) error {
	if d.err != nil {
		return errLoadStopped
	}
	if i != next {
		results[i] = append(results[i], ts...)
		return nil
	}
	if !passed[i] {
		passed[i] = true
		d.flushTwins(files[i])
		if results[i] != nil {
			ts, results[i] = append(results[i], ts...), nil
		}
	}
	d.add(ts, nil)
	if d.err != nil {
		return errLoadStopped
	}
	return nil
}

// addRest adds the trials of file f read after its last batch went on
// (passOn), or its skip: its records before the error were added.
func (d *Dataset) addRest(f string, ts []trial.Trial, err error) {
	if err != nil {
		d.skip(d.place.base, Skip{Path: f, Code: SkipError, Reason: err.Error()})
		return
	}
	d.add(ts, nil)
}
