package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/pareto-llm/pareto/internal/enc"
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
	return o.store.study == "" && o.optuna == "" && len(paths) > 0 && !slices.Contains(paths, "-") && report.Recordable(cfg, opts)
}

// filesReport writes the page of the inputs paths as studyReport writes a
// study's, in two passes: the first keeps one report.Records entry per
// trial as each file is read (source.Stream: no file's trials
// outlive their file), from which the page is decided (report.Plan); the
// second reads the files again and keeps the trials the page lists alone
// (report.Plan.Listed). It returns the inputs that could not be read.
func filesReport(e *env, o *reportOptions, cfg *report.Config, opts report.Options, lo source.LoadOptions, out string, paths []string) ([]trial.Skip, error) {
	// As for a study: what the reads leave behind is garbage by the next
	// file, what the records keep grows with the inputs (gcpolicy.Study).
	if old := gcpolicy.Study(os.Getenv); old >= 0 {
		defer debug.SetGCPercent(old)
	}
	recs := report.NewRecords(cfg, opts)
	first := func(ts []trial.Trial) error {
		recs.Grow(len(ts))
		for i := range ts {
			recs.Add(&ts[i])
		}
		return nil
	}
	skips, err := eachFile(e, lo, paths, "reading", first)
	if err != nil {
		return nil, err
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
	plan, err := recs.Plan(report.Exclusions(skips))
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
	if _, err := eachFile(e, lo, paths, "listing", second); err != nil {
		return nil, err
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
		spec.Note = func(s string) { fmt.Fprintf(e.stderr, "pareto: %s\n", enc.SafeLines(s)) }
	}
	skips, err := source.Stream(spec, each)
	bar.Done()
	if err != nil {
		return nil, inputError{err: err}
	}
	return skips, nil
}
