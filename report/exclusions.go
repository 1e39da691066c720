package report

import (
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// Exclusions turns the inputs and runs that yielded no trial (what the
// source layer skipped) into exclusions; files of an unknown format inside
// directories are not points and are left out.
func Exclusions(skipped []trial.Skip) []Exclusion {
	var excl []Exclusion
	for _, s := range skipped {
		if s.Code != trial.SkipUnknownFormat {
			excl = append(excl, skipExclusion(s))
		}
	}
	return excl
}

// perGPU lists the per-GPU metrics and the GPU count each divides by.
var perGPU = map[string]bool{ // true: per allocated GPU; false: per serving GPU
	trial.OutputTokenThroughputPerAlloc: true, trial.TotalTokenThroughputPerAlloc: true,
	trial.OutputTokenThroughputPerServe: false, trial.TotalTokenThroughputPerServe: false,
}

// unavailable says why a per-GPU metric of t is absent: its GPU count is
// unknown, with the reason the trial's deployment records ("" otherwise).
func unavailable(t *trial.Trial, metric string) string {
	alloc, ok := perGPU[metric]
	switch {
	case !ok || t.Deployment == nil:
		return ""
	case alloc && t.Deployment.AllocatedGPUs <= 0:
		return t.Deployment.AllocatedGPUsUnknown
	case !alloc && t.Deployment.ServingGPUs <= 0:
		return t.Deployment.ServingGPUsUnknown
	}
	return ""
}

// skipExclusion turns an input ingest could not use into an exclusion.
func skipExclusion(s trial.Skip) Exclusion {
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
