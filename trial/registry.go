package trial

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
)

// Metric describes a canonical metric key.
type Metric struct {
	// Key is the canonical key, e.g. "tpot".
	Key string
	// Unit is the normalised unit of its values.
	Unit string
	// Direction is the default optimisation direction.
	Direction frontier.Direction
	// Ranked is false for metrics that describe the workload rather than
	// its quality (sequence lengths, counts); they have no default direction.
	Ranked bool
	// Description says what is measured, by definition.
	Description string
}

// Canonical metric keys.
const (
	TTFT                          = "ttft"
	TTST                          = "ttst"
	TTFOT                         = "ttfot"
	TPOT                          = "tpot"
	ITL                           = "itl"
	E2EL                          = "e2el"
	OutputTokenThroughput         = "output_token_throughput"
	InputTokenThroughput          = "input_token_throughput"
	RequestThroughput             = "request_throughput"
	TotalTokenThroughput          = "total_token_throughput"
	OutputTokenThroughputPerUser  = "output_token_throughput_per_user"
	OutputTokenThroughputPerAlloc = "output_token_throughput_per_allocated_gpu"
	OutputTokenThroughputPerServe = "output_token_throughput_per_serving_gpu"
	TotalTokenThroughputPerUser   = "total_token_throughput_per_user"
	TotalTokenThroughputPerAlloc  = "total_token_throughput_per_allocated_gpu"
	TotalTokenThroughputPerServe  = "total_token_throughput_per_serving_gpu"
	Goodput                       = "goodput"
	Accuracy                      = "accuracy"
	InputSequenceLength           = "input_sequence_length"
	OutputSequenceLength          = "output_sequence_length"
	RequestCount                  = "request_count"
	ErrorRequestCount             = "error_request_count"
	ErrorRate                     = "error_rate"
	Duration                      = "duration"
	AchievedConcurrency           = "achieved_concurrency"
)

// Normalised units.
const (
	UnitMs          = "ms"
	UnitTokensPerS  = "tokens/s"
	UnitReqPerS     = "requests/s"
	UnitTokPerSUser = "tokens/s/user"
	UnitTokPerSGPU  = "tokens/s/gpu"
	UnitTokens      = "tokens"
	UnitRequests    = "requests"
	UnitRatio       = "ratio"
)

const (
	lower  = frontier.Minimize
	higher = frontier.Maximize
)

var registry = map[string]Metric{}

func init() {
	for _, m := range []Metric{
		{TTFT, UnitMs, lower, true, "time to first token: first response minus request start"},
		{TTST, UnitMs, lower, true, "time to second token"},
		{TTFOT, UnitMs, lower, true, "time to first output (non-reasoning) token"},
		{TPOT, UnitMs, lower, true, "time per output token, per request (latency-ttft)/(osl-1); AIPerf/GenAI-Perf inter_token_latency"},
		{ITL, UnitMs, lower, true, "pooled gap between streamed chunks; vLLM/SGLang itl, AIPerf inter_chunk_latency"},
		{E2EL, UnitMs, lower, true, "end-to-end request latency"},
		{OutputTokenThroughput, UnitTokensPerS, higher, true, "output tokens per second, whole run"},
		{InputTokenThroughput, UnitTokensPerS, higher, true, "input tokens per second, whole run"},
		{RequestThroughput, UnitReqPerS, higher, true, "successful requests per second"},
		{TotalTokenThroughput, UnitTokensPerS, higher, true, "input plus output tokens per second"},
		{OutputTokenThroughputPerUser, UnitTokPerSUser, higher, true, "output tokens per second seen by one request (1/TPOT)"},
		{OutputTokenThroughputPerAlloc, UnitTokPerSGPU, higher, true, "output token throughput per allocated GPU (nodes x GPUs per node)"},
		{OutputTokenThroughputPerServe, UnitTokPerSGPU, higher, true, "output token throughput per GPU holding model shards"},
		{TotalTokenThroughputPerUser, UnitTokPerSUser, higher, true, "total token throughput per user"},
		{TotalTokenThroughputPerAlloc, UnitTokPerSGPU, higher, true, "total token throughput per allocated GPU"},
		{TotalTokenThroughputPerServe, UnitTokPerSGPU, higher, true, "total token throughput per serving GPU"},
		{Goodput, UnitReqPerS, higher, true, "requests per second meeting the goodput SLOs"},
		{Accuracy, UnitRatio, higher, true, "task accuracy in [0,1]"},
		{InputSequenceLength, UnitTokens, lower, false, "input tokens per request"},
		{OutputSequenceLength, UnitTokens, lower, false, "output tokens per request"},
		{RequestCount, UnitRequests, higher, false, "successful requests"},
		{ErrorRequestCount, UnitRequests, lower, true, "failed requests"},
		{ErrorRate, UnitRatio, lower, true, "failed / (succeeded + failed)"},
		{Duration, UnitMs, lower, false, "benchmark duration"},
		{AchievedConcurrency, UnitRequests, higher, false, "measured average number of requests in flight"},
	} {
		registry[m.Key] = m
	}
}

