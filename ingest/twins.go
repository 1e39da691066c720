package ingest

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// SkipDuplicate is a file holding the same run as another file read: the
// CSV export AIPerf and GenAI-Perf write beside their JSON export, a
// CloudAI aiperf_report.csv copy (the JSON, the exact values, is kept), or
// the summary.json vLLM bench sweep writes beside the run=N.json files it
// lists (the run files are kept).
const SkipDuplicate = "duplicate_of"

// twins holds, per directory, the AIPerf/GenAI-Perf files read so far, so
// that a CSV export and the JSON export of the same run in one directory
// give one trial: the CSV is held back until its directory is done, then
// added unless a JSON export of the same run was found there.
//
// A JSON export is kept only while a CSV export of its directory is
// pending or may still come (a file there not yet added whose name does
// not end in .json or .jsonl): a directory of thousands of JSON exports
// holds none of them.
//
// vLLM bench sweep's summary.json (a JSON array of the records of the
// run=N.json files beside it) is held back the same way until its
// directory is done, and skipped when every record of it is one of a
// bench-sweep run file read there: otherwise each run would count twice
// as a repeat.
type twins struct {
	json    map[string][]twinFile // directory -> JSON exports added
	pending []twinFile            // CSV exports not yet added, in input order
	others  map[string]int        // directory -> files to come that may be CSV exports
	runs    map[string][]twinFile // directory -> vLLM bench-sweep run files added
	sums    []twinFile            // vLLM bench-sweep summaries not yet added, in input order
}

// expect counts files, in the order they will be added, for mayCome.
func (w *twins) expect(files []string) {
	for _, f := range files {
		if maybeCSV(f) {
			if w.others == nil {
				w.others = map[string]int{}
			}
			w.others[filepath.Dir(f)]++
		}
	}
}

// maybeCSV reports whether the file f may be a CSV export (by its name:
// formats are sniffed, but no tool names a CSV export .json).
func maybeCSV(f string) bool {
	ext := strings.ToLower(filepath.Ext(f))
	return ext != ".json" && ext != ".jsonl"
}

// keep reports whether a JSON export of directory dir is kept for the
// CSV exports there: one is pending or may come.
func (w *twins) keep(dir string) bool {
	if w.others[dir] > 0 {
		return true
	}
	for _, c := range w.pending {
		if filepath.Dir(c.path) == dir {
			return true
		}
	}
	return false
}

type twinFile struct {
	path string
	ts   []trial.Trial
}

// isTwinCSV reports whether ts is the trial of an AIPerf/GenAI-Perf CSV
// summary export; isTwinJSON the same for a JSON summary export.
func isTwinCSV(ts []trial.Trial) bool {
	return len(ts) == 1 && (ts[0].Source.Format == string(FormatAIPerfCSV) ||
		ts[0].Source.Format == string(FormatGenAIPerfCSV))
}

func isTwinJSON(ts []trial.Trial) bool {
	return len(ts) == 1 && (ts[0].Source.Format == string(FormatAIPerfJSON) ||
		ts[0].Source.Format == string(FormatGenAIPerfJSON))
}

// servingRecords reports whether ts are vLLM or SGLang records (of one
// file) that no twin rule keeps: a sweep's run and summary are compared
// after they are added.
func servingRecords(ts []trial.Trial) bool {
	for i := range ts {
		if !servingFormat(Format(ts[i].Source.Format)) || isSweepRecord(&ts[i]) {
			return false
		}
	}
	return len(ts) > 0
}

// isSweepRun reports whether ts is the one record of a vLLM bench sweep
// run file; isSweepSummary whether ts are the records of a summary.
func isSweepRun(ts []trial.Trial) bool {
	return len(ts) == 1 && isSweepRecord(&ts[0])
}

func isSweepSummary(ts []trial.Trial) bool {
	if len(ts) < 2 {
		return false
	}
	for i := range ts {
		if !isSweepRecord(&ts[i]) {
			return false
		}
	}
	return true
}

func isSweepRecord(t *trial.Trial) bool {
	return t.Source.Format == string(FormatVLLM) && t.Source.FormatVersion == "bench-sweep"
}

// sameRecord reports whether a and b are the same record read from two
// files: the same labels, parameters, workload, counts and measurements.
func sameRecord(a, b *trial.Trial) bool {
	return maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Params, b.Params) && a.Workload == b.Workload &&
		a.Succeeded == b.Succeeded && a.Failed == b.Failed &&
		slices.EqualFunc(a.Measurements, b.Measurements, func(x, y trial.Measurement) bool {
			return x.Metric == y.Metric && x.Value == y.Value && x.Unit == y.Unit && x.Dims.String() == y.Dims.String()
		})
}

