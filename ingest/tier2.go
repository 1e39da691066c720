package ingest

import (
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// statObject reads {stat: number, ..., percentiles: {pNNN: number}} and adds
// one measurement per statistic. pct maps percentile key spellings
// (guidellm's p001 = p0.1); nil uses NormalizeStatistic.
func statObject(j *jreader, b *builder, native, unit string, pct map[string]string) error {
	if j.d.PeekKind() != '{' {
		return j.d.SkipValue()
	}
	return j.object(native, func(name []byte) error {
		key := string(name)
		if key == "percentiles" && j.d.PeekKind() == '{' {
			return j.object(key, func(p []byte) error { return statValueMember(j, b, native, unit, string(p), pct) })
		}
		if key == "count" || key == "total_sum" || key == "variance" || key == "mode" || key == "pdf" {
			return j.d.SkipValue()
		}
		return statValueMember(j, b, native, unit, key, nil)
	})
}

func statValueMember(j *jreader, b *builder, native, unit, key string, pct map[string]string) error {
	stat, ok := pct[key]
	if !ok {
		stat, ok = trial.NormalizeStatistic(key)
	}
	if !ok || j.d.PeekKind() == '{' || j.d.PeekKind() == '[' {
		return j.d.SkipValue()
	}
	v, ok, err := j.number(native + "." + key)
	if ok {
		b.addNative(native, stat, v, unit)
	}
	return err
}

// ipSummary says what an inference-perf summary_lifecycle_metrics.json is.
const ipSummary = "an inference-perf summary across all the stages of a run (no requested_rate): an aggregate, not a load point; each stage's report is a trial"

// readInferencePerf reads one inference-perf stage lifecycle report;
// latencies are in seconds. What the report is comes from its content,
// never its name: a stage's load_summary records the requested_rate of
// its load, the run's summary (across stages) none, and that summary is
// refused as no result (ipSummary).
func readInferencePerf(j *jreader) ([]trial.Trial, error) {
	b := newBuilder(trial.ToolInferencePerf, j.src, FormatInferencePerf)
	b.t.Source.FormatVersion = "stage"
	err := j.object("inference-perf report", func(name []byte) error {
		switch string(name) {
		case "load_summary":
			return ipLoad(j, b)
		case "successes":
			return ipSuccesses(j, b)
		case "failures":
			return j.object("failures", func(k []byte) error {
				if string(k) != "count" {
					return j.d.SkipValue()
				}
				v, ok, err := j.number("failures.count")
				if ok {
					b.setFailed(v)
					b.add(trial.ErrorRequestCount, nil, v, "requests", "failures.count")
				}
				return err
			})
		}
		return j.d.SkipValue()
	})
	if err != nil {
		return nil, err
	}
	if err := j.expectEnd(); err != nil {
		return nil, err
	}
	if _, ok := b.t.Params["load_summary.requested_rate"]; !ok {
		return nil, &NotResultError{Path: j.src.path, What: ipSummary}
	}
	return []trial.Trial{b.finish()}, nil
}

func ipLoad(j *jreader, b *builder) error {
	return j.object("load_summary", func(name []byte) error {
		key := string(name)
		switch key {
		case "requested_rate", "concurrency", "send_duration", "achieved_rate", "count":
		default:
			return j.d.SkipValue()
		}
		v, ok, err := j.number(key)
		if !ok {
			return err
		}
		b.t.SetParam("load_summary."+key, ftoa(v))
		switch key {
		case "requested_rate":
			b.t.Workload.RequestRate = v
		case "concurrency":
			b.t.Workload.Concurrency = v
		case "send_duration":
			b.add("send_duration", nil, v, "s", "load_summary.send_duration")
		case "achieved_rate":
			b.add("achieved_rate", nil, v, "requests/s", "load_summary.achieved_rate")
		}
		return nil
	})
}

func ipSuccesses(j *jreader, b *builder) error {
	return j.object("successes", func(name []byte) error {
		switch key := string(name); key {
		case "count":
			v, ok, err := j.number("successes.count")
			if ok {
				b.setSucceeded(v)
				b.add(trial.RequestCount, nil, v, "requests", "successes.count")
			}
			return err
		case "latency":
			return j.object(key, func(m []byte) error { return statObject(j, b, string(m), "s", nil) })
		case "throughput":
			return j.object(key, func(m []byte) error {
				unit := "tokens/s"
				if string(m) == "requests_per_sec" {
					unit = "requests/s"
				}
				v, ok, err := j.number(string(m))
				if ok {
					b.addNative(string(m), "", v, unit)
				}
				return err
			})
		case "prompt_len", "output_len":
			return statObject(j, b, key, "tokens", nil)
		}
		return j.d.SkipValue()
	})
}

// guidellmPct maps guidellm percentile keys to statistics.
var guidellmPct = map[string]string{
	"p001": "p0.1", "p01": "p1", "p05": "p5", "p10": "p10", "p25": "p25", "p50": "p50",
	"p75": "p75", "p90": "p90", "p95": "p95", "p99": "p99", "p999": "p99.9",
}

func guidellmUnit(metric string) string {
	switch {
	case strings.HasSuffix(metric, "_ms"):
		return "ms"
	case metric == "request_latency":
		return "s"
	case metric == "requests_per_second":
		return "requests/s"
	case strings.HasSuffix(metric, "_per_second"):
		return "tokens/s"
	case metric == "request_concurrency":
		return "requests"
	case strings.HasSuffix(metric, "_count"):
		return "tokens"
	}
	return ""
}
