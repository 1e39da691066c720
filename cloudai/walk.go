package cloudai

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// FileKind says which reader a result file needs.
type FileKind string

// Result file kinds.
const (
	KindVLLMJSON      FileKind = "vllm-json"       // vllm-bench.json (vllm bench serve --save-result)
	KindSGLangJSONL   FileKind = "sglang-jsonl"    // sglang-bench.jsonl (sglang.bench_serving)
	KindAIPerfJSON    FileKind = "aiperf-json"     // profile_export_aiperf.json
	KindAIPerfCSV     FileKind = "aiperf-csv"      // profile_export_aiperf.csv and CloudAI's aiperf_*report.csv copies
	KindGenAIPerfJSON FileKind = "genai-perf-json" // profile_genai_perf.json
	KindGenAIPerfCSV  FileKind = "genai-perf-csv"  // profile_genai_perf.csv, genai_perf_report.csv (+3 CloudAI rows)
	KindAccuracyCSV   FileKind = "accuracy-csv"    // Dynamo accuracy_results.csv
	KindAccuracyJSON  FileKind = "accuracy-json"   // vLLM vllm-gsm8k.json {"accuracy": …}
	KindAccuracyLog   FileKind = "accuracy-log"    // vllm-/sglang-semantic-eval.log ("Accuracy: 0.9")
)

// File is one result file of a run.
type File struct {
	// Path is the file's path (under the walked results directory).
	Path string `json:"path"`
	// Kind selects the reader.
	Kind FileKind `json:"kind"`
}

// Exclusion codes.
const (
	ExcludeRunFailed     = "run_failed"      // the run's success marker is absent or a failure marker is present
	ExcludeResultMissing = "result_missing"  // the run succeeded by its markers but has no result file, or a scenario case has no runs
	ExcludeConfigError   = "config_error"    // the run's configuration is unknown or describes no known workload
	ExcludeDamaged       = trial.SkipError   // a file of the run is present but cannot be read (truncated, malformed, emptied): an input error
	ExcludeNotARun       = "not_a_run"       // a non-numeric directory where iterations or steps live
	ExcludeNotInScenario = "not_in_scenario" // a results directory of no test case of the scenario
	ExcludeTestUnknown   = "test_unknown"    // no test-run.toml, and no scenario, or not the test TOML the scenario names
)

// Exclusion is a run (or expected point) that yields no trial, with a reason.
type Exclusion struct {
	// Path is the run directory (or the offending directory).
	Path string `json:"path"`
	// Case is the test case id.
	Case string `json:"case"`
	// Iteration is the iteration number, -1 when not known.
	Iteration int `json:"iteration"`
	// Step is the DSE step (1..N), 0 for a non-DSE run.
	Step int `json:"step"`
	// Phase is the AIPerf phase, "" when not phase-specific.
	Phase string `json:"phase,omitempty"`
	// Code is one of the Exclude* codes.
	Code string `json:"code"`
	// Reason is a human-readable explanation.
	Reason string `json:"reason"`
}

// WalkOptions configures Walk.
type WalkOptions struct {
	// GPUsPerNode is the system's gpus_per_node; 0 leaves allocated GPUs
	// unknown (each run says why).
	GPUsPerNode int
	// System names the system in run labels when set.
	System string
	// Scenario, when set, drives the walk as CloudAI's reporter does: its
	// [[Tests]] are the cases, in file order, and test-run.toml is
	// optional. A run with one keeps its executed configuration; a run
	// without one takes its test's configuration from the scenario entry
	// merged over the test TOML it names (Tests), and a DSE step's swept
	// values from the iteration's trajectory.csv (or trajectory.jsonl).
	Scenario *Scenario
	// Tests are the test TOMLs by name (LoadTests) that the scenario's
	// test_name entries refer to; only runs without test-run.toml need
	// them.
	Tests map[string]*TestDefinition
}

