package trial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// Well-known label keys. Readers set those they know; other keys may appear
// (for example "label" from vLLM's --label or "tag" from SGLang's --tag).
const (
	LabelTestCase      = "test_case"      // CloudAI test id
	LabelIteration     = "iteration"      // CloudAI iteration directory
	LabelStep          = "step"           // CloudAI DSE sweep step
	LabelPhase         = "phase"          // AIPerf phase name
	LabelTool          = "tool"           // benchmark tool: aiperf, genai-perf, vllm, sglang, inference-perf, guidellm
	LabelToolVersion   = "tool_version"   // version of the benchmark tool, when recorded
	LabelModel         = "model"          // served model id
	LabelEngine        = "engine"         // serving engine or backend (vllm, sglang, openai, ...)
	LabelEngineVersion = "engine_version" // serving engine version, when known
	LabelDynamoVersion = "dynamo_version" // NVIDIA Dynamo release of a CloudAI run's runtime image
	LabelHardware      = "hardware"       // GPU or system name, when known (LabelGPU when it names the GPU)
	LabelGPU           = "gpu"            // GPU model (CloudAI node metadata, AIPerf telemetry)
	LabelGPUCount      = "gpu_count"      // GPUs the run had (CloudAI: nodes × gpus_per_node; AIPerf: GPUs in its telemetry)
	LabelCUDA          = "cuda"           // CUDA (runtime) version
	LabelDriver        = "driver"         // NVIDIA driver version (CloudAI: else the CUDA driver API version)
	LabelEndpoint      = "endpoint"       // endpoint type (chat, completions, ...)
	LabelDataset       = "dataset"        // dataset name
	LabelDate          = "date"           // start time as written by the tool (local time, no zone)
	LabelBenchmarkID   = "benchmark_id"   // tool-assigned run id
	LabelStage         = "stage"          // inference-perf stage or guidellm benchmark index
)

// Dimension keys used by readers.
const (
	DimStatistic = "statistic" // mean, p50, p90, p95, p99, p99.9, min, max, std, ...
	DimPhase     = "phase"     // e.g. "warmup" for AIPerf warmup_metrics
	DimBenchmark = "benchmark" // sub-benchmark inside one result
	DimGPU       = "gpu"       // GPU index of a telemetry metric
	DimDerived   = "derived"   // how a value was derived when the tool did not emit it
)

// Trial is one benchmark run at one load point.
type Trial struct {
	// ID is a short hash of the trial's content and its position in its
	// source; see ComputeID.
	ID string `json:"id"`
	// Source says where the trial was read from.
	Source Source `json:"source"`
	// Labels hold context: see the Label* constants for well-known keys.
	Labels map[string]string `json:"labels,omitempty"`
	// Params is the flattened configuration, "a.b.c" keys to string values.
	Params map[string]string `json:"params,omitempty"`
	// Workload is the configured and achieved load.
	Workload Workload `json:"workload"`
	// Succeeded and Failed count requests; Failed is -1 when unknown, and
	// then absent from the JSON encoding (see MarshalJSON).
	Succeeded int64 `json:"succeeded"`
	Failed    int64 `json:"failed"`
	// Measurements are sorted by Metric, then Dims (see Sort).
	Measurements []Measurement `json:"measurements"`
	// Problem, when not empty, says why the trial must not be used as a
	// point, e.g. "no successful requests".
	Problem string `json:"problem,omitempty"`
	// Warnings are non-fatal oddities found while reading.
	Warnings []string `json:"warnings,omitempty"`
	// Deployment is what ran the trial, when its source says (CloudAI
	// runs); nil otherwise. The trials of one run may share it: do not
	// modify it in place.
	Deployment *Deployment `json:"deployment,omitempty"`
}