// sameRun reports whether the CSV trial c and the JSON trial j measure the
// same run: every measurement they share (at least three) agrees to the
// CSV's two decimals in the CSV's unit, or to 0.05 % for large values.
func sameRun(c, j *trial.Trial) bool {
	type key struct{ metric, dims string }
	jv := make(map[key]float64, len(j.Measurements))
	for _, m := range j.Measurements {
		jv[key{m.Metric, m.Dims.String()}] = m.Value
	}
	shared := 0
	for _, m := range c.Measurements {
		v, ok := jv[key{m.Metric, m.Dims.String()}]
		if !ok {
			continue
		}
		scale := 1.0 // the CSV rounds in its own unit: 0.005 s is 5 ms
		if m.SourceUnit != "" {
			scale, _ = trial.NormalizeUnit(1, m.SourceUnit)
		}
		tol := math.Max(0.00501*math.Abs(scale), 5e-4*math.Max(math.Abs(v), math.Abs(m.Value)))
		if math.Abs(v-m.Value) > tol {
			return false
		}
		shared++
	}
	return shared >= 3
}

// under reports whether path is in directory dir or below it.
func under(path, dir string) bool {
	d := filepath.Dir(path)
	return d == dir || strings.HasPrefix(d, dir+string(filepath.Separator))
}

// addFileTwins is addFile with the twin rule: it holds CSV exports back
// until the walk has left their directory and skips those whose run a
// JSON export in the same directory holds.
func (d *Dataset) addFileTwins(f string, ts []trial.Trial, err error, strict bool) {
	d.flushTwins(f)
	if maybeCSV(f) && d.twins.others[filepath.Dir(f)] > 0 {
		d.twins.others[filepath.Dir(f)]--
	}
	switch {
	case err == nil && isSweepSummary(ts):
		d.twins.sums = append(d.twins.sums, twinFile{f, ts})
		return
	case err == nil && isSweepRun(ts):
		if d.twins.runs == nil {
			d.twins.runs = map[string][]twinFile{}
		}
		dir := filepath.Dir(f)
		d.twins.runs[dir] = append(d.twins.runs[dir], twinFile{f, ts})
		d.holding = true
	case err == nil && isTwinCSV(ts):
		if d.twins.json == nil {
			d.twins.json = map[string][]twinFile{}
		}
		d.twins.pending = append(d.twins.pending, twinFile{f, ts})
		return
	case err == nil && isTwinJSON(ts) && d.twins.keep(filepath.Dir(f)):
		if d.twins.json == nil {
			d.twins.json = map[string][]twinFile{}
		}
		dir := filepath.Dir(f)
		d.twins.json[dir] = append(d.twins.json[dir], twinFile{f, ts})
		d.holding = true
	}
	d.addFile(f, ts, err, strict)
	d.holding = false
}

// flushTwins adds the held-back CSV exports whose directory the file next
// (empty: the end of the input) is not in.
func (d *Dataset) flushTwins(next string) {
	keep := d.twins.pending[:0]
	for _, c := range d.twins.pending {
		dir := filepath.Dir(c.path)
		if next != "" && under(next, dir) {
			keep = append(keep, c)
			continue
		}
		d.addTwinCSV(c)
	}
	d.twins.pending = keep
	sums := d.twins.sums[:0]
	for _, c := range d.twins.sums {
		if next != "" && under(next, filepath.Dir(c.path)) {
			sums = append(sums, c)
			continue
		}
		d.addSweepSummary(c)
	}
	d.twins.sums = sums
	for dir := range d.twins.json { // the walk never comes back to a directory it left
		if next == "" || !under(next, dir) {
			delete(d.twins.json, dir)
		}
	}
	for dir := range d.twins.runs {
		if next == "" || !under(next, dir) {
			delete(d.twins.runs, dir)
		}
	}
}

// addSweepSummary adds a vLLM bench-sweep summary, or skips it when every
// record of it is the record of a run file read in its directory.
func (d *Dataset) addSweepSummary(c twinFile) {
	runs := d.twins.runs[filepath.Dir(c.path)]
	var of []string
	for i := range c.ts {
		k := slices.IndexFunc(runs, func(r twinFile) bool { return sameRecord(&c.ts[i], &r.ts[0]) })
		if k < 0 {
			d.addFile(c.path, c.ts, nil, false)
			return
		}
		of = append(of, runs[k].path)
	}
	d.Skipped = append(d.Skipped, Skip{Path: c.path, Code: SkipDuplicate,
		Reason: fmt.Sprintf("vLLM bench sweep's summary of the runs read from %s: each run is read once, from its own file", strings.Join(of, ", "))})
}

// addTwinCSV adds a CSV export, or skips it as the duplicate of a JSON
// export of the same run in its directory.
func (d *Dataset) addTwinCSV(c twinFile) {
	for _, j := range d.twins.json[filepath.Dir(c.path)] {
		if sameRun(&c.ts[0], &j.ts[0]) {
			d.Skipped = append(d.Skipped, Skip{Path: c.path, Code: SkipDuplicate,
				Reason: fmt.Sprintf("the same run as %s, which holds its exact values (this CSV export rounds them)", j.path)})
			return
		}
	}
	d.addFile(c.path, c.ts, nil, false)
}
