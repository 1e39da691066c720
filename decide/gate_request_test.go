package decide_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// The RunGate tests read their inputs from the command's scripts
// (internal/cli/testdata/script/gate_*.txtar), so that the library is held
// to the verdicts the command prints.

// scriptFiles returns the files of one of the command's scripts.
// scriptKey holds, in scriptFiles' map, the script's name.
const scriptKey = "\x00script"

func scriptFiles(t *testing.T, script string) map[string][]byte {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "internal", "cli", "testdata", "script", script+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{scriptKey: []byte(script)}
	for _, f := range a.Files {
		files[f.Name] = f.Data
	}
	return files
}

// gateStudy opens a new SQLite store holding study "t" with the script's
// base.jsonl labelled role=baseline, as "pareto ingest --label" records it.
func gateStudy(t *testing.T, files map[string][]byte) store.Selecting {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pareto.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	base := readSource(t, files, "base.jsonl")
	for i := range base.Trials {
		base.Trials[i].SetLabel("role", "baseline")
		base.Trials[i].Finalize()
		base.Trials[i].Source.Session = "base" // as the scripts' pareto ingest --session base
	}
	if _, _, err := st.Ingest(context.Background(), "t", base.Path, base.Trials); err != nil {
		t.Fatal(err)
	}
	return store.Selecting{Store: st}
}