// Walk reads a CloudAI scenario results directory (FORMATS.md §9.1): every
// <case>/<iteration>[/<step>] directory is a run, and yields one Run per
// successful point (one per AIPerf phase for Dynamo, one per benchmark when
// Dynamo runs both AIPerf and GenAI-Perf) or Exclusions saying why it does
// not. Without opts.Scenario the cases are the top-level directories and a
// run needs its test-run.toml; directories without numeric subdirectories
// (metadata/, report assets) are ignored. With opts.Scenario the cases are
// its [[Tests]] (see WalkOptions): a case without a results directory is an
// ExcludeResultMissing, a top-level directory of iterations that is no case
// an ExcludeNotInScenario. Non-numeric directories inside a case are
// reported as ExcludeNotARun. The error is non-nil only when resultDir
// itself cannot be read. Runs and exclusions come in case, iteration, step,
// phase order (the scenario's case order when it is given).
func Walk(resultDir string, opts WalkOptions) ([]Run, []Exclusion, error) {
	entries, err := os.ReadDir(resultDir)
	if err != nil {
		return nil, nil, fmt.Errorf("walking CloudAI results: %w", err)
	}
	w := &walker{root: resultDir, opts: opts, trajectories: map[string]trajectory{}}
	if opts.Scenario != nil {
		w.walkScenario(entries)
		return w.runs, w.excl, nil
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "metadata" {
			w.walkCase(e.Name(), nil)
		}
	}
	return w.runs, w.excl, nil
}

// walker accumulates the results of one Walk.
type walker struct {
	root string
	opts WalkOptions
	runs []Run
	excl []Exclusion
	// trajectories caches the DSE trajectory of each iteration directory.
	trajectories map[string]trajectory
}

// trajectory is the DSE trajectory of one iteration, or why it is unknown.
type trajectory struct {
	actions map[int]map[string]any
	err     error
}

// walkScenario walks the scenario's test cases, then reports the
// directories of iterations that belong to none.
func (w *walker) walkScenario(entries []os.DirEntry) {
	cases := map[string]bool{}
	for i := range w.opts.Scenario.Tests {
		t := &w.opts.Scenario.Tests[i]
		cases[t.ID] = true
		dir := filepath.Join(w.root, t.ID)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			w.excl = append(w.excl, Exclusion{Path: dir, Case: t.ID, Iteration: -1, Code: ExcludeResultMissing,
				Reason: fmt.Sprintf("test case %q has no results directory", t.ID)})
			continue
		}
		w.walkCase(t.ID, t)
	}
	for _, e := range entries {
		if !e.IsDir() || cases[e.Name()] {
			continue
		}
		dir := filepath.Join(w.root, e.Name())
		if iters, _ := numericDirs(dir); len(iters) > 0 {
			w.excl = append(w.excl, Exclusion{Path: dir, Case: e.Name(), Iteration: -1, Code: ExcludeNotInScenario,
				Reason: fmt.Sprintf("directory %q holds iterations but is no test case of scenario %q; skipped", e.Name(), w.opts.Scenario.Name)})
		}
	}
}

// walkCase walks one test case directory; test is its scenario entry, nil
// without a scenario.
func (w *walker) walkCase(id string, test *ScenarioTest) {
	dir := filepath.Join(w.root, id)
	iters, other := numericDirs(dir)
	if len(iters) == 0 && test == nil {
		return
	}
	for _, name := range other {
		w.excl = append(w.excl, Exclusion{Path: filepath.Join(dir, name), Case: id, Iteration: -1, Code: ExcludeNotARun,
			Reason: fmt.Sprintf("directory %q is not an iteration number; skipped", name)})
	}
	if len(iters) == 0 {
		w.excl = append(w.excl, Exclusion{Path: dir, Case: id, Iteration: -1, Code: ExcludeResultMissing,
			Reason: fmt.Sprintf("test case %q has no iteration directories", id)})
	}
	for _, it := range iters {
		w.walkIteration(id, it, test)
	}
}

// walkIteration walks one iteration: a run directory, or DSE steps.
func (w *walker) walkIteration(id string, it int, test *ScenarioTest) {
	dir := filepath.Join(w.root, id, strconv.Itoa(it))
	steps, other := numericDirs(dir)
	if len(steps) == 0 {
		w.walkRun(runPos{caseID: id, iteration: it, dir: dir, iterDir: dir, test: test})
		return
	}
	for _, name := range other {
		if name == "metadata" {
			continue
		}
		w.excl = append(w.excl, Exclusion{Path: filepath.Join(dir, name), Case: id, Iteration: it, Code: ExcludeNotARun,
			Reason: fmt.Sprintf("directory %q is not a DSE step number; skipped", name)})
	}
	for _, s := range steps {
		w.walkRun(runPos{caseID: id, iteration: it, step: s, dir: filepath.Join(dir, strconv.Itoa(s)), iterDir: dir, test: test})
	}
}

