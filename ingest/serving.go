package ingest

import (
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Shared reading of vLLM bench serve and SGLang bench_serving records: flat
// objects of setup keys, result scalars, "<stat>_<metric>_ms" statistics and
// per-request arrays (skipped).

// servingScalars maps the known result scalars to their source unit.
var servingScalars = map[string]string{
	"duration":                        "s",
	"completed":                       "requests",
	"failed":                          "requests",
	"total_input_tokens":              "tokens",
	"total_output_tokens":             "tokens",
	"total_output_tokens_retokenized": "tokens",
	"total_input_text_tokens":         "tokens",
	"total_input_vision_tokens":       "tokens",
	"request_throughput":              "requests/s",
	"request_goodput":                 "requests/s",
	"request_goodput:":                "requests/s",
	"output_throughput":               "tokens/s",
	"input_throughput":                "tokens/s",
	"total_token_throughput":          "tokens/s",
	"total_throughput":                "tokens/s",
	"output_throughput_retokenized":   "tokens/s",
	"total_throughput_retokenized":    "tokens/s",
	"max_output_tokens_per_s":         "tokens/s",
	"max_concurrent_requests":         "requests",
	"concurrency":                     "requests",
	"accept_length":                   "",
	"rtfx":                            "",
	// vLLM bench serve with speculative decoding: outcomes of the run, not
	// its configuration (as parameters they would split its repeats).
	"spec_decode_acceptance_length": "",
	"spec_decode_acceptance_rate":   "%",
	"spec_decode_accepted_tokens":   "tokens",
	"spec_decode_draft_tokens":      "tokens",
	"spec_decode_num_drafts":        "",
}

// servingArrays are per-request arrays, skipped without being held.
var servingArrays = map[string]bool{
	"input_lens": true, "output_lens": true, "ttfts": true, "itls": true,
	"generated_texts": true, "errors": true, "start_times": true, "rps_change_events": true,
	"spec_decode_per_position_acceptance_rates": true, // per draft position, not a setting
}

// servingRecord reads one vLLM or SGLang result object through t: the
// fast scanner, which gives up (ok=false) on anything unusual, or the
// jsontext reader, which keeps the positioned error (jsonTokens).
type servingRecord struct {
	b                    *builder
	j                    *jreader   // the file's plans and memo
	t                    perfTokens // the record's values
	p                    *perfJSON  // flattens parameters through t
	completed, numPrompt float64
	inTok, outTok        float64
	medianTPOT           float64
	hasFailed            bool
}

// parseServingStat splits "p99.9_ttft_ms" into ("p99.9", "ttft", "ms"):
// the unit is the key's suffix, _ms or _s (seconds, converted), and ""
// for a latency keyed without one ("p99_ttft"), which the reader refuses
// rather than guess.
func parseServingStat(key string) (stat, metric, unit string, ok bool) {
	rest := key
	switch {
	case strings.HasSuffix(key, "_ms"):
		rest, unit = key[:len(key)-3], "ms"
	case strings.HasSuffix(key, "_s"):
		rest, unit = key[:len(key)-2], "s"
	}
	i := strings.IndexByte(rest, '_')
	if i <= 0 || i >= len(rest)-1 {
		return "", "", "", false
	}
	stat, ok = trial.NormalizeStatistic(rest[:i])
	if !ok {
		return "", "", "", false
	}
	metric = rest[i+1:]
	if unit == "" && !servingLatencies[metric] {
		return "", "", "", false
	}
	return stat, metric, unit, true
}

// servingLatencies are the latencies of vLLM's and SGLang's statistics
// keys.
var servingLatencies = map[string]bool{"ttft": true, "tpot": true, "itl": true, "e2el": true, "e2e_latency": true}

// servingPlan is what a member name of a vLLM or SGLang record means,
// worked out once per file (jreader.plan): records of a file repeat the
// same names, and each name took several map lookups.
type servingPlan struct {
	key      string // the name, as a string
	label    string // vLLM setup key: the label it sets (vllmLabels)
	isLabel  bool
	setupNum bool // request_rate, max_concurrency, num_prompts
	kind     uint8
	metric   string     // planScalar, planStat: the canonical metric
	dims     trial.Dims // planStat: the statistic
	unit     unitConv   // planScalar, planStat: the unit normalisation
	p50TPOT  bool       // planStat: median TPOT, for the per-user rate
	near     string     // planParam: the known name this one is a near miss of (nearMiss)
	next     planNext   // the plans of the members that followed this one (planAfter)
	tmpl     int32      // planScalar, planStat: 1 + its measurement's template (appendMeasurement), 0 before
}

const (
	planParam uint8 = iota
	planScalar
	planStat
	planArray
	planNoUnit // a latency statistic keyed without its unit: refused
)

// plan returns the meaning of member name in a record of tool's.
func (j *jreader) plan(name []byte, b *builder) *servingPlan {
	if p, ok := j.plans[string(name)]; ok {
		return p
	}
	key := string(name)
	p := &servingPlan{key: key}
	if l, ok := vllmLabels[key]; ok && b.tool == trial.ToolVLLM {
		p.label, p.isLabel = l, true
	}
	switch key {
	case "request_rate", "max_concurrency", "num_prompts":
		p.setupNum = true
	}
	if unit, ok := servingScalars[key]; ok {
		p.kind, p.metric = planScalar, key
		if c, ok := trial.Canonical(b.tool, key); ok {
			p.metric = c
		}
		p.unit = b.units(p.metric, unit)
	} else if stat, metric, unit, ok := parseServingStat(key); ok {
		p.kind, p.metric, p.dims, p.p50TPOT = planStat, metric, trial.StatDims(stat), stat == "p50" && metric == "tpot"
		if c, ok := trial.Canonical(b.tool, metric); ok {
			p.metric = c
		}
		if unit == "" {
			p.kind = planNoUnit
		}
		p.unit = b.units(p.metric, unit)
	} else if servingArrays[key] {
		p.kind = planArray
	} else if !p.isLabel && !p.setupNum {
		p.near = servingNearMiss(key)
	}
	if j.plans == nil {
		j.plans = map[string]*servingPlan{}
	}
	if len(j.plans) < 4096 {
		j.plans[key] = p
	}
	return p
}

// planNext holds the plans of the members that followed a member (or
// began a record) in the records before, the latest first: records of a
// file list their members in the same order, or alternate between a few
// layouts, so the plan of the next member is one of them (a comparison
// instead of a map lookup).
type planNext [2]*servingPlan

// planAfter is plan for the member after prev (nil: the first member of
// the record).
func (j *jreader) planAfter(prev *servingPlan, name []byte, b *builder) *servingPlan {
	next := &j.first
	if prev != nil {
		next = &prev.next
	}
	for _, p := range next {
		if p != nil && p.key == string(name) {
			return p
		}
	}
	p := j.plan(name, b)
	next[0], next[1] = p, next[0]
	return p
}

// member handles one top-level member; setup keys are handled by the
// caller-specific setup function first.
func (s *servingRecord) member(p *servingPlan) bool {
	switch p.kind {
	case planScalar:
		v, _, set, ok := s.t.number(p.key, nil)
		if !ok || !set {
			return ok
		}
		s.scalar(p.key, v)
		s.b.addUnitsIn(&p.tmpl, p.metric, nil, v, p.unit, p.key)
		return true
	case planStat:
		v, _, set, ok := s.t.number(p.key, nil)
		if !ok || !set {
			return ok
		}
		if p.p50TPOT {
			s.medianTPOT = v
		}
		s.b.addUnitsIn(&p.tmpl, p.metric, p.dims, v, p.unit, p.key) // Native: the full key, e.g. p99_ttft_ms
		return true
	case planArray:
		return s.t.skip()
	case planNoUnit:
		return s.noUnit(p.key)
	}
	if p.near != "" {
		s.b.t.Warnings = append(s.b.t.Warnings, nearWarning(p.key, p.near))
	}
	return s.param(p.key)
}

// noUnit refuses the latency key, keyed without its unit: the jsontext
// reader at its value's position; the scanner gives up.
func (s *servingRecord) noUnit(key string) bool {
	jt, ok := s.t.(*jsonTokens)
	if !ok {
		return false
	}
	j := jt.j
	raw, err := j.d.ReadValue()
	if err != nil {
		return jt.keep(err)
	}
	return jt.keep(j.src.errorAt(j.src.base+j.valueStart(raw), nil,
		"%s: a latency keyed without its unit (vLLM and SGLang write %s_ms): milliseconds or seconds? "+
			"pareto does not guess; rename the key with _ms or _s", key, key))
}

// scalar notes what the result scalar key tells about the run.
func (s *servingRecord) scalar(key string, v float64) {
	switch key {
	case "completed":
		s.completed = v
		s.b.setSucceeded(v)
	case "failed":
		s.hasFailed = true
		s.b.setFailed(v)
	case "total_input_tokens":
		s.inTok = v
	case "total_output_tokens":
		s.outTok = v
	case "concurrency":
		s.b.t.Workload.AchievedConcurrency = v
	}
}

// param stores an unknown member as a parameter: scalars as text, objects
// flattened, arrays of scalars joined. Unknown numbers are parameters, not
// measurements: in vLLM sweep files they are the swept overrides
// (max_num_seqs, ...), and the result keys of both tools are a closed set.
func (s *servingRecord) param(key string) bool {
	if c := s.t.kind(); c != '{' && c != '[' { // a scalar: flatten's, through the memo
		_, _, ok := s.paramText(key, false)
		return ok
	}
	s.p.path = append(s.p.path[:0], key...)
	return s.p.flatten(len(s.p.path), s.b.setParam)
}

// paramText reads a scalar as text (perfTokens.text) and, when it is set
// (and not empty, unless empty), makes it parameter key. A value a record
// before had for key (j.rec.memo) gives its string and its redaction with
// one lookup: records repeating their setup allocate nothing for it.
func (s *servingRecord) paramText(key string, empty bool) (v string, set, ok bool) {
	if c := s.t.kind(); c != '"' && (c < '0' || c > '9') {
		if v, set, ok = s.t.text(); set && (empty || v != "") {
			s.b.setParam(key, v)
		}
		return v, set, ok
	}
	raw, set, ok := s.t.textBytes()
	switch {
	case !ok || !set:
		return "", set, ok
	case len(raw) == 0 && !empty:
		return "", true, true
	}
	if m, found := memoText(s.j.rec.memo, key, raw); found {
		s.b.putParam(key, m.out)
		return m.raw, true, true
	}
	v = string(raw)
	s.b.setParam(key, v)
	return v, true, true
}

// setupNumber handles the load-point keys common to both tools.
func (s *servingRecord) setupNumber(key string) bool {
	if s.t.kind() == '"' {
		raw, _, ok := s.t.textBytes()
		if !ok {
			return false
		}
		v, isNum := parseFloatText(string(raw)) // "inf": no string kept
		if !isNum {
			s.b.setParam(key, string(raw)) // e.g. SGLang "trace"
			return true
		}
		s.b.setParamNum(key, v)
		if key == "request_rate" {
			s.b.t.Workload.RequestRate = v
		}
		return true
	}
	v, _, set, ok := s.t.number(key, nil)
	if !ok || !set {
		return ok
	}
	s.b.setParamNum(key, v)
	switch key {
	case "request_rate":
		s.b.t.Workload.RequestRate = v
	case "max_concurrency":
		s.b.t.Workload.Concurrency = v
	case "num_prompts":
		s.numPrompt = v
		s.b.t.Workload.Requests = int64(v)
	}
	return true
}

// members reads the members of the record object that follows (what
// names it in errors), handing each to fn with its plan; fn consumes the
// value.
func (s *servingRecord) members(what string, fn func(p *servingPlan) bool) bool {
	if !s.t.open(what, '{') {
		return false
	}
	var p *servingPlan
	for n := 0; ; n++ {
		name, more, ok := s.t.member(what, n)
		if !ok || !more {
			return ok
		}
		if p = s.j.planAfter(p, name, s.b); !fn(p) {
			return false
		}
	}
}

// finish derives what the tools leave implicit and builds the trial.
func (s *servingRecord) finish() trial.Trial {
	b := s.b
	if !s.hasFailed && s.numPrompt > 0 && b.known && s.numPrompt >= s.completed {
		b.setFailed(s.numPrompt - s.completed)
	}
	if s.completed > 0 {
		b.t.Workload.MeanInputTokens = s.inTok / s.completed
		b.t.Workload.MeanOutputTokens = s.outTok / s.completed
	}
	if s.medianTPOT > 0 {
		b.add(trial.OutputTokenThroughputPerUser, perUserDims, 1000/s.medianTPOT, trial.UnitTokPerSUser, "")
	}
	return b.finish()
}

// perUserDims marks the per-user rate derived as 1000/median TPOT, which is
// the median of the per-request rate (FORMATS.md §7.1).
var perUserDims = trial.Dims{{Key: trial.DimDerived, Value: "1000/tpot"}, {Key: trial.DimStatistic, Value: "p50"}}

// engineOf returns the serving engine a benchmark client's backend value
// names (vLLM and SGLang bench_serving --backend, GenAI-Perf's Triton
// backend), or "" for a backend that names only an API (openai,
// openai-chat, …): the engine label is the server, the backend stays a
// parameter.
func engineOf(backend string) string {
	b := strings.ToLower(strings.TrimSpace(backend))
	switch {
	case b == "vllm" || strings.HasPrefix(b, "vllm-"):
		return "vllm"
	case b == "sglang" || strings.HasPrefix(b, "sglang-"):
		return "sglang"
	case b == "tensorrt-llm" || b == "tensorrtllm" || b == "trt-llm" || b == "trtllm":
		return "tensorrt-llm"
	case b == "tgi", b == "lmdeploy", b == "deepspeed-mii", b == "scalellm", b == "dynamo", b == "llama.cpp":
		return b
	}
	return ""
}
