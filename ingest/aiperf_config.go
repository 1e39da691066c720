package ingest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// telemetry reads AIPerf telemetry_data: per endpoint and GPU metric blocks
// become measurements with "endpoint" and "gpu" dims; the first GPU name
// becomes the gpu label, and the number of GPU blocks the gpu_count label.
func (p *perfJSON) telemetry() bool {
	t := p.t
	if t.kind() != '{' {
		return t.skip()
	}
	return p.object("telemetry_data", func(name []byte) bool {
		if string(name) != "endpoints" || t.kind() != '{' {
			return t.skip()
		}
		return p.object("endpoints", func(ep []byte) bool {
			endpoint := string(ep)
			return p.object(endpoint, func(name []byte) bool {
				if string(name) != "gpus" || t.kind() != '{' {
					return t.skip()
				}
				return p.object("gpus", func(gpu []byte) bool { return p.gpu(endpoint, string(gpu)) })
			})
		})
	})
}

func (p *perfJSON) gpu(endpoint, gpu string) bool {
	t := p.t
	p.gpus++
	key := p.dims.key(keyGPU, trial.Dims{{Key: "endpoint", Value: endpoint}}, gpu)
	dims, ok := p.dims.get(key)
	if !ok {
		dims = trial.Dims{{Key: "endpoint", Value: endpoint}, {Key: trial.DimGPU, Value: gpu}}
		p.dims.put(key, dims)
	}
	return p.object(gpu, func(name []byte) bool {
		switch string(name) {
		case "gpu_name":
			v, set, ok := t.text()
			if set && p.b.t.Labels[trial.LabelGPU] == "" {
				p.b.setLabel(trial.LabelGPU, v)
			}
			return ok
		case "metrics":
			return p.object("metrics", func(m []byte) bool { return p.block(p.native(m), dims) })
		}
		return t.skip()
	})
}

// telemetryStats reads GenAI-Perf telemetry_stats: {metric: {unit, "0": {stats}, ...}}.
// Statistics that are no number are skipped.
func (p *perfJSON) telemetryStats() bool {
	t := p.t
	if t.kind() != '{' {
		return t.skip()
	}
	return p.object("telemetry_stats", func(m []byte) bool {
		metric := p.native(m)
		unit := ""
		if t.kind() != '{' {
			return t.skip()
		}
		return p.object(metric, func(k []byte) bool {
			if string(k) == "unit" {
				v, _, ok := t.text()
				unit = v
				return ok
			}
			if t.kind() != '{' {
				return t.skip()
			}
			dims := trial.Dims{{Key: trial.DimGPU, Value: string(k)}}
			p.stats = p.stats[:0]
			ok := p.object(metric, func(name []byte) bool {
				st, ok := lookupStat(name)
				if c := t.kind(); !ok || c == '{' || c == '[' {
					return t.skip()
				}
				return p.stat(st, metric, nil)
			})
			if ok {
				p.emit(metric, unit, dims)
			}
			return ok
		})
	})
}

func (p *perfJSON) finish() trial.Trial {
	b := p.b
	if p.gpus > 0 {
		b.setLabel(trial.LabelGPUCount, strconv.Itoa(p.gpus))
	}
	prm := b.t.Params
	g3 := prm["models.items.0.name"] != "" || prm["phases.0.name"] != "" || prm["phases.0.type"] != ""
	switch {
	case p.genai || prm["perf_analyzer.stimulus.concurrency"] != "" || prm["service_kind"] != "" || prm["subcommand"] != "":
		b.tool = trial.ToolGenAIPerf
		b.setLabel(trial.LabelTool, trial.ToolGenAIPerf)
		b.t.Source.Format = string(FormatGenAIPerfJSON)
		b.t.Source.FormatVersion = "flat-config"
		if _, nested := prm["model_names"]; nested || hasPrefix(prm, "perf_analyzer.") {
			b.t.Source.FormatVersion = "nested-config"
		}
		genaiWorkload(b)
	case p.hasRecords:
		b.t.Source.FormatVersion = aiperfG0
	case g3:
		b.t.Source.FormatVersion = aiperfG3
	case p.hasSchema:
		b.t.Source.FormatVersion = aiperfG2
	default:
		b.t.Source.FormatVersion = aiperfG1
	}
	if b.tool == trial.ToolAIPerf {
		aiperfWorkload(b, g3)
		if p.hasReq && b.t.Failed < 0 {
			b.t.Failed = 0 // error_request_count is written only when errors occurred
		}
	}
	measuredLengths(b)
	return b.finish()
}

