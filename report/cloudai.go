package report

import (
	"fmt"
	"os"
	"strconv"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/trial"
)

// LoadCloudAI reads a CloudAI scenario results directory into points: it
// walks the tree with cloudai.Walk, reads every run's result files (falling
// back to the run's other formats), labels each trial with its case,
// iteration, step, phase and benchmark, attaches the executed parameters,
// the serving layout and the executed TOML, and adds per-GPU throughputs
// (allocated and serving denominators). Failed runs and unreadable files
// become exclusions. The error is non-nil only when dir cannot be read.
func LoadCloudAI(dir string, opts cloudai.WalkOptions) ([]Trial, []Exclusion, error) {
	runs, wexcl, err := cloudai.Walk(dir, opts)
	if err != nil {
		return nil, nil, err
	}
	var out []Trial
	var excl []Exclusion
	for _, e := range wexcl {
		excl = append(excl, walkExclusion(e))
	}
	tomls := map[string]string{}
	for i := range runs {
		r := &runs[i]
		ts, err := readRun(r)
		if err != nil {
			excl = append(excl, runExclusion(r, ExcludeParseError, err.Error()))
			continue
		}
		toml, ok := tomls[r.ConfigPath]
		if !ok {
			b, _ := os.ReadFile(r.ConfigPath)
			toml, tomls[r.ConfigPath] = string(b), string(b)
		}
		for _, t := range ts {
			out = append(out, fromRun(r, t, toml))
		}
	}
	return out, excl, nil
}

// readRun reads a run's files, trying the fallbacks when a file fails.
func readRun(r *cloudai.Run) ([]trial.Trial, error) {
	var all []trial.Trial
	for _, f := range r.Files {
		ts, err := ingest.ReadFile(f.Path)
		if err != nil {
			ts, err = readFallback(r, err)
		}
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: no result files", r.Dir)
	}
	return all, nil
}

func readFallback(r *cloudai.Run, first error) ([]trial.Trial, error) {
	for _, f := range r.Fallbacks {
		if ts, err := ingest.ReadFile(f.Path); err == nil && len(ts) > 0 {
			return ts, nil
		}
	}
	return nil, first
}

// fromRun attaches a run's context to one trial.
func fromRun(r *cloudai.Run, t trial.Trial, toml string) Trial {
	for k, v := range r.Labels {
		t.SetLabel(k, v)
	}
	t.SetLabel(trial.LabelTestCase, r.Case)
	t.SetLabel(trial.LabelIteration, strconv.Itoa(r.Iteration))
	if r.Step > 0 {
		t.SetLabel(trial.LabelStep, strconv.Itoa(r.Step))
	}
	if r.Phase != "" {
		t.Labels[trial.LabelPhase] = r.Phase
	} else {
		delete(t.Labels, trial.LabelPhase)
	}
	t.SetLabel(LabelBenchmark, r.Benchmark)
	for _, p := range r.Params {
		t.SetParam(p.Key, p.Value)
	}
	for _, p := range r.PhaseParams {
		t.SetParam("phase."+p.Key, p.Value)
	}
	t.Warnings = append(t.Warnings, r.Warnings...)
	rt := Trial{Trial: t, Layout: r.Layout, ConfigPath: r.ConfigPath, ConfigTOML: toml}
	perGPU(&rt, r)
	return rt
}

// perGPU derives the per-allocated-GPU and per-serving-GPU throughputs, or
// records why they are unavailable.
func perGPU(t *Trial, r *cloudai.Run) {
	derived := []struct {
		from, alloc, serve string
	}{
		{trial.OutputTokenThroughput, trial.OutputTokenThroughputPerAlloc, trial.OutputTokenThroughputPerServe},
		{trial.TotalTokenThroughput, trial.TotalTokenThroughputPerAlloc, trial.TotalTokenThroughputPerServe},
	}
	for _, d := range derived {
		for _, m := range t.Measurements {
			if m.Metric != d.from {
				continue
			}
			add(t, d.alloc, m, r.AllocatedGPUs, r.AllocatedGPUsUnknown)
			add(t, d.serve, m, r.ServingGPUs, r.ServingGPUsUnknown)
		}
	}
	t.Sort()
}

// add appends m divided by gpus as metric key, or notes why it cannot.
func add(t *Trial, key string, m trial.Measurement, gpus int, unknown string) {
	if gpus <= 0 {
		if t.Unavailable == nil {
			t.Unavailable = map[string]string{}
		}
		t.Unavailable[key] = unknown
		return
	}
	t.Measurements = append(t.Measurements, trial.Measurement{Metric: key, Dims: m.Dims,
		Value: m.Value / float64(gpus), Unit: trial.UnitTokPerSGPU})
}

func walkExclusion(e cloudai.Exclusion) Exclusion {
	x := Exclusion{Case: e.Case, Phase: e.Phase, Path: e.Path, Code: e.Code, Reason: e.Reason}
	if e.Iteration >= 0 {
		x.Iteration = strconv.Itoa(e.Iteration)
	}
	if e.Step > 0 {
		x.Step = strconv.Itoa(e.Step)
	}
	return x
}

func runExclusion(r *cloudai.Run, code, reason string) Exclusion {
	x := Exclusion{Case: r.Case, Iteration: strconv.Itoa(r.Iteration), Phase: r.Phase, Path: r.Dir, Code: code, Reason: reason}
	if r.Step > 0 {
		x.Step = strconv.Itoa(r.Step)
	}
	return x
}
