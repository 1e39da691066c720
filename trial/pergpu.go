package trial

import (
	"fmt"
	"strconv"
	"strings"
)

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
	EachPerGPU(d, func(p PerGPUMetric, gpus int, native string) {
		for _, m := range t.Measurements {
			if m.Metric == p.Of && PerGPUDims(m.Dims) {
				t.Measurements = append(t.Measurements, Measurement{Metric: p.Metric, Dims: m.Dims,
					Value: m.Value / float64(gpus), Unit: UnitTokPerSGPU, Native: native})
			}
		}
	}, func(warning string) { t.Warnings = append(t.Warnings, warning) })
}

// EachPerGPU goes through the per-GPU metrics in the order AddPerGPU adds
// them: derive gets each that deployment d gives a GPU count for, with
// the count and the Native name of its measurements; absent gets, for
// each other, the warning AddPerGPU gives the trial. A nil d calls
// neither.
func EachPerGPU(d *Deployment, derive func(p PerGPUMetric, gpus int, native string), absent func(warning string)) {
	if d == nil {
		return
	}
	for _, p := range perGPUMetrics {
		gpus, unknown := d.ServingGPUs, d.ServingGPUsUnknown
		if p.Allocated {
			gpus, unknown = d.AllocatedGPUs, d.AllocatedGPUsUnknown
		}
		if gpus <= 0 {
			absent(p.Metric + " absent: " + unknown)
			continue
		}
		derive(p, gpus, p.Of+" / "+strconv.Itoa(gpus)+" GPUs")
	}
}

// PerGPUDims reports whether a throughput measured with dims d has a
// per-GPU counterpart (AddPerGPU): no dims, or a statistic alone.
func PerGPUDims(d Dims) bool {
	return len(d) == 0 || len(d) == 1 && d[0].Key == DimStatistic
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

// GPUs is the GPUs that served a result read from a file, as a reading
// command's --gpus gives them: Total GPUs, in Replicas engine instances
// (replicas of the model, each serving whole requests) of Total/Replicas
// GPUs each when Replicas > 0 ("2x4"), else split in an unknown way ("8").
// The zero GPUs gives none.
type GPUs struct {
	Total, Replicas int
}

// maxGPUs bounds a GPU count given by hand.
const maxGPUs = 1 << 20

// ParseGPUs reads N (N GPUs) or RxG (R replicas of G GPUs each: R×G
// GPUs; "×" and "X" are accepted for "x"). Every count must be a positive
// integer, and the total at most 2^20.
func ParseGPUs(s string) (GPUs, error) {
	s = strings.TrimSpace(s)
	r, g, split := strings.Cut(strings.NewReplacer("×", "x", "X", "x").Replace(s), "x")
	count := func(part, what string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 || n > maxGPUs {
			return 0, fmt.Errorf("%q: %s must be a positive integer (at most %d)", s, what, maxGPUs)
		}
		return n, nil
	}
	if !split {
		n, err := count(s, "the GPU count")
		return GPUs{Total: n}, err
	}
	nr, err := count(r, "the replica count of RxG")
	if err != nil {
		return GPUs{}, err
	}
	ng, err := count(g, "the GPUs per replica of RxG")
	if err != nil {
		return GPUs{}, err
	}
	if nr*ng > maxGPUs {
		return GPUs{}, fmt.Errorf("%q: %d GPUs in all, more than %d", s, nr*ng, maxGPUs)
	}
	return GPUs{Total: nr * ng, Replicas: nr}, nil
}

// String renders g as ParseGPUs reads it ("8", "2x4"; "" for none).
func (g GPUs) String() string {
	switch {
	case g.Total <= 0:
		return ""
	case g.Replicas > 0:
		return fmt.Sprintf("%dx%d", g.Replicas, g.Total/g.Replicas)
	}
	return strconv.Itoa(g.Total)
}

// Deployment is the deployment g gives a trial of engine (nil for none):
// every GPU allocated and serving, and with Replicas a layout of one
// serving role of Replicas instances of Total/Replicas GPUs each, whose
// parallel sizes and nodes are unknown (0).
func (g GPUs) Deployment(engine string) *Deployment {
	if g.Total <= 0 {
		return nil
	}
	d := &Deployment{AllocatedGPUs: g.Total, ServingGPUs: g.Total}
	if g.Replicas > 0 {
		d.Layout = &Layout{Engine: engine, Roles: []LayoutRole{{Name: "serving", Instances: g.Replicas,
			GPUsPerInstance: g.Total / g.Replicas}}}
	}
	return d
}
