package repeat

import (
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestConfigIgnoresRunParams: two AIPerf runs of one configuration differ
// in their start time, artifact directory and seed, not in configuration.
func TestConfigIgnoresRunParams(t *testing.T) {
	a := &trial.Trial{Params: map[string]string{"endpoint.type": "chat", "phases.0.concurrency": "8",
		"start_time": "2026-11-30T05:00:00", "artifacts.dir": "/runs/1", "random_seed": "1", "runtime.ui": "none"}}
	b := &trial.Trial{Params: map[string]string{"endpoint.type": "chat", "phases.0.concurrency": "8",
		"start_time": "2026-11-30T06:00:00", "artifacts.dir": "/runs/2", "random_seed": "2", "runtime.ui": "dashboard"}}
	if Config(a, nil) != Config(b, nil) {
		t.Errorf("runs differing only in run parameters have different configuration keys")
	}
	// AIPerf 0.11 (schema 1.3) records run_info: two trials of one sweep
	// variation, as in akamaslabs/vllm-benchmark @ 8846e6a
	// (studies/26-g7-4500-gpu-slice-right-sizing/results/aiperf-exp7-no-mig-repeat/concurrency_16/profile_export_aiperf.json).
	for i, tr := range []*trial.Trial{a, b} {
		tr.Params["run_info.benchmark_id"] = []string{"c8313bcd8f804e79a90adb28c8c733d6", "d9999bcd8f804e79a90adb28c8c733d6"}[i]
		tr.Params["run_info.trial"] = []string{"0", "1"}[i]
		tr.Params["run_info.run_label"] = []string{"run_0001", "run_0002"}[i]
		tr.Params["run_info.cli_command"] = []string{"aiperf profile --output-artifact-dir /b/aiperf-1", "aiperf profile --output-artifact-dir /b/aiperf-2"}[i]
	}
	if Config(a, nil) != Config(b, nil) {
		t.Errorf("two trials of one AIPerf sweep variation, differing in run_info, have different configuration keys")
	}
	c := &trial.Trial{Params: map[string]string{"endpoint.type": "chat", "phases.0.concurrency": "16"}}
	if Config(a, nil) == Config(c, nil) {
		t.Errorf("different concurrency settings share a configuration key")
	}
	d := &trial.Trial{Params: map[string]string{"x": "1"}, Labels: map[string]string{"config": "tp4"}}
	e := &trial.Trial{Params: map[string]string{"x": "2"}, Labels: map[string]string{"config": "tp4"}}
	if Config(d, []string{"config"}) != Config(e, []string{"config"}) {
		t.Errorf("--config-key naming a label does not identify the configuration by it")
	}
}
