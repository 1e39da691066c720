package cloudai

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Dynamo file names (src/cloudai/workloads/ai_dynamo).
const (
	dynSuccessMarker   = "success-marker.txt"
	dynFailureMarker   = "failure-marker.txt"
	aiperfArtifacts    = "aiperf_artifacts"
	aiperfJSON         = "profile_export_aiperf.json"
	aiperfCSV          = "profile_export_aiperf.csv"
	genaiArtifacts     = "genai_perf_artifacts"
	genaiReport        = "genai_perf_report.csv"
	accuracyResultsCSV = "accuracy_results.csv"
	defaultPhaseName   = "aiperf"
)

// phaseNameRE is CloudAI's AIPerfPhase.name pattern.
var phaseNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// aiperfPhase is one configured AIPerf phase and where its outputs live.
type aiperfPhase struct {
	name        string
	artifactDir string // relative to the run directory
	report      string // CloudAI's copy of the phase CSV, written only on exit 0
	params      []Param
}

// dynamoRuns checks the Dynamo markers and yields one run per AIPerf phase
// and one per GenAI-Perf workload.
func dynamoRuns(p runPos, r Run, cfg *runConfig) ([]Run, []Exclusion) {
	ca := cfg.def.CmdArgs
	workloads := dynamoWorkloads(ca)
	phases, err := aiperfPhases(ca)
	if err != nil {
		return nil, []Exclusion{p.exclude("", ExcludeConfigError, fmt.Sprintf("%s: %v", cfg.source(), err))}
	}
	if reason := dynamoFailure(p.dir); reason != "" {
		return nil, excludeAll(p, workloads, phases, ExcludeRunFailed, reason)
	}
	r.Evidence = append(r.Evidence, dynSuccessMarker+" present")
	if _, ok := child(ca, "aiperf_accuracy"); ok {
		r.addAccuracy(p.dir, []File{{accuracyResultsCSV, KindAccuracyCSV},
			{filepath.Join("aiperf_accuracy_artifacts", accuracyResultsCSV), KindAccuracyCSV},
			{filepath.Join(aiperfArtifacts, accuracyResultsCSV), KindAccuracyCSV}})
	}
	var runs []Run
	var excl []Exclusion
	for _, w := range workloads {
		switch w {
		case "aiperf.sh":
			for _, ph := range phases {
				run, ex := aiperfRun(p, r, ph)
				runs, excl = appendResult(runs, excl, run, ex)
			}
		case "genai_perf.sh":
			run, ex := genaiRun(p, r, ca)
			runs, excl = appendResult(runs, excl, run, ex)
		default:
			excl = append(excl, p.exclude("", ExcludeConfigError, fmt.Sprintf("workload %q has no known result files", w)))
		}
	}
	return runs, excl
}

// appendResult appends either a run or an exclusion.
func appendResult(runs []Run, excl []Exclusion, r *Run, e *Exclusion) ([]Run, []Exclusion) {
	if r != nil {
		runs = append(runs, *r)
	}
	if e != nil {
		excl = append(excl, *e)
	}
	return runs, excl
}

