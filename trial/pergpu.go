package trial

import "fmt"

// A PerGPUMetric is a throughput divided by a GPU count: Metric is Of per
// allocated GPU (nodes × GPUs per node) when Allocated, else per serving
// GPU (the GPUs holding model shards).
type PerGPUMetric struct {
	Metric, Of string
	Allocated  bool
}

// perGPUMetrics is the one table of per-GPU metrics: readers derive them
// (AddPerGPU), reports say why one is absent (PerGPUUnknown).
var perGPUMetrics = []PerGPUMetric{
	{OutputTokenThroughputPerAlloc, OutputTokenThroughput, true},
	{TotalTokenThroughputPerAlloc, TotalTokenThroughput, true},
	{OutputTokenThroughputPerServe, OutputTokenThroughput, false},
	{TotalTokenThroughputPerServe, TotalTokenThroughput, false},
}

// PerGPU returns the per-GPU metric named metric, if it is one.
func PerGPU(metric string) (PerGPUMetric, bool) {
	for _, m := range perGPUMetrics {
		if m.Metric == metric {
			return m, true
		}
	}
	return PerGPUMetric{}, false
}

// AddPerGPU adds to t, from its whole-run throughputs (each statistic), the
// per-GPU metrics its deployment d gives a GPU count for, and a warning
// with the reason for each it does not. A nil d adds nothing.
func AddPerGPU(t *Trial, d *Deployment) {
	if d == nil {
		return
	}
	for _, p := range perGPUMetrics {
		gpus, unknown := d.ServingGPUs, d.ServingGPUsUnknown
		if p.Allocated {
			gpus, unknown = d.AllocatedGPUs, d.AllocatedGPUsUnknown
		}
		if gpus <= 0 {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s absent: %s", p.Metric, unknown))
			continue
		}
		for _, m := range t.Measurements {
			plain := len(m.Dims) == 0 || len(m.Dims) == 1 && m.Dims[0].Key == DimStatistic
			if m.Metric == p.Of && plain {
				t.Measurements = append(t.Measurements, Measurement{Metric: p.Metric, Dims: m.Dims,
					Value: m.Value / float64(gpus), Unit: UnitTokPerSGPU,
					Native: fmt.Sprintf("%s / %d GPUs", m.Metric, gpus)})
			}
		}
	}
}

// PerGPUUnknown says why the per-GPU metric of t is absent: its GPU count
// is unknown, with the reason t's deployment records ("" when metric is
// no per-GPU metric or its count is known).
func PerGPUUnknown(t *Trial, metric string) string {
	p, ok := PerGPU(metric)
	switch {
	case !ok || t.Deployment == nil:
		return ""
	case p.Allocated && t.Deployment.AllocatedGPUs <= 0:
		return t.Deployment.AllocatedGPUsUnknown
	case !p.Allocated && t.Deployment.ServingGPUs <= 0:
		return t.Deployment.ServingGPUsUnknown
	}
	return ""
}
