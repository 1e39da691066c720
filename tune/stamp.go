package tune

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// LabelFilePrefix starts the labels that keep the parameters a result
// file recorded (Stamp): the file's server_args.max_num_seqs is kept as
// tune_file.server_args.max_num_seqs.
const LabelFilePrefix = "tune_file."

// serverPrefixes are the prefixes under which result files record server
// settings (pareto simulate's and SGLang's): a file's
// server_args.max_num_seqs is the run's max_num_seqs.
var serverPrefixes = []string{"server_args.", "server_info."}

// Mismatch is a parameter a result file records with another value than
// the run's configuration: the run's value is the trial's identity, the
// file's is kept as a label.
type Mismatch struct {
	// Param and Value are the run's parameter and its value.
	Param string `json:"param" jsonschema:"the run's parameter"`
	Value string `json:"value" jsonschema:"its value in the run's configuration (the one recorded)"`
	// Recorded and RecordedValue are the file's parameter and value,
	// kept as the label Label.
	Recorded      string `json:"recorded" jsonschema:"the parameter as the result file names it"`
	RecordedValue string `json:"recorded_value" jsonschema:"the value the result file records"`
	Label         string `json:"label" jsonschema:"the label that keeps the file's value"`
	// Path is the result file.
	Path string `json:"path" jsonschema:"the result file"`
}

// String renders the mismatch for a warning line.
func (m Mismatch) String() string {
	return fmt.Sprintf("%s records %s=%s but the run's %s is %s: the run's value is recorded, the file's kept as label %s",
		m.Path, m.Recorded, m.RecordedValue, m.Param, m.Value, m.Label)
}

// Stamp makes tr a trial of run r, whatever its result file holds: its
// parameters are the run's configuration (each value as
// search.Value.String renders it), its labels get the run's (LabelRun,
// LabelTrial, LabelRole, LabelSession) and its session the run's
// (SessionName). Of the parameters the file recorded, those that describe
// the run rather than the server (repeat.IsRunParam: dates, request
// counts, load settings) stay parameters unless the run has one of that
// name; every other one is kept as the label LabelFilePrefix+NAME, so
// that no value read from a file changes the configuration's identity.
// The workload (tr.Workload) and the environment labels (engine, version,
// GPU) stay the file's. Stamp returns the file's parameters that name a
// parameter of the run (as it is, or under a server-settings prefix such
// as server_args., dashes read as underscores) with another value.
func Stamp(tr *trial.Trial, r Run) []Mismatch {
	file := tr.Params
	tr.Params = make(map[string]string, len(r.Config)+len(file))
	for name, v := range r.Config {
		tr.Params[name] = v.String()
	}
	var out []Mismatch
	for _, k := range slices.Sorted(maps.Keys(file)) {
		v := file[k]
		name, ok := runParam(k, r)
		if !ok && repeat.IsRunParam(k) {
			tr.Params[k] = v
			continue
		}
		label := LabelFilePrefix + k
		tr.SetLabel(label, v)
		if ok && !sameValue(v, tr.Params[name]) {
			out = append(out, Mismatch{Param: name, Value: tr.Params[name], Recorded: k, RecordedValue: tr.Labels[label],
				Label: label, Path: tr.Source.Path})
		}
	}
	if tr.Labels == nil {
		tr.Labels = map[string]string{}
	}
	tr.Labels[LabelRun] = strconv.FormatInt(r.ID, 10)
	tr.Labels[LabelTrial] = strconv.Itoa(r.Trial)
	tr.Labels[LabelRole] = r.Role
	tr.Labels[LabelSession] = strconv.Itoa(r.Session)
	tr.Source.Session = SessionName(r.Session)
	return out
}

// runParam returns the parameter of run r that the file's parameter k
// names: k itself, or k without a server-settings prefix, with dashes as
// underscores.
func runParam(k string, r Run) (string, bool) {
	candidates := []string{k}
	for _, p := range serverPrefixes {
		if rest, ok := strings.CutPrefix(k, p); ok {
			candidates = append(candidates, rest)
		}
	}
	for _, c := range candidates {
		for _, name := range []string{c, strings.ReplaceAll(c, "-", "_")} {
			if _, ok := r.Config[name]; ok {
				return name, true
			}
		}
	}
	return "", false
}

// sameValue reports whether a file's value is the run's: the same text,
// the same number or the same boolean.
func sameValue(file, run string) bool {
	file = strings.TrimSpace(file)
	if file == run {
		return true
	}
	if a, err := strconv.ParseFloat(file, 64); err == nil {
		b, err := strconv.ParseFloat(run, 64)
		return err == nil && a == b
	}
	a, err1 := strconv.ParseBool(file)
	b, err2 := strconv.ParseBool(run)
	return err1 == nil && err2 == nil && a == b
}