// numericDirs lists the subdirectories of dir whose names are non-negative
// integers (sorted numerically) and the other subdirectory names.
func numericDirs(dir string) ([]int, []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var nums []int
	var other []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(e.Name())
		if err != nil || n < 0 || strconv.Itoa(n) != e.Name() {
			other = append(other, e.Name())
			continue
		}
		nums = append(nums, n)
	}
	slices.Sort(nums)
	return nums, other
}

// runPos locates one run directory in the tree.
type runPos struct {
	caseID    string
	iteration int
	step      int
	dir       string
	iterDir   string
	// test is the case's scenario entry, nil without a scenario.
	test *ScenarioTest
}

// exclude builds an Exclusion for the run at p.
func (p runPos) exclude(phase, code, reason string) Exclusion {
	return Exclusion{Path: p.dir, Case: p.caseID, Iteration: p.iteration, Step: p.step, Phase: phase, Code: code,
		Reason: trial.RedactText(reason)} // a failure marker's line may quote a command
}

// walkRun reads one run directory's configuration and dispatches on the
// workload.
func (w *walker) walkRun(p runPos) {
	cfg, err := w.runConfig(p)
	if err != nil {
		code := ExcludeConfigError
		var damaged *damageError
		switch {
		case errors.Is(err, errTestUnknown), errors.Is(err, errNoScenario):
			code = ExcludeTestUnknown
		case errors.As(err, &damaged):
			code = ExcludeDamaged
		}
		w.excl = append(w.excl, p.exclude("", code, err.Error()))
		return
	}
	wl, err := WorkloadOf(&cfg.def)
	if err != nil {
		w.excl = append(w.excl, p.exclude("", ExcludeConfigError, fmt.Sprintf("%s: %v", cfg.source(), err)))
		return
	}
	base := w.newRun(p, cfg, wl)
	var runs []Run
	var excl []Exclusion
	switch wl {
	case WorkloadVLLM:
		runs, excl = vllmRuns(p, base)
	case WorkloadSGLang:
		runs, excl = sglangRuns(p, base)
	default:
		runs, excl = dynamoRuns(p, base, cfg)
	}
	w.runs = append(w.runs, runs...)
	w.excl = append(w.excl, excl...)
}

// exists reports whether path names an existing regular file.
func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// runFiles are the files CloudAI writes into a run directory whatever the
// system: the executed configuration (Slurm systems), the bench logs and
// results of the vLLM and SGLang workloads, and Dynamo's markers.
var runFiles = []string{testRunFile, vllmBenchLog, sglangBenchJSONL, dynSuccessMarker, dynFailureMarker}

// IsResultsTree reports whether dir looks like a CloudAI scenario results
// directory, with or without test-run.toml (CloudAI's reporter does not
// need one): a <case>/<iteration>[/<step>] directory below it, with
// numeric iteration and step names, that holds one of the files CloudAI
// writes into a run (test-run.toml, vllm-bench.log, sglang-bench.jsonl,
// success-marker.txt, failure-marker.txt), or an iteration that holds a
// DSE trajectory (trajectory.csv, trajectory.jsonl).
func IsResultsTree(dir string) bool {
	// One listing of each directory (a directory of thousands of result
	// files is listed once, not opened entry by entry for each pattern).
	cases, _ := os.ReadDir(dir)
	for _, c := range cases {
		caseDir := filepath.Join(dir, c.Name())
		if !isDirEntry(caseDir, c) {
			continue
		}
		iters, _ := os.ReadDir(caseDir)
		for _, it := range iters {
			iterDir := filepath.Join(caseDir, it.Name())
			if !runNumber(it.Name()) || !isDirEntry(iterDir, it) {
				continue
			}
			if holdsAny(iterDir, runFiles...) || holdsAny(iterDir, trajectoryCSV, trajectoryJSONL) {
				return true
			}
			steps, _ := os.ReadDir(iterDir)
			for _, st := range steps {
				stepDir := filepath.Join(iterDir, st.Name())
				if runNumber(st.Name()) && isDirEntry(stepDir, st) && holdsAny(stepDir, runFiles...) {
					return true
				}
			}
		}
	}
	return false
}

// isDirEntry reports whether the entry e at path is a directory,
// following a symbolic link.
func isDirEntry(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// holdsAny reports whether dir holds an entry named one of names.
func holdsAny(dir string, names ...string) bool {
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// runNumber reports whether name is an iteration or step number as
// CloudAI writes it: decimal, without sign or leading zeros.
func runNumber(name string) bool {
	n, err := strconv.Atoi(name)
	return err == nil && n >= 0 && strconv.Itoa(n) == name
}
