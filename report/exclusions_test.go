package report

import (
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestExclusions: files that are no result (a README or a log beside the
// results, per-request records, binary data) are not points and are left
// out; an unreadable file and a failed run are exclusions.
func TestExclusions(t *testing.T) {
	for _, tt := range []struct {
		skip trial.Skip
		want string // the exclusion's code, "" for none
	}{
		{trial.Skip{Path: "run/README.md", Code: trial.SkipNotResult, Reason: "not a result file"}, ""},
		{trial.Skip{Path: "run/profile_export.jsonl", Code: trial.SkipNotResult, Reason: "AIPerf per-request records"}, ""},
		{trial.Skip{Path: "run/junk.bin", Code: trial.SkipUnknownFormat, Reason: "binary data"}, ""},
		{trial.Skip{Path: "run/bad.json", Code: trial.SkipError, Reason: "bad.json:1:2: invalid JSON"}, ExcludeParseError},
		{trial.Skip{Path: "case/0", Run: "case/0/0/", Case: "case", Code: "run_failed", Reason: "no result block"}, "run_failed"},
	} {
		got := Exclusions([]trial.Skip{tt.skip})
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("Exclusions(%s %s) = %+v; want none", tt.skip.Path, tt.skip.Code, got)
		case tt.want != "" && (len(got) != 1 || got[0].Code != tt.want || got[0].Path != tt.skip.Path):
			t.Errorf("Exclusions(%s %s) = %+v; want one with code %s", tt.skip.Path, tt.skip.Code, got, tt.want)
		}
	}
}
