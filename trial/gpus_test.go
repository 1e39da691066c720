package trial

import (
	"strings"
	"testing"
)

func TestParseGPUs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want GPUs
		str  string
		err  string
	}{
		{"8", GPUs{Total: 8}, "8", ""},
		{" 8 ", GPUs{Total: 8}, "8", ""},
		{"2x4", GPUs{Total: 8, Replicas: 2}, "2x4", ""},
		{"2X4", GPUs{Total: 8, Replicas: 2}, "2x4", ""},
		{"2×4", GPUs{Total: 8, Replicas: 2}, "2x4", ""},
		{"1x8", GPUs{Total: 8, Replicas: 1}, "1x8", ""},
		{"8x1", GPUs{Total: 8, Replicas: 8}, "8x1", ""},
		{"1048576", GPUs{Total: 1 << 20}, "1048576", ""},
		{"0", GPUs{}, "", `"0": the GPU count must be a positive integer`},
		{"-1", GPUs{}, "", `"-1": the GPU count must be a positive integer`},
		{"1048577", GPUs{}, "", `at most 1048576`},
		{"eight", GPUs{}, "", `"eight": the GPU count`},
		{"", GPUs{}, "", `"": the GPU count`},
		{"2x", GPUs{}, "", `the GPUs per replica of RxG`},
		{"x4", GPUs{}, "", `the replica count of RxG`},
		{"2x4x2", GPUs{}, "", `the GPUs per replica of RxG`},
		{"0x4", GPUs{}, "", `the replica count of RxG`},
		{"1024x2048", GPUs{}, "", `2097152 GPUs in all, more than 1048576`},
	} {
		got, err := ParseGPUs(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseGPUs(%q) error %v; want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want || got.String() != tt.str {
			t.Errorf("ParseGPUs(%q) = %+v (%q), %v; want %+v (%q)", tt.in, got, got.String(), err, tt.want, tt.str)
		}
		if back, err := ParseGPUs(got.String()); err != nil || back != got {
			t.Errorf("ParseGPUs(%q) = %+v, %v; want it back", got.String(), back, err)
		}
	}
}

func TestGPUsDeployment(t *testing.T) {
	if d := (GPUs{}).Deployment("vllm"); d != nil {
		t.Errorf("no GPUs gave %+v", d)
	}
	d := GPUs{Total: 8}.Deployment("vllm")
	if d.AllocatedGPUs != 8 || d.ServingGPUs != 8 || d.Layout != nil {
		t.Errorf("8 GPUs gave %+v", d)
	}
	d = GPUs{Total: 8, Replicas: 2}.Deployment("sglang")
	if d.AllocatedGPUs != 8 || d.ServingGPUs != 8 || d.Layout == nil || d.Layout.Engine != "sglang" || len(d.Layout.Roles) != 1 {
		t.Fatalf("2x4 gave %+v", d)
	}
	if r := d.Layout.Roles[0]; r.Name != "serving" || r.Instances != 2 || r.GPUsPerInstance != 4 || r.GPUs() != 8 || r.TP != 0 || r.NodesPerInstance != 0 {
		t.Errorf("2x4 role %+v", r)
	}
	// The per-GPU metrics divide by the total.
	tr := Trial{Measurements: []Measurement{{Metric: OutputTokenThroughput, Value: 800}}}
	AddPerGPU(&tr, d)
	found := 0
	for _, m := range tr.Measurements {
		if m.Metric == OutputTokenThroughputPerServe || m.Metric == OutputTokenThroughputPerAlloc {
			found++
			if m.Value != 100 {
				t.Errorf("%s = %v; want 800 / 8", m.Metric, m.Value)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d per-GPU output throughputs; want per serving and per allocated GPU", found)
	}
}
