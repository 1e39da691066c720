package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/pareto-llm/pareto/internal/gcpolicy"
	"github.com/pareto-llm/pareto/internal/progress"
	"github.com/pareto-llm/pareto/report"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/trial"
)

// filesReportable reports whether the page of paths alone (no study, no
// Optuna storage, no standard input, which cannot be read twice) can be
// written in two passes over the files (filesReport).
func filesReportable(o *reportOptions, cfg *report.Config, opts report.Options, paths []string) bool {
	return o.study == "" && o.optuna == "" && len(paths) > 0 && !slices.Contains(paths, "-") && report.Recordable(cfg, opts)
}

// filesReport writes the page of the inputs paths as studyReport writes a
// study's, in two passes: the first keeps one report.Records entry per
// trial as each file is read (source.Stream: no file's trials
// outlive their file), from which the page is decided (report.Plan); the
// second reads the files again and keeps the trials the page lists alone
// (report.Plan.Listed). It returns the inputs that could not be read.
//
// When every input is a generic table, the first pass reads the columns
// of the axes alone (tableRecords) and the second has ingest make trials
// of the rows the page lists alone (ingest.TableOptions.Rows); should
// ingest then refuse a file, the page is made again from the trials.
func filesReport(e *env, o *reportOptions, cfg *report.Config, opts report.Options, lo source.LoadOptions, out string, paths []string) ([]trial.Skip, error) {
	// As for a study: what the reads leave behind is garbage by the next
	// file, what the records keep grows with the inputs (gcpolicy.Study).
	if old := gcpolicy.Study(os.Getenv); old >= 0 {
		defer debug.SetGCPercent(old)
	}
	bad, err := filesPage(e, o, cfg, opts, lo, out, paths, true)
	if errors.Is(err, errColumnsRefused) {
		bad, err = filesPage(e, o, cfg, opts, lo, out, paths, false)
	}
	return bad, err
}

// errColumnsRefused is filesPage's error when ingest refuses, on the
// second pass, a table recorded column by column.
var errColumnsRefused = errors.New("a table recorded column by column was refused on the second pass")

// filesPage is filesReport, the tables recorded column by column when
// columns allows.
func filesPage(e *env, o *reportOptions, cfg *report.Config, opts report.Options, lo source.LoadOptions, out string, paths []string, columns bool) ([]trial.Skip, error) {
	var recs *report.Records
	var base map[string]int
	if columns {
		recs, base = tableRecords(e, cfg, opts, lo, paths)
	}
	var skips []trial.Skip
	if recs == nil {
		recs = report.NewRecords(cfg, opts)
		first := func(ts []trial.Trial) error {
			recs.Grow(len(ts))
			for i := range ts {
				recs.Add(&ts[i])
			}
			return nil
		}
		var err error
		if skips, err = eachFile(e, lo, paths, "reading", first); err != nil {
			return nil, err
		}
	}
	if recs.Len() == 0 {
		return nil, inputError{err: source.Nothing(skips)}
	}
	if cfg.Cases == nil && o.config != "" {
		if err := cfg.CheckCases(recs.Cases()); err != nil {
			return nil, inputError{err: err}
		}
	}
	if err := checkAgainstData(cfg, nil, recs.Metrics()); err != nil {
		return nil, err
	}
	runtime.GC() // what the read left behind (see writeReport)
	plan, err := recs.Plan(report.Exclusions(limitSkips(skips)))
	if err != nil {
		return nil, inputError{err: err}
	}
	var kept []trial.Trial
	k := 0
	second := func(ts []trial.Trial) error {
		for i := range ts {
			if k < recs.Len() && plan.Listed(k) {
				kept = append(kept, ts[i])
			}
			k++
		}
		return nil
	}
	if base != nil {
		// The tables were recorded column by column: ingest makes trials
		// of the rows the page lists alone, which PageOf checks.
		lo.Table.Rows = func(path string, row int) bool {
			b, ok := base[path]
			return ok && b+row < recs.Len() && plan.Listed(b+row)
		}
		second = func(ts []trial.Trial) error {
			kept = append(kept, ts...)
			return nil
		}
		k = recs.Len()
	}
	again, err := eachFile(e, lo, paths, "listing", second)
	if err != nil {
		return nil, err
	}
	if base != nil && len(source.Failed(again)) > 0 {
		return nil, errColumnsRefused
	}
	if k != recs.Len() {
		return nil, inputError{err: fmt.Errorf("the inputs changed while they were read: %d trials, then %d", recs.Len(), k)}
	}
	page, err := plan.PageOf(kept)
	if err != nil {
		return nil, inputError{err: err}
	}
	kept = nil
	return (&source.Set{Skipped: skips}).Failed(), writePage(e, page, out)
}

// eachFile reads paths once, handing each file's trials to each, and
// returns what it skipped; the first pass (what "reading") says the
// trials' warnings.
func eachFile(e *env, lo source.LoadOptions, paths []string, what string, each func([]trial.Trial) error) ([]trial.Skip, error) {
	bar := progress.New(e.stderr, what, "inputs")
	lo.Progress = bar.Set
	spec := source.Spec{Paths: paths, Load: lo}
	if what == "reading" {
		spec.Note = e.note("pareto")
	}
	skips, err := source.Stream(spec, each)
	bar.Done()
	if err != nil {
		return nil, inputError{err: err}
	}
	return skips, nil
}

// tableRecords records the inputs paths column by column when every one
// is a generic table Records.AddTable takes (source.TableColumns: the
// columns of the axes and the id alone, as front reads a table), and
// returns the records and the index of each file's first row in them;
// nil when one is not, and the inputs are then recorded from their trials.
func tableRecords(e *env, cfg *report.Config, opts report.Options, lo source.LoadOptions, paths []string) (*report.Records, map[string]int) {
	recs := report.NewRecords(cfg, opts)
	spec, ok := recs.TableSpec()
	if !ok || lo.GPUs.Total > 0 || lo.Table.ID != "" {
		return nil, nil
	}
	bar := progress.New(e.stderr, "reading", "inputs")
	defer bar.Done()
	base := make(map[string]int, len(paths))
	for i, path := range paths {
		if _, dup := base[path]; dup {
			return nil, nil
		}
		t, ok, err := source.TableColumns(path, spec, lo.Limits, lo.AsTable)
		if err != nil || !ok || t.Len() == 0 { // ingest says what it makes of them
			return nil, nil
		}
		base[path] = recs.Len()
		if !recs.AddTable(t, spec) {
			return nil, nil
		}
		bar.Set(i+1, len(paths))
	}
	return recs, base
}
