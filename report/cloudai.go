package report

import (
	"strconv"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/trial"
)

// Inputs turns what the source layer read (package source: trials, the
// CloudAI run of each or nil, and the inputs that yielded nothing) into
// points and exclusions. CloudAI trials carry their case, iteration, step,
// phase and benchmark labels, executed parameters, per-GPU throughputs,
// serving layout and executed TOML (secrets redacted); failed runs and unreadable files
// become exclusions (files of an unknown format inside directories are not
// points and are left out).
func Inputs(trials []trial.Trial, runs []*cloudai.Run, skipped []trial.Skip) ([]Trial, []Exclusion) {
	var excl []Exclusion
	for _, s := range skipped {
		if s.Code != trial.SkipUnknownFormat {
			excl = append(excl, skipExclusion(s))
		}
	}
	tomls := map[string]string{}
	out := make([]Trial, len(trials))
	for i, t := range trials {
		out[i] = Trial{Trial: t}
		if i < len(runs) && runs[i] != nil {
			r := runs[i]
			out[i].Layout, out[i].ConfigPath = r.Layout, r.ConfigPath
			out[i].ConfigTOML = readOnce(tomls, r.ConfigPath)
			out[i].Unavailable = unavailable(r)
		}
	}
	return out, excl
}

// readOnce reads an executed configuration once, secrets redacted
// (cloudai.ReadConfigText), caching its text (empty when unreadable).
func readOnce(cache map[string]string, path string) string {
	if path == "" {
		return ""
	}
	text, ok := cache[path]
	if !ok {
		text, _ = cloudai.ReadConfigText(path)
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
	if s.Code == trial.SkipError {
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