func hasPrefix(m map[string]string, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// aiperfWorkload extracts the load point, model and lengths (FORMATS.md §2.5).
func aiperfWorkload(b *builder, g3 bool) {
	prm, w := b.t.Params, &b.t.Workload
	if g3 {
		profilingPhases(b)
	} else {
		w.Concurrency = num(prm["loadgen.concurrency"])
		w.RequestRate = num(prm["loadgen.request_rate"])
		w.Requests = int64(num(prm["loadgen.request_count"]))
	}
	if w.Concurrency == 0 && w.RequestRate == 0 {
		for _, k := range []string{"cli_command", "artifacts.cli_command", "run_info.cli_command"} {
			cliLoad(prm[k], w)
		}
	}
	model := firstOf(prm, "models.items.0.name", "endpoint.model_names")
	b.setLabel(trial.LabelModel, firstItem(model))
	b.setLabel(trial.LabelEndpoint, prm["endpoint.type"])
	w.InputTokens = num(firstOf(prm, "input.prompt.input_tokens.mean", "datasets.0.prompts.isl.mean"))
	w.OutputTokens = num(firstOf(prm, "input.prompt.output_tokens.mean", "datasets.0.prompts.osl.mean"))
}

// profilingPhases takes the load of the G3 profiling phase(s).
func profilingPhases(b *builder) {
	prm, w := b.t.Params, &b.t.Workload
	n := 0
	for i := 0; ; i++ {
		pre := "phases." + strconv.Itoa(i) + "."
		name, typ, kind := prm[pre+"name"], prm[pre+"type"], prm[pre+"kind"]
		if name == "" && typ == "" && kind == "" {
			break
		}
		if kind == "warmup" || prm[pre+"exclude_from_results"] == "true" || (kind == "" && name == "warmup") {
			continue
		}
		n++
		w.Concurrency = num(prm[pre+"concurrency"])
		if w.Concurrency == 0 && typ == "concurrency" {
			w.Concurrency = 1
		}
		w.RequestRate = num(prm[pre+"rate"])
		w.Users = num(prm[pre+"users"])
		w.Requests = int64(num(prm[pre+"requests"]))
		b.setLabel(trial.LabelPhase, name)
	}
	if n > 1 {
		b.t.Warnings = append(b.t.Warnings, strconv.Itoa(n)+" profiling phases: this root file aggregates them; prefer phases/<name>/profile_export_aiperf.json")
		delete(b.t.Labels, trial.LabelPhase)
	}
}

var cliFlags = regexp.MustCompile(`--(concurrency|request-rate|num-users)[ =]'?([0-9.]+|inf\b)`)

// cliLoad fills the load from an aiperf command line when the config lacks it.
func cliLoad(cmd string, w *trial.Workload) {
	for _, m := range cliFlags.FindAllStringSubmatch(cmd, -1) {
		v := num(m[2])
		switch m[1] {
		case "concurrency":
			w.Concurrency = v
		case "request-rate":
			w.RequestRate = v
		case "num-users":
			w.Users = v
		}
	}
}

// genaiWorkload extracts the load point of GenAI-Perf's flat or nested config.
func genaiWorkload(b *builder) {
	prm, w := b.t.Params, &b.t.Workload
	w.Concurrency = num(firstOf(prm, "perf_analyzer.stimulus.concurrency", "concurrency"))
	w.RequestRate = num(firstOf(prm, "perf_analyzer.stimulus.request_rate", "request_rate"))
	w.InputTokens = num(firstOf(prm, "input.synthetic_tokens.mean", "synthetic_input_tokens_mean"))
	w.OutputTokens = num(firstOf(prm, "input.output_tokens.mean", "output_tokens_mean"))
	b.setLabel(trial.LabelModel, firstItem(firstOf(prm, "model_names", "model")))
	b.setLabel(trial.LabelEngine, engineOf(firstOf(prm, "endpoint.backend", "backend")))
	b.setLabel(trial.LabelEndpoint, firstOf(prm, "endpoint.type", "endpoint_type"))
}

// measuredLengths copies the measured mean ISL/OSL into the workload.
func measuredLengths(b *builder) {
	if b.recs != nil {
		b.recs.measuredLengths(&b.t.Workload)
		return
	}
	for _, m := range b.t.Measurements {
		if len(m.Dims) != 1 || m.Dims[0].Value != "mean" {
			continue
		}
		switch m.Metric {
		case trial.InputSequenceLength:
			b.t.Workload.MeanInputTokens = m.Value
		case trial.OutputSequenceLength:
			b.t.Workload.MeanOutputTokens = m.Value
		}
	}
}

func firstOf(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v := m[k]; v != "" {
			return v
		}
	}
	return ""
}

func firstItem(list string) string {
	first, _, _ := strings.Cut(list, ",")
	return first
}

// num parses a param value; unknown or unparsable values are zero.
func num(s string) float64 {
	if s == "" {
		return 0
	}
	v, ok := parseFloatText(s)
	if !ok {
		return 0
	}
	return v
}
