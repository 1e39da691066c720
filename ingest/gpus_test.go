package ingest

import (
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestLoadGPUs: LoadOptions.GPUs gives a file's trials per-GPU metrics
// (allocated and serving alike), and without it AIPerf's telemetry gives
// the serving GPUs it saw and says why the allocated ones are absent.
func TestLoadGPUs(t *testing.T) {
	const vllm = "testdata/vllm/surajssd_llama33-70b_tp8_qps_inf.json"
	d, err := Load([]string{vllm}, LoadOptions{GPUs: trial.GPUs{Total: 8}})
	if err != nil || len(d.Trials) != 1 {
		t.Fatalf("%v, %d trials", err, len(d.Trials))
	}
	tr := d.Trials[0]
	out := findMeasurement(tr, trial.OutputTokenThroughput, "")
	for _, metric := range []string{trial.OutputTokenThroughputPerAlloc, trial.OutputTokenThroughputPerServe} {
		m := findMeasurement(tr, metric, "")
		if out == nil || m == nil || m.Value != out.Value/8 || m.Unit != trial.UnitTokPerSGPU {
			t.Errorf("%s = %+v, want %v / 8", metric, m, out)
		}
	}
	if tr.Deployment == nil || tr.Deployment.AllocatedGPUs != 8 || tr.Deployment.ServingGPUs != 8 {
		t.Errorf("deployment %+v", tr.Deployment)
	}

	const telemetry = "testdata/synthetic/synthetic_aiperf_g1_profile_export_aiperf.json"
	d, err = Load([]string{telemetry}, LoadOptions{})
	if err != nil || len(d.Trials) != 1 {
		t.Fatalf("%v, %d trials", err, len(d.Trials))
	}
	tr = d.Trials[0]
	n := tr.Labels[trial.LabelGPUCount]
	if n == "" || tr.Deployment == nil || tr.Deployment.ServingGPUs <= 0 || tr.Deployment.AllocatedGPUs != 0 {
		t.Fatalf("gpu_count %q, deployment %+v", n, tr.Deployment)
	}
	if m := findMeasurement(tr, trial.OutputTokenThroughputPerServe, ""); m == nil {
		t.Errorf("no %s from the telemetry's %s GPUs", trial.OutputTokenThroughputPerServe, n)
	}
	if why := trial.PerGPUUnknown(&tr, trial.OutputTokenThroughputPerAlloc); !strings.Contains(why, "not the GPUs allocated") {
		t.Errorf("per-allocated-GPU absent because %q, want the reason", why)
	}
	d, err = Load([]string{vllm}, LoadOptions{})
	if err != nil || d.Trials[0].Deployment != nil || findMeasurement(d.Trials[0], trial.OutputTokenThroughputPerServe, "") != nil {
		t.Errorf("without --gpus or telemetry: %v, deployment %+v", err, d.Trials[0].Deployment)
	}
}
