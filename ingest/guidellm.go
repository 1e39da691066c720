package ingest

import (
	"regexp"

	"github.com/pareto-llm/pareto/trial"
)

// readGuideLLM reads a guidellm report v2: one trial per benchmark; the
// top-level metadata and config are shared by all of them.
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
		b.t.SetLabel(trial.LabelModel, firstOf(shared, "config.spec.backend.model", "config.backend.model"))
		b.t.Source.FormatVersion = "report-v2"
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
		case "config":
			return j.flatten("benchmark", func(k, v string) {
				b.t.SetParam(k, v)
				guidellmStrategy(b, k, v)
			})
		case "metrics":
			return j.object(key, func(m []byte) error { return guidellmMetric(j, b, string(m)) })
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
	}
	return b, err
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
