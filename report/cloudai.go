package report

import (
	"os"
	"strconv"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/trial"
)

// LoadCloudAI reads a CloudAI scenario results directory into points; see
// Load. With opts.Scenario the walk follows the scenario's test cases and
// runs need no test-run.toml (cloudai.WalkOptions). The error is non-nil
// only when dir cannot be read.
func LoadCloudAI(dir string, opts cloudai.WalkOptions) ([]Trial, []Exclusion, error) {
	return Load([]string{dir}, ingest.LoadOptions{GPUsPerNode: opts.GPUsPerNode, System: opts.System,
		Scenario: opts.Scenario, Tests: opts.Tests})
}

// Load reads sources with ingest.Load (files of any supported format,
// directories, CloudAI results trees) into points. CloudAI trials carry
// their case, iteration, step, phase and benchmark labels, executed
// parameters, per-GPU throughputs, serving layout and executed TOML; failed
// runs and unreadable files become exclusions (files of an unknown format
// inside directories are not points and are left out).
func Load(paths []string, opts ingest.LoadOptions) ([]Trial, []Exclusion, error) {
	ds, err := ingest.Load(paths, opts)
	if err != nil {
		return nil, nil, err
	}
	var excl []Exclusion
	for _, s := range ds.Skipped {
		if s.Code != ingest.SkipUnknownFormat {
			excl = append(excl, skipExclusion(s))
		}
	}
	tomls := map[string]string{}
	out := make([]Trial, len(ds.Trials))
	for i, t := range ds.Trials {
		out[i] = Trial{Trial: t}
		if r := ds.Runs[i]; r != nil {
			out[i].Layout, out[i].ConfigPath = r.Layout, r.ConfigPath
			out[i].ConfigTOML = readOnce(tomls, r.ConfigPath)
			out[i].Unavailable = unavailable(r)
		}
	}
	return out, excl, nil
}

// readOnce reads a file once, caching its text (empty when unreadable).
func readOnce(cache map[string]string, path string) string {
	if path == "" {
		return ""
	}
	text, ok := cache[path]
	if !ok {
		b, _ := os.ReadFile(path)
		text = string(b)
		cache[path] = text
	}
	return text
}

// unavailable says why each per-GPU throughput of a run is absent.
func unavailable(r *cloudai.Run) map[string]string {
	m := map[string]string{}
	if r.AllocatedGPUs <= 0 {
		m[trial.OutputTokenThroughputPerAlloc] = r.AllocatedGPUsUnknown
		m[trial.TotalTokenThroughputPerAlloc] = r.AllocatedGPUsUnknown
	}
	if r.ServingGPUs <= 0 {
		m[trial.OutputTokenThroughputPerServe] = r.ServingGPUsUnknown
		m[trial.TotalTokenThroughputPerServe] = r.ServingGPUsUnknown
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// skipExclusion turns an input ingest could not use into an exclusion.
func skipExclusion(s ingest.Skip) Exclusion {
	x := Exclusion{Case: s.Case, Phase: s.Phase, Path: s.Path, Code: s.Code, Reason: s.Reason}
	if s.Code == ingest.SkipError {
		x.Code = ExcludeParseError
	}
	if x.Case == "" {
		x.Case = s.Path
	}
	if s.Run != "" && s.Iteration >= 0 {
		x.Iteration = strconv.Itoa(s.Iteration)
	}
	if s.Step > 0 {
		x.Step = strconv.Itoa(s.Step)
	}
	return x
}