// readSource reads one file of the script as the command reads a path.
func readSource(t *testing.T, files map[string][]byte, name string) decide.Source {
	t.Helper()
	data, ok := files[name]
	if !ok {
		t.Fatalf("script has no file %s", name)
	}
	// Trial IDs hash the file's name from its directory's parent: the
	// script's work directory is named script-NAME, as testscript names it.
	dir := filepath.Join(t.TempDir(), "script-"+string(files[scriptKey]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ingest.Load([]string{p}, ingest.LoadOptions{})
	if err != nil || len(d.Trials) == 0 {
		t.Fatalf("reading %s: %d trials, %v", name, len(d.Trials), err)
	}
	return decide.Source{Path: p, Trials: d.Trials}
}

// gateRequest is the scripts' question: candidate files against
// role=baseline on throughput (+3%) and TTFT p99 (-5%).
func gateRequest(t *testing.T, files map[string][]byte, candidates ...string) decide.GateRequest {
	t.Helper()
	sel, err := repeat.ParseSelection("role=baseline")
	if err != nil {
		t.Fatal(err)
	}
	req := decide.GateRequest{Study: "t", Baseline: decide.GateSide{Selection: sel}, Gate: decide.GateConfig{
		Objectives: []frontier.Objective{
			{Name: "output_token_throughput", Direction: frontier.Maximize, Noise: 0.03, MinImprove: 0.03},
			{Name: "ttft.p99", Direction: frontier.Minimize, Noise: 0.05, MinImprove: 0.05},
		},
		// One look (pareto gate --max-runs 3 --max-baseline-runs 3): the
		// fixtures' 3 candidate and 5 baseline runs per workload are all
		// the runs there will be.
		MinRepeats: 3, Confidence: 0.99, Futility: 0.8, MaxRuns: 3, MaxBaselineRuns: 3,
	}}
	req.Candidate.Name = strings.Join(candidates, " ")
	for _, c := range candidates {
		req.Candidate.Sources = append(req.Candidate.Sources, readSource(t, files, c))
	}
	return req
}

// verdictJSON encodes v as the command writes it.
func verdictJSON(t *testing.T, v decide.Verdict) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// stored returns the study's trials matching cond.
func stored(t *testing.T, st store.Selecting, cond string) []trial.Trial {
	t.Helper()
	var where []trial.Condition
	if cond != "" {
		c, err := trial.ParseCondition(cond)
		if err != nil {
			t.Fatal(err)
		}
		where = append(where, c)
	}
	ts, err := st.Select(context.Background(), "t", where)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestRunGateArchive follows gate_admit.txtar: the library's verdict is the
// command's byte for byte, the admitted candidate is labelled and joins
// the archive, and a later candidate indistinguishable from the baseline
// is beaten by it.
func TestRunGateArchive(t *testing.T) {
	ctx := context.Background()
	files := scriptFiles(t, "gate_admit")
	st := gateStudy(t, files)
	for run := range 2 { // the same question gets the same bytes
		v, err := decide.RunGate(ctx, st, gateRequest(t, files, "good.jsonl"))
		if err != nil {
			t.Fatalf("RunGate(good.jsonl) #%d: %v", run+1, err)
		}
		if got, want := verdictJSON(t, v), files["admit.json"]; !bytes.Equal(got, want) {
			t.Fatalf("RunGate(good.jsonl) #%d =\n%s\nwant (the command's admit.json)\n%s", run+1, got, want)
		}
	}
	if got := len(stored(t, st, "")); got != 16 {
		t.Errorf("study holds %d trials; want 16 (10 baseline and 6 candidate runs, each once)", got)
	}
	admitted := stored(t, st, decide.AdmittedLabel+"="+decide.AdmittedValue)
	if len(admitted) != 6 {
		t.Fatalf("%d trials labelled %s=%s; want the candidate's 6", len(admitted), decide.AdmittedLabel, decide.AdmittedValue)
	}
	for _, tr := range admitted {
		if filepath.Base(tr.Source.Path) != "good.jsonl" {
			t.Errorf("admitted trial %s comes from %s; want good.jsonl", tr.ID, tr.Source.Path)
		}
	}

	v, err := decide.RunGate(ctx, st, gateRequest(t, files, "same.jsonl"))
	if err != nil {
		t.Fatalf("RunGate(same.jsonl): %v", err)
	}
	reasons := strings.Join(v.Reasons, "\n")
	if v.Decision != decide.Reject || !strings.Contains(reasons, "not better than the baseline") || !strings.Contains(reasons, "beaten by archive member key:") {
		t.Errorf("RunGate(same.jsonl) = %s %q; want reject, not better than the baseline and beaten by the archive", v.Decision, v.Reasons)
	}
	if len(v.Trials.Archive) != 6 || v.Trials.Archive[0] != "041c2cc6f09b6e36" {
		t.Errorf("RunGate(same.jsonl) archive trials %q; want the 6 admitted runs", v.Trials.Archive)
	}
	if got := len(stored(t, st, decide.AdmittedLabel+"="+decide.AdmittedValue)); got != 6 {
		t.Errorf("%d trials labelled admitted after a reject; want 6", got)
	}
}

// TestRunGateRefusals: the candidate of gate_reject.txtar is admitted on
// its numbers, but its runs are too short for steady state; the minimums
// turn the verdict into a reject, refusals first, and record no label.
func TestRunGateRefusals(t *testing.T) {
	ctx := context.Background()
	files := scriptFiles(t, "gate_reject")
	for _, tt := range []struct {
		name        string
		minDuration time.Duration
		minRequests int64
		noLabel     bool
		want        decide.Decision
		refusal     string
		labelled    int
	}{
		{name: "no-minimum", want: decide.Admit, labelled: 6},
		{name: "no-minimum-no-label", noLabel: true, want: decide.Admit},
		{name: "duration", minDuration: time.Minute, want: decide.Reject, refusal: "refused: duration 30s is below 1m0s"},
		{name: "requests", minRequests: 300, want: decide.Reject, refusal: "refused: 150 successful requests, below 300"},
		{name: "long-enough", minDuration: 20 * time.Second, minRequests: 100, want: decide.Admit, labelled: 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := gateStudy(t, files)
			req := gateRequest(t, files, "short.jsonl")
			req.MinDuration, req.MinRequests, req.NoLabel = tt.minDuration, tt.minRequests, tt.noLabel
			v, err := decide.RunGate(ctx, st, req)
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision != tt.want {
				t.Fatalf("RunGate = %s %q; want %s", v.Decision, v.Reasons, tt.want)
			}
			if tt.refusal != "" {
				if len(v.Reasons) < 6 || !strings.HasPrefix(v.Reasons[0], "run ") || !strings.HasSuffix(v.Reasons[0], tt.refusal) {
					t.Errorf("RunGate reasons %q; want the 6 runs refused first (%q)", v.Reasons, tt.refusal)
				}
			}
			if got, want := v.Thresholds.MinDuration, decide.Num(tt.minDuration.Seconds()); got != want {
				t.Errorf("Thresholds.MinDuration = %v; want %v", got, want)
			}
			if v.Thresholds.MinRequests != tt.minRequests {
				t.Errorf("Thresholds.MinRequests = %d; want %d", v.Thresholds.MinRequests, tt.minRequests)
			}
			if got := len(stored(t, st, decide.AdmittedLabel+"="+decide.AdmittedValue)); got != tt.labelled {
				t.Errorf("%d trials labelled admitted; want %d", got, tt.labelled)
			}
		})
	}
}

// TestRunGateSides covers how the sides are resolved: selections of stored
// trials, a baseline given as files, and the errors.
func TestRunGateSides(t *testing.T) {
	ctx := context.Background()
	files := scriptFiles(t, "gate_errors")
	selection := func(s string) decide.GateSide {
		sel, err := repeat.ParseSelection(s)
		if err != nil {
			t.Fatal(err)
		}
		return decide.GateSide{Selection: sel}
	}
	for _, tt := range []struct {
		name string
		// record lists files recorded in the study before the request.
		record []string
		change func(req *decide.GateRequest)
		// check inspects the verdict and the error.
		check func(t *testing.T, v decide.Verdict, err error)
	}{
		{"other-environment", nil, nil, func(t *testing.T, v decide.Verdict, err error) {
			var se *repeat.ScopeError
			if !errors.As(err, &se) || len(se.Diffs) != 1 || se.Diffs[0] != (repeat.ScopeDiff{Field: "engine_version", A: "0.7.0", B: "0.5.6"}) {
				t.Errorf("RunGate = %v; want a *ScopeError on engine_version 0.7.0 vs 0.5.6", err)
			}
			if v.Decision != decide.Refused || v.Code != decide.CodeRefusedScope {
				t.Errorf("RunGate verdict %s (%s); want refused (refused_scope)", v.Decision, v.Code)
			}
		}},
		{"allow-cross-scope", nil, func(req *decide.GateRequest) { req.AllowCrossScope = true }, func(t *testing.T, v decide.Verdict, err error) {
			if err != nil || v.Decision != decide.Admit || v.Baseline != "role=baseline" {
				t.Errorf("RunGate = %s (baseline %q), %v; want admit against role=baseline", v.Decision, v.Baseline, err)
			}
		}},
		{"baseline-as-files", nil, func(req *decide.GateRequest) {
			req.AllowCrossScope = true
			req.Baseline = decide.GateSide{Name: "base.jsonl", Sources: []decide.Source{readSource(t, files, "base.jsonl")}}
		}, func(t *testing.T, v decide.Verdict, err error) {
			// Recorded without the role label, base.jsonl's runs are 10 new
			// trials of the labelled baseline's configuration, re-benchmarked
			// in a new session: the baseline is its 10 runs of that session,
			// not pooled with the 10 earlier ones.
			if err != nil || v.Decision != decide.Admit || v.Baseline != "base.jsonl" || len(v.Trials.Baseline) != 10 ||
				len(v.BaselineSessions) != 1 || v.BaselineSessions[0] == "base" {
				t.Errorf("RunGate = %s (baseline %q, %d runs, sessions %q), %v; want admit against the 10 new baseline runs",
					v.Decision, v.Baseline, len(v.Trials.Baseline), v.BaselineSessions, err)
			}
		}},
		{"two-configurations", nil, func(req *decide.GateRequest) {
			req.Candidate = decide.GateSide{Name: "two.jsonl", Sources: []decide.Source{readSource(t, files, "two.jsonl")}}
		}, func(t *testing.T, _ decide.Verdict, err error) {
			var se *decide.SideError
			if !errors.As(err, &se) || len(se.Configs) != 2 || !strings.HasPrefix(se.Configs[0], "key:") {
				t.Errorf("RunGate = %v; want a *SideError naming 2 configurations", err)
			}
		}},
		{"no-match", nil, func(req *decide.GateRequest) { req.Candidate = selection("key:ffff") }, func(t *testing.T, _ decide.Verdict, err error) {
			var se *decide.SideError
			if !errors.As(err, &se) || len(se.Configs) != 0 || err.Error() != "candidate key:ffff matches no usable trial" {
				t.Errorf("RunGate = %v; want candidate key:ffff matches no usable trial", err)
			}
		}},
		{"candidate-is-baseline", nil, func(req *decide.GateRequest) { req.Candidate = selection("role=baseline") }, func(t *testing.T, _ decide.Verdict, err error) {
			if !errors.Is(err, decide.ErrCandidateIsBaseline) {
				t.Errorf("RunGate = %v; want ErrCandidateIsBaseline", err)
			}
		}},
		{"stored-candidate", []string{"v07.jsonl"}, func(req *decide.GateRequest) {
			req.AllowCrossScope = true
			req.Candidate = selection("engine_version=0.7.0")
			req.Where = []trial.Condition{{Key: "engine", Op: trial.OpEq, Value: "sglang"}}
		}, func(t *testing.T, v decide.Verdict, err error) {
			if err != nil || v.Decision != decide.Admit || len(v.Trials.Candidate) != 6 {
				t.Errorf("RunGate = %s (%d candidate runs), %v; want admit with 6", v.Decision, len(v.Trials.Candidate), err)
			}
		}},
		{"where-excludes-candidate", nil, func(req *decide.GateRequest) {
			req.Where = []trial.Condition{{Key: "engine_version", Op: trial.OpEq, Value: "0.5.6"}}
		}, func(t *testing.T, _ decide.Verdict, err error) {
			var se *decide.SideError
			if !errors.As(err, &se) {
				t.Errorf("RunGate = %v; want a *SideError (the candidate's runs are filtered out)", err)
			}
		}},
		{"no-study", nil, func(req *decide.GateRequest) { req.Study = "" }, func(t *testing.T, _ decide.Verdict, err error) {
			if err == nil || !strings.Contains(err.Error(), "no study") {
				t.Errorf("RunGate = %v; want a no study error", err)
			}
		}},
		{"unknown-study", nil, func(req *decide.GateRequest) {
			req.Study = "nosuch"
			req.Candidate = selection("key:ffff")
		}, func(t *testing.T, _ decide.Verdict, err error) {
			if !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("RunGate = %v; want store.ErrNoStudy", err)
			}
		}},
		{"no-candidate", nil, func(req *decide.GateRequest) { req.Candidate = decide.GateSide{} }, func(t *testing.T, _ decide.Verdict, err error) {
			if err == nil || !strings.Contains(err.Error(), "no candidate") {
				t.Errorf("RunGate = %v; want a no candidate error", err)
			}
		}},
		{"bad-objective", nil, func(req *decide.GateRequest) { req.Gate.Objectives[0].Name = "x{" }, func(t *testing.T, _ decide.Verdict, err error) {
			if err == nil {
				t.Errorf("RunGate with objective x{ = nil error; want one")
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := gateStudy(t, files)
			req := gateRequest(t, files, "v07.jsonl")
			for _, f := range tt.record {
				src := readSource(t, files, f)
				if _, _, err := st.Ingest(ctx, "t", src.Path, src.Trials); err != nil {
					t.Fatal(err)
				}
			}
			if tt.change != nil {
				tt.change(&req)
			}
			v, err := decide.RunGate(ctx, st, req)
			tt.check(t, v, err)
		})
	}
}

// TestRunGateRefusalRecordsNothing: a refused request (the candidate of
// gate_errors was measured on engine 0.7.0, the baseline only on 0.5.6)
// answers with a verdict whose code says why, and leaves the study as it
// was; allowed across scopes, the same request records the runs.
func TestRunGateRefusalRecordsNothing(t *testing.T) {
	ctx := context.Background()
	files := scriptFiles(t, "gate_errors")
	st := gateStudy(t, files)
	req := gateRequest(t, files, "v07.jsonl")
	v, err := decide.RunGate(ctx, st, req)
	var se *repeat.ScopeError
	if !errors.As(err, &se) || v.Decision != decide.Refused || v.Code != decide.CodeRefusedScope || len(v.ReasonCodes) != 1 {
		t.Fatalf("RunGate = %s (%s), %v; want refused_scope with a *ScopeError", v.Decision, v.Code, err)
	}
	if got := len(stored(t, st, "")); got != 10 {
		t.Errorf("after a refusal the study holds %d trials; want its 10", got)
	}
	req.AllowCrossScope, req.Session = true, "tries"
	if v, err = decide.RunGate(ctx, st, req); err != nil || v.Decision == decide.Refused || v.Session != "tries" {
		t.Fatalf("RunGate across scopes = %s (session %q), %v; want a decision in session tries", v.Decision, v.Session, err)
	}
	if got := len(stored(t, st, "session=tries")); got != len(req.Candidate.Sources[0].Trials) {
		t.Errorf("%d trials recorded in session tries; want the candidate's %d", got, len(req.Candidate.Sources[0].Trials))
	}
}
