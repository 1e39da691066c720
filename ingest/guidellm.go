package ingest

import (
	"math"
	"regexp"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// readGuideLLM reads a guidellm report v2, or the benchmarks report of
// guidellm before it (no metadata and config; each benchmark has args,
// run_stats, worker and request_loader instead of config): one trial per
// benchmark; the top-level metadata and config are shared by all of them.
func readGuideLLM(j *jreader) ([]trial.Trial, error) {
	shared := map[string]string{}
	var bs []*builder
	version := ""
	err := j.object("guidellm report", func(name []byte) error {
		switch key := string(name); key {
		case "metadata":
			return j.flatten("metadata", func(k, v string) {
				shared[k] = trial.RedactParam(k, v) // once, not per benchmark
				if k == "metadata.guidellm_version" {
					version = v
				}
			})
		case "config":
			return j.flatten("config", func(k, v string) { shared[k] = trial.RedactParam(k, v) })
		case "benchmarks":
			return j.array(key, func(i int) error {
				b, err := guidellmBenchmark(j, i)
				bs = append(bs, b)
				return err
			})
		}
		return j.d.SkipValue()
	})
	if err != nil {
		return nil, err
	}
	out := make([]trial.Trial, 0, len(bs))
	for _, b := range bs {
		if b.t.Params == nil && len(shared) > 0 {
			b.t.Params = make(map[string]string, len(shared)+16)
		}
		for k, v := range shared {
			b.t.Params[k] = v // redacted when read
		}
		b.t.SetLabel(trial.LabelToolVersion, version)
		model := firstOf(shared, "config.spec.backend.model", "config.backend.model")
		if model == "" {
			model = firstOf(b.t.Params, "benchmark.backend.model", "worker.backend_model")
		}
		b.t.SetLabel(trial.LabelModel, model)
		b.t.Source.FormatVersion = "report-v2"
		if _, pre := b.t.Params["worker.backend_type"]; pre && len(shared) == 0 {
			b.t.Source.FormatVersion = "benchmarks-pre-v2"
		}
		guidellmWorkload(b)
		out = append(out, b.finish())
	}
	return out, j.expectEnd()
}

func guidellmBenchmark(j *jreader, i int) (*builder, error) {
	b := newBuilder(trial.ToolGuideLLM, j.src, FormatGuideLLM)
	b.t.Source.Index = i
	b.t.SetLabel(trial.LabelStage, itoa(int64(i)))
	err := j.object("benchmark", func(name []byte) error {
		switch key := string(name); key {
		case "config", "args": // args: before report v2
			return j.flatten("benchmark", func(k, v string) {
				if strings.HasPrefix(k, "benchmark.profile.measured_") || strings.HasPrefix(k, "benchmark.profile.completed_") {
					return // what the sweep measured so far, not how it was configured
				}
				b.t.SetParam(k, v)
				guidellmStrategy(b, k, v)
			})
		case "worker": // before report v2: the client backend and the model
			return j.flatten("worker", func(k, v string) {
				if !strings.HasPrefix(k, "worker.backend_info.") {
					b.t.SetParam(k, trial.RedactParam(k, v))
				}
			})
		case "request_loader": // before report v2: the data the requests were made from
			return j.flatten("request_loader", func(k, v string) { b.t.SetParam(k, trial.RedactParam(k, v)) })
		case "metrics":
			return j.object(key, func(m []byte) error { return guidellmMetric(j, b, string(m)) })
		case "request_totals": // before report v2: beside metrics, not in them
			return guidellmMetric(j, b, key)
		case "duration":
			v, ok, err := j.number(key)
			if ok {
				b.add(trial.Duration, nil, v, "s", key)
			}
			return err
		}
		return j.d.SkipValue()
	})
	switch prm := b.t.Params; prm["benchmark.strategy.type_"] {
	case "concurrent":
		b.t.Workload.Concurrency = num(firstOf(prm, "benchmark.strategy.streams", "benchmark.strategy.max_concurrency"))
	case "synchronous":
		b.t.Workload.Concurrency = 1
	case "throughput":
		// as fast as the server takes them: unbounded, +Inf as the
		// request_rate "inf" of vLLM and SGLang
		if b.t.Workload.RequestRate == 0 {
			b.t.Workload.RequestRate = math.Inf(1)
		}
	}
	return b, err
}

// guidellmWorkload sets the mean input and output lengths from the
// successful requests' prompt and output token counts, and gives the run's
// request and token throughputs (guidellm's mean over the run of the
// successful requests' rates, what its own report prints) as the plain
// measurements, so that output_token_throughput names one value.
func guidellmWorkload(b *builder) {
	var plain []trial.Measurement
	for _, m := range b.t.Measurements {
		if len(m.Dims) != 1 || m.Dims[0].Key != trial.DimStatistic || m.Dims[0].Value != "mean" {
			continue
		}
		switch m.Native {
		case "prompt_token_count":
			b.t.Workload.MeanInputTokens = m.Value
		case "output_token_count":
			b.t.Workload.MeanOutputTokens = m.Value
		case "requests_per_second", "output_tokens_per_second", "tokens_per_second":
			plain = append(plain, m)
		}
	}
	for _, m := range plain {
		b.add(m.Metric, nil, m.Value, guidellmUnit(m.Native), m.Native)
	}
}

var strategyKey = regexp.MustCompile(`^benchmark\.strategy\.(rate|max_concurrency|streams|type_)$`)

func guidellmStrategy(b *builder, k, v string) {
	m := strategyKey.FindStringSubmatch(k)
	if m == nil {
		return
	}
	switch m[1] {
	case "rate":
		b.t.Workload.RequestRate = num(v)
	}
}

// guidellmMetric reads {successful|errored|incomplete|total: stats}; only
// the successful distribution becomes measurements; request_totals gives
// the counts.
func guidellmMetric(j *jreader, b *builder, metric string) error {
	if metric == "request_totals" {
		return j.object(metric, func(k []byte) error {
			v, ok, err := j.number("request_totals." + string(k))
			if ok {
				switch string(k) {
				case "successful":
					b.setSucceeded(v)
				case "errored":
					b.setFailed(v)
				}
			}
			return err
		})
	}
	unit := guidellmUnit(metric)
	return j.object(metric, func(k []byte) error {
		if string(k) != "successful" {
			return j.d.SkipValue()
		}
		return statObject(j, b, metric, unit, guidellmPct)
	})
}