// MarshalJSON encodes t with its fields' tags, in their order, except
// that an unknown Failed count (-1) is left out rather than written as a
// number: a reader of the export must not take -1 for a count.
func (t Trial) MarshalJSON() ([]byte, error) {
	type plain Trial // without the methods
	b, err := json.Marshal(plain(t))
	if err != nil || t.Failed >= 0 {
		return b, err
	}
	// Only the top-level count is a bare -1 followed by the measurements
	// key: strings escape their quotes, and no other field is named so.
	return bytes.Replace(b, []byte(`,"failed":-1,"measurements":`), []byte(`,"measurements":`), 1), nil
}

// UnmarshalJSON decodes what MarshalJSON writes: a missing (or null)
// failed count is unknown, -1.
func (t *Trial) UnmarshalJSON(b []byte) error {
	type plain Trial
	aux := struct {
		*plain
		Failed *int64 `json:"failed"`
	}{plain: (*plain)(t)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.Failed = -1
	if aux.Failed != nil {
		t.Failed = *aux.Failed
	}
	return nil
}

// Problem texts set by readers.
const (
	ProblemNoSuccess = "no successful requests"
)

// Source locates a trial in its input.
type Source struct {
	// Path is the file as it was opened (relative to the working
	// directory of the reading process, or absolute): what to show.
	Path   string `json:"path"`
	Format string `json:"format"`
	// FormatVersion is the file's layout as its reader recognised it
	// (AIPerf G0–G3, vLLM benchmark_serving/bench-serve/bench-sweep,
	// SGLang lean-2024/2025+, guidellm report-v2/benchmarks-pre-v2, a
	// table's csv/jsonl, …): how the file is shaped, not which version of
	// the tool wrote it. The tool's own version, where the file records
	// it, is the label LabelToolVersion (what pareto ingest shows as the
	// version); ComputeID hashes the labels, not FormatVersion.
	FormatVersion string `json:"format_version,omitempty"`
	// Line is the 1-based line of a JSONL record or of a concatenated
	// object; zero for whole-file formats.
	Line int `json:"line,omitempty"`
	// Index is the 0-based position of the trial among those of one file
	// (sweep arrays, guidellm benchmarks, appended objects, JSONL records).
	Index int `json:"index,omitempty"`
	// Key names the file independently of where it was read from, with
	// '/' separators: ingest.Load sets it to the file's path from the
	// parent of the ingest root (see ingest.Load); the Optuna reader to
	// "optuna:" and the study's name. Empty means Path. ComputeID hashes
	// it (or Path) with Index as the trial's position.
	Key string `json:"key,omitempty"`
	// Session names the measurement session the trial was recorded in
	// (one ingest, gate, tell or tune batch, or a name given with
	// --session); empty for trials recorded before sessions existed.
	// ComputeID does not hash it: the same result recorded again is the
	// same trial, which keeps the session it was first recorded in.
	Session string `json:"session,omitempty"`
}

// File returns the name ComputeID hashes as the trial's file: Key, or
// Path when Key is empty.
func (s *Source) File() string {
	if s.Key != "" {
		return s.Key
	}
	return s.Path
}

// Workload is the load a trial was run at. Zero means unknown for every
// field; RequestRate is +Inf for "as fast as possible".
type Workload struct {
	// InputTokens and OutputTokens are the configured mean lengths.
	InputTokens  float64 `json:"input_tokens,omitempty"`
	OutputTokens float64 `json:"output_tokens,omitempty"`
	// MeanInputTokens and MeanOutputTokens are the achieved means.
	MeanInputTokens  float64 `json:"mean_input_tokens,omitempty"`
	MeanOutputTokens float64 `json:"mean_output_tokens,omitempty"`
	// Concurrency is the configured (maximum) concurrency.
	Concurrency float64 `json:"concurrency,omitempty"`
	// AchievedConcurrency is the measured average concurrency.
	AchievedConcurrency float64 `json:"achieved_concurrency,omitempty"`
	// RequestRate is the configured request rate in requests/s.
	RequestRate float64 `json:"request_rate,omitempty"`
	// Users is the configured number of simulated users (AIPerf user_centric).
	Users float64 `json:"users,omitempty"`
	// Requests is the configured number of requests (num_prompts).
	Requests int64 `json:"requests,omitempty"`
}

// floats returns the JSON names of the float fields of w and pointers to
// them, in field order.
func (w *Workload) floats() [8]struct {
	name string
	p    *float64
} {
	return [8]struct {
		name string
		p    *float64
	}{{"input_tokens", &w.InputTokens}, {"output_tokens", &w.OutputTokens},
		{"mean_input_tokens", &w.MeanInputTokens}, {"mean_output_tokens", &w.MeanOutputTokens},
		{"concurrency", &w.Concurrency}, {"achieved_concurrency", &w.AchievedConcurrency},
		{"request_rate", &w.RequestRate}, {"users", &w.Users}}
}

// MarshalJSON encodes non-finite fields as the strings "inf", "-inf" and
// "nan" (FormatFloat), placed first: an infinite request rate is
// {"request_rate":"inf",...}.
func (w Workload) MarshalJSON() ([]byte, error) {
	type plain Workload
	var extra []byte
	for _, f := range w.floats() {
		if v := *f.p; math.IsInf(v, 0) || math.IsNaN(v) {
			extra = append(extra, `"`+f.name+`":"`+FormatFloat(v)+`",`...)
			*f.p = 0
		}
	}
	b, err := json.Marshal(plain(w))
	if err != nil || len(extra) == 0 {
		return b, err
	}
	if len(b) <= 2 {
		extra = extra[:len(extra)-1]
	}
	return append(append([]byte{'{'}, extra...), b[1:]...), nil
}

// UnmarshalJSON decodes what MarshalJSON writes: float fields may be
// numbers or strings that strconv.ParseFloat accepts ("inf", "-inf",
// "nan", "+Inf", ...).
func (w *Workload) UnmarshalJSON(b []byte) error {
	var aux struct {
		InputTokens         jsonFloat `json:"input_tokens"`
		OutputTokens        jsonFloat `json:"output_tokens"`
		MeanInputTokens     jsonFloat `json:"mean_input_tokens"`
		MeanOutputTokens    jsonFloat `json:"mean_output_tokens"`
		Concurrency         jsonFloat `json:"concurrency"`
		AchievedConcurrency jsonFloat `json:"achieved_concurrency"`
		RequestRate         jsonFloat `json:"request_rate"`
		Users               jsonFloat `json:"users"`
		Requests            int64     `json:"requests"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*w = Workload{InputTokens: float64(aux.InputTokens), OutputTokens: float64(aux.OutputTokens),
		MeanInputTokens: float64(aux.MeanInputTokens), MeanOutputTokens: float64(aux.MeanOutputTokens),
		Concurrency: float64(aux.Concurrency), AchievedConcurrency: float64(aux.AchievedConcurrency),
		RequestRate: float64(aux.RequestRate), Users: float64(aux.Users), Requests: aux.Requests}
	return nil
}

// jsonFloat decodes a JSON number, or a string holding a float such as
// "inf" or "NaN".
type jsonFloat float64

// UnmarshalJSON implements json.Unmarshaler.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("value %q is not a number", s)
		}
		*f = jsonFloat(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

// Measurement is one measured number.
type Measurement struct {
	// Metric is a canonical registry key or the native name of an unknown metric.
	Metric string `json:"metric"`
	// Dims are sorted by key; they may be shared between measurements and
	// must not be modified in place.
	Dims Dims `json:"dims,omitempty"`
	// Value is finite when read from a benchmark result; JSON writes a
	// non-finite value as the string "NaN", "+Inf" or "-Inf".
	Value float64 `json:"value"`
	// Unit is the normalised unit ("ms", "tokens/s", ...), empty if none.
	Unit string `json:"unit,omitempty"`
	// Native is the name the tool used (e.g. "p99_ttft_ms" or
	// "time_to_first_token"); selectors match it as well as Metric.
	Native string `json:"native,omitempty"`
	// SourceUnit is the unit found in the source before normalisation.
	SourceUnit string `json:"source_unit,omitempty"`
}

// MarshalJSON writes a non-finite Value as the string "NaN", "+Inf" or
// "-Inf", which encoding/json cannot write as a number.
func (m Measurement) MarshalJSON() ([]byte, error) {
	type plain Measurement
	if !math.IsInf(m.Value, 0) && !math.IsNaN(m.Value) {
		return json.Marshal(plain(m))
	}
	aux := struct {
		plain
		Value string `json:"value"`
	}{plain(m), nonFinite(m.Value)}
	aux.plain.Value = 0
	return json.Marshal(aux)
}

func nonFinite(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return "NaN"
}

// UnmarshalJSON reads a Value given as a number or as a string that
// strconv.ParseFloat accepts ("NaN", "+Inf", "-Inf", ...).
func (m *Measurement) UnmarshalJSON(b []byte) error {
	type plain Measurement
	var aux struct {
		plain
		Value jsonFloat `json:"value"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*m = Measurement(aux.plain)
	m.Value = float64(aux.Value)
	return nil
}

// Dim is one dimension of a measurement.
type Dim struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Dims is a list of dimensions sorted by key, without duplicate keys.
type Dims []Dim

// Get returns the value of key and whether it is present.
func (d Dims) Get(key string) (string, bool) {
	for _, x := range d {
		if x.Key == key {
			return x.Value, true
		}
	}
	return "", false
}

// Statistic returns the statistic dimension, or "" if there is none.
func (d Dims) Statistic() string {
	s, _ := d.Get(DimStatistic)
	return s
}

// With returns a new sorted Dims with key set to value.
func (d Dims) With(key, value string) Dims {
	out := make(Dims, 0, len(d)+1)
	for _, x := range d {
		if x.Key != key {
			out = append(out, x)
		}
	}
	out = append(out, Dim{key, value})
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Contains reports whether every dimension of sub is in d with the same value.
func (d Dims) Contains(sub Dims) bool {
	for _, s := range sub {
		if v, ok := d.Get(s.Key); !ok || v != s.Value {
			return false
		}
	}
	return true
}

// String renders the dims as "k=v,k=v".
func (d Dims) String() string {
	var sb strings.Builder
	for i, x := range d {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(x.Key)
		sb.WriteByte('=')
		sb.WriteString(x.Value)
	}
	return sb.String()
}

// String renders the measurement's selector, e.g. "ttft.p99" or
// "ttft.p99{phase=warmup}".
func (m Measurement) String() string {
	var sb strings.Builder
	sb.WriteString(m.Metric)
	var rest Dims
	for _, x := range m.Dims {
		if x.Key == DimStatistic {
			sb.WriteByte('.')
			sb.WriteString(x.Value)
		} else {
			rest = append(rest, x)
		}
	}
	if len(rest) > 0 {
		sb.WriteByte('{')
		sb.WriteString(rest.String())
		sb.WriteByte('}')
	}
	return sb.String()
}

// Sort orders measurements by metric, then dims, then value.
func (t *Trial) Sort() {
	sort.SliceStable(t.Measurements, func(i, j int) bool {
		return compareMeasurements(&t.Measurements[i], &t.Measurements[j]) < 0
	})
}

func compareMeasurements(a, b *Measurement) int {
	if c := strings.Compare(a.Metric, b.Metric); c != 0 {
		return c
	}
	if len(a.Dims) != len(b.Dims) || unsafe.SliceData(a.Dims) != unsafe.SliceData(b.Dims) {
		if c := CompareDims(a.Dims, b.Dims); c != 0 {
			return c
		}
	}
	switch {
	case a.Value < b.Value:
		return -1
	case a.Value > b.Value:
		return 1
	}
	return 0
}

// CompareDims orders dims as Sort does: by their pairs (key, then value),
// then by length.
func CompareDims(a, b Dims) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i].Key, b[i].Key); c != 0 {
			return c
		}
		if c := strings.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// ErrorRate returns Failed/(Succeeded+Failed), or NaN when unknown.
func (t *Trial) ErrorRate() float64 {
	if t.Failed < 0 || t.Succeeded+t.Failed == 0 {
		return math.NaN()
	}
	return float64(t.Failed) / float64(t.Succeeded+t.Failed)
}

// SetLabel sets a label, ignoring empty values. Secrets are redacted (see
// RedactParam).
func (t *Trial) SetLabel(key, value string) {
	if value == "" {
		return
	}
	if t.Labels == nil {
		t.Labels = make(map[string]string, 8)
	}
	t.Labels[key] = RedactParam(key, value)
}

// SetParam sets a configuration parameter. The value of a secret key
// becomes Redacted and credentials inside other values are redacted (see
// RedactParam), so that no secret reaches a store, an export or a report.
func (t *Trial) SetParam(key, value string) {
	if t.Params == nil {
		t.Params = make(map[string]string, 16)
	}
	t.Params[key] = RedactParam(key, value)
}

// FormatFloat renders a float the way params and golden files do: shortest
// round-trip form, "inf"/"-inf"/"nan" for non-finite values.
func FormatFloat(v float64) string {
	var buf [32]byte
	return string(AppendFloat(buf[:0], v))
}

// AppendFloat appends FormatFloat(v) to b.
func AppendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "inf"...)
	case math.IsInf(v, -1):
		return append(b, "-inf"...)
	case math.IsNaN(v):
		return append(b, "nan"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// MarshalJSON encodes dims as an object, {"statistic":"p99"}, keys sorted.
func (d Dims) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, x := range d {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(x.Key)
		v, _ := json.Marshal(x.Value)
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes the object form written by MarshalJSON.
func (d *Dims) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(Dims, 0, len(m))
	for k, v := range m {
		out = append(out, Dim{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	*d = out
	return nil
}

// Skip is an input that yields no trial, with the reason.
type Skip struct {
	// Path is the file or run directory.
	Path string `json:"path"`
	// Key names the file or directory independently of the working
	// directory, as Source.Key names a trial's file (empty when it is
	// Path). A store keys the skips of a study on File and Run.
	Key string `json:"key,omitempty"`
	// Run is the CloudAI point id (case/iteration/step/phase), if any,
	// with its parts: Iteration is -1 when unknown, Step 0 outside DSE.
	Run       string `json:"run,omitempty"`
	Case      string `json:"case,omitempty"`
	Iteration int    `json:"iteration,omitempty"`
	Step      int    `json:"step,omitempty"`
	Phase     string `json:"phase,omitempty"`
	// Code classifies the skip: "error" (the input could not be read:
	// a failure), "unknown_format", "not_a_result", "duplicate_of", or a
	// CloudAI exclusion code.
	Code string `json:"code"`
	// Reason explains it.
	Reason string `json:"reason"`
}

// File names the skipped input for identity as Source.File names a
// trial's file: Key, or Path when Key is empty.
func (s *Skip) File() string {
	src := Source{Path: s.Path, Key: s.Key}
	return src.File()
}

// Skip codes besides the CloudAI exclusion codes.
const (
	// SkipError is an input that could not be read: a failure.
	SkipError = "error"
	// SkipUnknownFormat is a file inside a directory whose content cannot
	// be told (binary data, text that is not UTF-8).
	SkipUnknownFormat = "unknown_format"
	// SkipNotResult is a file recognised as no benchmark result (per-request
	// records, a benchmark's inputs, a dashboard), named or in a directory.
	SkipNotResult = "not_a_result"
)
