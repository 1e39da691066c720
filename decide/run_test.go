package decide_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// scriptTrials reads files of one of the command's scripts; those in
// baseline get the label role=baseline, as "pareto ingest --label" sets it.
func scriptTrials(t *testing.T, script string, baseline []string, others ...string) []trial.Trial {
	t.Helper()
	files := scriptFiles(t, script)
	var ts []trial.Trial
	for _, name := range baseline {
		src := readSource(t, files, name)
		for i := range src.Trials {
			src.Trials[i].SetLabel("role", "baseline")
			src.Trials[i].Finalize()
		}
		ts = append(ts, src.Trials...)
	}
	for _, name := range others {
		ts = append(ts, readSource(t, files, name).Trials...)
	}
	return ts
}

func mustSelection(t *testing.T, s string) repeat.Selection {
	t.Helper()
	sel, err := repeat.ParseSelection(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// TestRunDrift follows drift_basic.txtar: the baseline on engine 0.5.6 and
// 0.6.0, compared oldest first unless the environments are named.
func TestRunDrift(t *testing.T) {
	ts := scriptTrials(t, "drift_basic", []string{"b056.jsonl", "b060.jsonl"}, "configs.jsonl")
	objs := []frontier.Objective{
		{Name: "output_token_throughput", Direction: frontier.Maximize, Noise: 0.03, MinImprove: 0.03},
		{Name: "ttft.p99", Direction: frontier.Minimize, Noise: 0.1, MinImprove: 0.1},
	}
	base := func() decide.DriftRequest {
		return decide.DriftRequest{Baseline: mustSelection(t, "role=baseline"), Objectives: objs, Confidence: 0.95}
	}

	rep, err := decide.RunDrift(ts, base())
	if err != nil {
		t.Fatal(err)
	}
	if rep.From.EngineVersion != "0.5.6" || rep.To.EngineVersion != "0.6.0" || len(rep.Differs) != 1 || rep.Baseline != "role=baseline" {
		t.Errorf("RunDrift = from %s to %s (differs %v, baseline %q); want 0.5.6 to 0.6.0 on engine_version", rep.From, rep.To, rep.Differs, rep.Baseline)
	}
	// The command's want.txt: concurrency=8 throughput 900.6 -> 960.2,
	// improved; TTFT unchanged; likewise at concurrency=32.
	if len(rep.Workloads) != 2 {
		t.Fatalf("RunDrift workloads = %d; want 2", len(rep.Workloads))
	}
	for _, w := range rep.Workloads {
		if w.FromRuns != 5 || w.ToRuns != 5 || w.Objectives[0].Verdict != decide.Improved || w.Objectives[1].Verdict != decide.Unchanged {
			t.Errorf("RunDrift on %s = %d→%d runs, %s/%s; want 5→5, improved/unchanged", w.Workload, w.FromRuns, w.ToRuns, w.Objectives[0].Verdict, w.Objectives[1].Verdict)
		}
	}
	if w := rep.Workloads[0]; !strings.HasSuffix(w.Workload, "concurrency=8") || w.Objectives[0].From != 900.6 || w.Objectives[0].To != 960.2 {
		t.Errorf("RunDrift first workload %s throughput %v→%v; want concurrency=8, 900.6→960.2", w.Workload, w.Objectives[0].From, w.Objectives[0].To)
	}

	for _, tt := range []struct {
		name   string
		change func(*decide.DriftRequest)
		check  func(t *testing.T, rep decide.DriftReport, err error)
	}{
		{"reversed", func(r *decide.DriftRequest) {
			r.From, r.To = mustSelection(t, "engine_version=0.6.0"), mustSelection(t, "engine_version=0.5.6")
		}, func(t *testing.T, rep decide.DriftReport, err error) {
			if err != nil || rep.From.EngineVersion != "0.6.0" || rep.Workloads[0].Objectives[0].Verdict != decide.Regressed {
				t.Errorf("RunDrift(0.6.0 → 0.5.6) = from %s, %v; want from 0.6.0, throughput regressed", rep.From, err)
			}
		}},
		{"one-environment", func(r *decide.DriftRequest) { r.Baseline = mustSelection(t, "tag=try") }, func(t *testing.T, _ decide.DriftReport, err error) {
			var ee *decide.EnvironmentsError
			if !errors.As(err, &ee) || len(ee.Scopes) != 1 || !strings.HasPrefix(err.Error(), "the baseline was measured in 1 environments (") {
				t.Errorf("RunDrift(tag=try) = %v; want an *EnvironmentsError with 1 environment", err)
			}
		}},
		{"from-only", func(r *decide.DriftRequest) { r.From = mustSelection(t, "engine_version=0.6.0") }, func(t *testing.T, _ decide.DriftReport, err error) {
			if err == nil || !strings.Contains(err.Error(), "give both") {
				t.Errorf("RunDrift(from only) = %v; want give both environments", err)
			}
		}},
		{"from-matches-none", func(r *decide.DriftRequest) {
			r.From, r.To = mustSelection(t, "engine_version=0.4"), mustSelection(t, "engine_version=0.5.6")
		}, func(t *testing.T, _ decide.DriftReport, err error) {
			if err == nil || err.Error() != `"engine_version=0.4" selects the baseline in 0 environments; want one` {
				t.Errorf("RunDrift(from 0.4) = %v; want selects the baseline in 0 environments", err)
			}
		}},
		{"no-baseline", func(r *decide.DriftRequest) { r.Baseline = mustSelection(t, "role=nosuch") }, func(t *testing.T, _ decide.DriftReport, err error) {
			if err == nil || err.Error() != `baseline "role=nosuch" matches no trial` {
				t.Errorf("RunDrift(role=nosuch) = %v; want matches no trial", err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := base()
			tt.change(&req)
			rep, err := decide.RunDrift(ts, req)
			tt.check(t, rep, err)
		})
	}
}

// TestRunNoise follows noise_basic.txtar.
func TestRunNoise(t *testing.T) {
	ts := scriptTrials(t, "noise_basic", []string{"b056.jsonl", "b060.jsonl"}, "configs.jsonl")
	for _, tt := range []struct {
		name       string
		metrics    []string
		minRepeats int
		wantFew    bool
	}{
		{"three-repeats", []string{"output_token_throughput", "ttft.p99"}, 3, true},
		{"two-repeats", []string{"ttft.p99"}, 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := decide.RunNoise(ts, decide.NoiseRequest{Metrics: tt.metrics, Confidence: 0.95, MinRepeats: tt.minRepeats})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Configurations != 8 || len(rep.Metrics) != len(tt.metrics) {
				t.Fatalf("RunNoise = %d configurations, %d metrics; want 8, %d", rep.Configurations, len(rep.Metrics), len(tt.metrics))
			}
			m := rep.Metrics[0]
			if m.Name != tt.metrics[0] || m.Configs != 8 || m.DF != 22 || !(m.Low < m.CV && m.CV < m.High && m.Band >= 2*m.High) {
				t.Errorf("RunNoise %s = %+v; want 8 configs, 22 df, low < cv < high, band >= 2 high", m.Name, m)
			}
			if (len(rep.Few) > 0) != tt.wantFew {
				t.Errorf("RunNoise few repeats = %v; want some: %v", rep.Few, tt.wantFew)
			}
			for _, f := range rep.Few {
				if f.N >= tt.minRepeats {
					t.Errorf("RunNoise lists %s with %d repeats among those with fewer than %d", f.Config, f.N, tt.minRepeats)
				}
			}
		})
	}
	if _, err := decide.RunNoise(ts, decide.NoiseRequest{Metrics: []string{"ttft{"}, Confidence: 0.95}); err == nil {
		t.Errorf("RunNoise(ttft{) = nil error; want one")
	}
}