// dynamoWorkloads splits cmd_args.workloads (CloudAI default "genai_perf.sh").
func dynamoWorkloads(ca map[string]any) []string {
	v, ok := child(ca, "workloads")
	if !ok {
		return []string{"genai_perf.sh"}
	}
	var out []string
	for _, w := range strings.Split(stringValue(v), ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// aiperfPhases lists the configured phases, or the implicit "aiperf" phase.
func aiperfPhases(ca map[string]any) ([]aiperfPhase, error) {
	aip := table(ca, "aiperf")
	base := stringValue(firstValue(aip, aiperfArtifacts, "artifact_dir_name"))
	list, _ := child(ca, "aiperf_phases")
	entries, _ := list.([]any)
	if len(entries) == 0 {
		report := stringValue(firstValue(aip, "aiperf_report.csv", "report_name"))
		return []aiperfPhase{{name: defaultPhaseName, artifactDir: base, report: report}}, nil
	}
	seen := map[string]bool{}
	var out []aiperfPhase
	for i, e := range entries {
		t, _ := e.(map[string]any)
		name := stringValue(t["name"])
		if !phaseNameRE.MatchString(name) {
			return nil, fmt.Errorf("aiperf_phases[%d].name %q does not match %s", i, name, phaseNameRE)
		}
		if seen[name] {
			return nil, fmt.Errorf("AIPerf phase names must be unique; duplicate %q", name)
		}
		seen[name] = true
		sub := stringValue(firstValue(t, name, "artifact_dir_name"))
		report := stringValue(firstValue(t, "aiperf_"+name+"_report.csv", "report_name"))
		params := slices.DeleteFunc(Flatten("", t), func(p Param) bool { return p.Key == "name" })
		out = append(out, aiperfPhase{name: name, artifactDir: filepath.Join(base, sub), report: report, params: params})
	}
	return out, nil
}

// firstValue returns t[key] (any spelling) or def.
func firstValue(t map[string]any, def any, key string) any {
	if v, ok := child(t, key); ok && stringValue(v) != "" {
		return v
	}
	return def
}

// dynamoFailure returns why the run failed by its markers, or "".
func dynamoFailure(dir string) string {
	if data, err := os.ReadFile(filepath.Join(dir, dynFailureMarker)); err == nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
		return fmt.Sprintf("failure marker found: %s", strings.TrimSpace(first))
	}
	if !exists(filepath.Join(dir, dynSuccessMarker)) {
		return "success marker " + dynSuccessMarker + " not found"
	}
	return ""
}

// excludeAll excludes every point the run was configured to produce.
func excludeAll(p runPos, workloads []string, phases []aiperfPhase, code, reason string) []Exclusion {
	var out []Exclusion
	for _, w := range workloads {
		if w != "aiperf.sh" {
			out = append(out, p.exclude("", code, reason))
			continue
		}
		for _, ph := range phases {
			out = append(out, p.exclude(ph.name, code, reason))
		}
	}
	return out
}

// aiperfRun builds the run of one phase: its report CSV proves the phase
// exited 0; measurements come from the artifact JSON, else the CSVs.
func aiperfRun(p runPos, base Run, ph aiperfPhase) (*Run, *Exclusion) {
	report := filepath.Join(p.dir, ph.report)
	if !exists(report) {
		e := p.exclude(ph.name, ExcludeRunFailed,
			fmt.Sprintf("AIPerf phase %q did not complete: %s not written (CloudAI copies it only when the phase exits 0)", ph.name, ph.report))
		return nil, &e
	}
	dir := filepath.Join(p.dir, ph.artifactDir)
	files := existing([]File{{filepath.Join(dir, aiperfJSON), KindAIPerfJSON},
		{filepath.Join(dir, aiperfCSV), KindAIPerfCSV}, {report, KindAIPerfCSV}})
	r := base
	r.Benchmark, r.Phase, r.PhaseParams = "aiperf", ph.name, ph.params
	r.Evidence = append(slices.Clone(base.Evidence), ph.report+" present")
	r.Files = files[:1]
	if r.Files[0].Kind != KindAIPerfJSON {
		r.Warnings = append(slices.Clone(r.Warnings), absentJSON(p.dir, filepath.Join(dir, aiperfJSON), r.Files[0].Path))
	}
	return &r, nil
}

// absentJSON is the warning of a run measured from a CSV summary because
// the tool's JSON export is absent.
func absentJSON(dir, json, csv string) string {
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil {
			return r
		}
		return p
	}
	return fmt.Sprintf("%s absent: measured from %s, which holds fewer metrics", rel(json), rel(csv))
}

// genaiRun builds the GenAI-Perf run: genai_perf_report.csv is the success
// marker; profile_genai_perf.json under genai_perf_artifacts/ is preferred.
func genaiRun(p runPos, base Run, ca map[string]any) (*Run, *Exclusion) {
	name := stringValue(firstValue(table(ca, "genai_perf"), genaiReport, "report_name"))
	report := filepath.Join(p.dir, name)
	if !exists(report) {
		e := p.exclude("", ExcludeRunFailed, fmt.Sprintf("GenAI-Perf did not complete: %s not written", name))
		return nil, &e
	}
	jsons, csvs := genaiArtifactFiles(filepath.Join(p.dir, genaiArtifacts))
	files := append(append(jsons, csvs...), File{Path: report, Kind: KindGenAIPerfCSV})
	r := base
	r.Benchmark = "genai-perf"
	r.Evidence = append(slices.Clone(base.Evidence), name+" present")
	r.Files = files[:1]
	if len(jsons) == 0 {
		r.Warnings = append(slices.Clone(r.Warnings), absentJSON(p.dir, filepath.Join(p.dir, genaiArtifacts, "profile_genai_perf.json"), r.Files[0].Path))
	}
	return &r, nil
}

// genaiArtifactFiles finds *genai_perf.json and *genai_perf.csv summaries.
func genaiArtifactFiles(dir string) (jsons, csvs []File) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch n := d.Name(); {
		case strings.HasSuffix(n, "genai_perf.json"):
			jsons = append(jsons, File{Path: path, Kind: KindGenAIPerfJSON})
		case strings.HasSuffix(n, "genai_perf.csv"):
			csvs = append(csvs, File{Path: path, Kind: KindGenAIPerfCSV})
		}
		return nil
	})
	return jsons, csvs
}

// existing keeps the files that exist, in order.
func existing(fs []File) []File {
	return slices.DeleteFunc(fs, func(f File) bool { return !exists(f.Path) })
}