// Lookup returns the registry entry of a canonical key.
func Lookup(key string) (Metric, bool) {
	m, ok := registry[key]
	return m, ok
}

// Metrics returns every registry entry sorted by key.
func Metrics() []Metric {
	out := make([]Metric, 0, len(registry))
	for _, m := range registry {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Tool names used by Canonical and in the "tool" label.
const (
	ToolAIPerf        = "aiperf"
	ToolGenAIPerf     = "genai-perf"
	ToolVLLM          = "vllm"
	ToolSGLang        = "sglang"
	ToolInferencePerf = "inference-perf"
	ToolGuideLLM      = "guidellm"
	ToolLLMPerf       = "llmperf"
)

var aiperfNames = map[string]string{
	"time_to_first_token": TTFT, "ttft": TTFT,
	"time_to_second_token": TTST, "ttst": TTST,
	"time_to_first_output_token":          TTFOT,
	"inter_token_latency":                 TPOT,
	"inter_chunk_latency":                 ITL,
	"request_latency":                     E2EL,
	"output_token_throughput":             OutputTokenThroughput,
	"request_throughput":                  RequestThroughput,
	"total_token_throughput":              TotalTokenThroughput,
	"output_token_throughput_per_user":    OutputTokenThroughputPerUser,
	"output_token_throughput_per_request": OutputTokenThroughputPerUser,
	"goodput":                             Goodput,
	"request_goodput":                     Goodput,
	"input_sequence_length":               InputSequenceLength,
	"output_sequence_length":              OutputSequenceLength,
	"request_count":                       RequestCount,
	"error_request_count":                 ErrorRequestCount,
	"benchmark_duration":                  Duration,
}

var servingNames = map[string]string{ // vLLM and SGLang
	"ttft": TTFT, "tpot": TPOT, "itl": ITL, "e2el": E2EL, "e2e_latency": E2EL,
	"request_throughput":     RequestThroughput,
	"output_throughput":      OutputTokenThroughput,
	"input_throughput":       InputTokenThroughput,
	"total_token_throughput": TotalTokenThroughput,
	"total_throughput":       TotalTokenThroughput,
	"request_goodput":        Goodput,
	"request_goodput:":       Goodput,
	"duration":               Duration,
	"concurrency":            AchievedConcurrency,
	"completed":              RequestCount,
	"failed":                 ErrorRequestCount,
}

var inferencePerfNames = map[string]string{
	"time_to_first_token": TTFT, "time_per_output_token": TPOT,
	"inter_token_latency": ITL, "request_latency": E2EL,
	"requests_per_sec":      RequestThroughput,
	"output_tokens_per_sec": OutputTokenThroughput,
	"input_tokens_per_sec":  InputTokenThroughput,
	"total_tokens_per_sec":  TotalTokenThroughput,
	"prompt_len":            InputSequenceLength,
	"output_len":            OutputSequenceLength,
}

var guidellmNames = map[string]string{
	"time_to_first_token_ms": TTFT, "time_per_output_token_ms": TPOT,
	"inter_token_latency_ms": ITL, "request_latency": E2EL,
	"requests_per_second":      RequestThroughput,
	"output_tokens_per_second": OutputTokenThroughput,
	"tokens_per_second":        TotalTokenThroughput,
	"request_concurrency":      AchievedConcurrency,
	"prompt_token_count":       InputSequenceLength,
	"output_token_count":       OutputSequenceLength,
}

var toolNames = map[string]map[string]string{
	ToolAIPerf: aiperfNames, ToolGenAIPerf: aiperfNames,
	ToolVLLM: servingNames, ToolSGLang: servingNames,
	ToolInferencePerf: inferencePerfNames, ToolGuideLLM: guidellmNames,
}

// RegisterToolNames adds the native metric names of tool, mapped to
// canonical keys, for Canonical and NativeNames. Readers call it from an
// init function (the ingest reader registry), before any lookup; a tool
// registered twice keeps the names of both calls.
func RegisterToolNames(tool string, names map[string]string) {
	m := toolNames[tool]
	if m == nil {
		m = map[string]string{}
		toolNames[tool] = m
	}
	for k, v := range names {
		m[k] = v
	}
}

// Canonical maps a tool's native metric name to its canonical key, following
// the cross-tool mapping of FORMATS.md §7 (by definition, not by name). For
// vLLM and SGLang the native name is the metric part of "p99_<name>_ms".
func Canonical(tool, native string) (string, bool) {
	k, ok := toolNames[tool][native]
	return k, ok
}

// NativeNames returns the native names of tool that Canonical maps,
// sorted.
func NativeNames(tool string) []string {
	out := make([]string, 0, len(toolNames[tool]))
	for k := range toolNames[tool] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var statAliases = map[string]string{
	"avg": "mean", "average": "mean", "mean": "mean",
	"median": "p50", "std": "std", "stddev": "std", "std_dev": "std",
	"min": "min", "max": "max", "mode": "mode", "variance": "variance",
	"count": "count", "sum": "sum", "total_sum": "sum",
}

// NormalizeStatistic maps statistic spellings onto the canonical names
// (avg→mean, median→p50, stddev→std, p99.90→p99.9) and reports whether s is a
// statistic at all: a percentile is p0 to p100 (p101 is not one). It is the
// one statistic parser: selectors (flags), report configurations and the
// readers use it.
func NormalizeStatistic(s string) (string, bool) {
	if c, ok := statAliases[s]; ok {
		return c, true
	}
	if c, ok := statDimsKey(s); ok {
		return c, true
	}
	if c, ok := statAliases[strings.ToLower(s)]; ok {
		return c, true
	}
	if len(s) < 2 || (s[0] != 'p' && s[0] != 'P') {
		return s, false
	}
	num := s[1:]
	dot := false
	for i := 0; i < len(num); i++ {
		switch c := num[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 0 && i < len(num)-1:
			dot = true
		default:
			return s, false
		}
	}
	if dot {
		num = strings.TrimRight(num, "0")
		num = strings.TrimSuffix(num, ".")
	}
	for len(num) > 1 && num[0] == '0' && num[1] != '.' {
		num = num[1:]
	}
	if v, err := strconv.ParseFloat(num, 64); err != nil || v > 100 {
		return s, false
	}
	if c, ok := commonStats[num]; ok {
		return c, true
	}
	return "p" + num, true
}

// ParseStatistic is NormalizeStatistic with an error for what is not a
// statistic, the one message every source gives (selectors in flags, the
// statistic of a report configuration's match).
func ParseStatistic(s string) (string, error) {
	if c, ok := NormalizeStatistic(s); ok {
		return c, nil
	}
	return s, fmt.Errorf("statistic %q %w (want mean, median, p50, p90, p99, ... up to p100)", s, ErrNotStatistic)
}

// ErrNotStatistic is what ParseStatistic's errors are (errors.Is).
var ErrNotStatistic = errors.New("is not a statistic")

// percentileLike reports whether s is spelled as a percentile (p then
// digits with at most one dot), in range or not.
func percentileLike(s string) bool {
	if len(s) < 2 || (s[0] != 'p' && s[0] != 'P') {
		return false
	}
	dot := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 1 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

var commonStats = map[string]string{}

// statDims caches one shared Dims per common statistic so readers do not
// allocate a slice per measurement.
var statDims = map[string]Dims{}

func init() {
	for _, s := range []string{"mean", "p50", "std", "min", "max", "count", "sum", "mode", "variance",
		"p0.1", "p1", "p5", "p10", "p25", "p75", "p90", "p95", "p99", "p99.9"} {
		statDims[s] = Dims{{DimStatistic, s}}
		if s[0] == 'p' {
			commonStats[s[1:]] = s
		}
	}
}

// statDimsKey returns the interned name of a common canonical statistic.
func statDimsKey(s string) (string, bool) {
	if d, ok := statDims[s]; ok {
		return d[0].Value, true
	}
	return "", false
}

// StatDims returns the Dims holding only the statistic stat (which should
// already be normalised). The result may be shared: do not modify it.
func StatDims(stat string) Dims {
	if d, ok := statDims[stat]; ok {
		return d
	}
	return Dims{{DimStatistic, stat}}
}

// nonNegativeUnits are the normalised units of quantities that cannot be
// below zero: times, rates, counts and ratios.
var nonNegativeUnits = map[string]bool{
	UnitMs: true, UnitTokensPerS: true, UnitReqPerS: true, UnitTokPerSUser: true, UnitTokPerSGPU: true,
	UnitTokens: true, UnitRequests: true, UnitRatio: true,
}

// NonNegative reports whether a measurement of metric in the normalised
// unit cannot be negative, so that a negative value is damage, never a
// point: every metric of the registry (latencies ttft, ttst, ttfot, tpot,
// itl, e2el and duration; every throughput, per user and per GPU; goodput;
// request and error counts; sequence lengths; error rate and accuracy;
// achieved concurrency), and any other metric measured in one of their
// units (ms, tokens/s, requests/s, tokens/s/user, tokens/s/gpu, tokens,
// requests, ratio: a tool's own latencies, rates and counts). Metrics in
// other units (°C, W, %, a user's own column) may be negative.
func NonNegative(metric, unit string) bool {
	if _, ok := registry[metric]; ok {
		return true
	}
	return nonNegativeUnits[unit]
}

// nonNegativeWords are the words of a column name that say it holds a
// latency, a throughput or a count (NonNegativeColumn).
var nonNegativeWords = map[string]bool{
	"ms": true, "us": true, "ns": true, "sec": true, "secs": true, "seconds": true,
	"latency": true, "ttft": true, "ttst": true, "tpot": true, "itl": true, "e2el": true, "duration": true,
	"throughput": true, "goodput": true, "tps": true, "qps": true, "rps": true, "tok": true, "tokens": true,
	"requests": true, "count": true,
}

// NonNegativeColumn reports whether a column of a user's table (or a
// selector) named name holds a latency, a throughput or a count, which
// cannot be negative: its metric (the name before a statistic or dims,
// ttft in ttft.p99) is a registry metric (NonNegative), or one of its
// words, split at '_', '.', '-', '/' and spaces, is a time unit (ms, us,
// ns, sec, secs, seconds), a latency (latency, ttft, ttst, tpot, itl,
// e2el, duration), a rate (throughput, goodput, tps, qps, rps) or a count
// (tok, tokens, requests, count). Other columns (a score, a delta) may be
// negative.
func NonNegativeColumn(name string) bool {
	base, _, _ := strings.Cut(name, "{")
	if _, ok := registry[base]; ok {
		return true
	}
	if m, _, ok := strings.Cut(base, "."); ok {
		if _, ok := registry[m]; ok {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(base), func(r rune) bool {
		return r == '_' || r == '.' || r == '-' || r == '/' || r == ' '
	}) {
		if nonNegativeWords[w] {
			return true
		}
	}
	return false
}
