package source

import (
	"fmt"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/trial"
)

// Limits bound what the readers accept: the size of an input, of a record
// held in memory and the columns of a table row (package ingest's limits;
// a zero field takes DefaultLimits').
type Limits = ingest.Limits

// DefaultLimits are the limits a zero Limits stands for.
var DefaultLimits = Limits{MaxInputSize: ingest.DefaultMaxInputSize, MaxRecordSize: ingest.DefaultMaxRecordSize,
	MaxColumns: ingest.DefaultMaxColumns}

// LoadOptions configure the readers of result files, CloudAI trees and
// generic tables (package ingest's options; Spec.Load).
type LoadOptions = ingest.LoadOptions

// SkipError is the code of a skip whose input could not be read.
const SkipError = ingest.SkipError

// ExcludeTestUnknown is the code of a CloudAI run that has no
// test-run.toml and whose test TOML was not given (Scenario's testsDir).
const ExcludeTestUnknown = cloudai.ExcludeTestUnknown

// CloudAI returns the reader options of CloudAI trees: gpusPerNode GPUs
// per node when positive, else the gpus_per_node of the system TOML at
// systemConfig when one is given, which also names the system. A negative
// gpusPerNode is a *field.Error on gpus_per_node; a system TOML that
// cannot be read is a positioned error.
func CloudAI(systemConfig string, gpusPerNode int) (LoadOptions, error) {
	opts := LoadOptions{GPUsPerNode: gpusPerNode}
	if err := cloudai.CheckGPUsPerNode(gpusPerNode); err != nil {
		return opts, &field.Error{Field: "gpus_per_node", Reason: err.Error()}
	}
	if systemConfig != "" {
		sys, err := cloudai.ReadSystem(systemConfig)
		if err != nil {
			return opts, err
		}
		opts.System = sys.Name
		if gpusPerNode == 0 {
			opts.GPUsPerNode = sys.GPUsPerNode
		}
	}
	return opts, nil
}

// Scenario returns opts for a CloudAI scenario results directory, walked
// as the scenario's reporter walks it: the test-scenario TOML at scenario
// and, when testsDir is not empty, the test TOMLs there (CloudAI's
// --tests-dir), which must resolve every test of the scenario. A scenario
// that cannot be read is a positioned error; a tests directory that cannot
// be read, or that lacks a test the scenario names, is a *field.Error on
// tests_dir.
func Scenario(opts LoadOptions, scenario, testsDir string) (LoadOptions, error) {
	var err error
	if opts.Scenario, err = cloudai.ReadScenario(scenario); err != nil {
		return opts, err
	}
	if testsDir == "" {
		return opts, nil
	}
	if opts.Tests, err = cloudai.LoadTests(testsDir); err != nil {
		return opts, &field.Error{Field: "tests_dir", Err: err}
	}
	if _, err := cloudai.Resolve(opts.Scenario, opts.Tests); err != nil {
		return opts, &field.Error{Field: "tests_dir", Value: testsDir, Err: fmt.Errorf("%s: %w", scenario, err)}
	}
	return opts, nil
}

// Stream reads the paths of spec as trials handed to each, batch by batch
// as they are read (a file, or a CloudAI run), keeping none: pareto ingest
// stores a directory of any size this way. The warnings of the trials go
// to spec.Note once all are read, each once (ingest.Warnings). It returns
// the inputs and runs that yielded no trial; an error of each ends the
// read and is returned.
func Stream(spec Spec, each func([]trial.Trial) error) ([]trial.Skip, error) {
	opts := spec.Load
	opts.Stdin = spec.Stdin
	var ws ingest.Warnings
	defer spec.noteWarnings(&ws)
	opts.Each = func(ts []trial.Trial, _ *cloudai.Run) error {
		ws.Add(ts)
		return each(ts)
	}
	d, err := ingest.Load(spec.Paths, opts)
	if err != nil {
		return nil, err
	}
	return d.Skipped, nil
}

// Failed returns the skips of inputs that could not be read.
func Failed(skips []trial.Skip) []trial.Skip { return failed(skips) }
