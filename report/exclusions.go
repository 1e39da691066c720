package report

import (
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// Exclusions turns the inputs and runs that yielded no trial (what the
// source layer skipped) into exclusions; files that are no result (codes
// unknown_format and not_a_result: a README, a log, per-request records
// beside the results) are not points and are left out.
func Exclusions(skipped []trial.Skip) []Exclusion {
	var excl []Exclusion
	for _, s := range skipped {
		if s.Code != trial.SkipUnknownFormat && s.Code != trial.SkipNotResult {
			excl = append(excl, skipExclusion(s))
		}
	}
	return excl
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
