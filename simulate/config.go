package simulate

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Model describes the served model: what its weights, its KV cache and
// its compute per token cost.
type Model struct {
	// ID is written as the result's model_id.
	ID string
	// Params is the number of parameters; weights take Params ×
	// BytesPerParam bytes and a token costs 2 × Params FLOPs.
	Params        float64
	BytesPerParam float64
	// Layers, Heads, KVHeads, HeadDim and Hidden are the transformer's
	// shape: the KV cache of a token takes 2 × Layers × KVHeads × HeadDim
	// × BytesPerParam bytes, an all-reduce moves Hidden values per token.
	Layers, Heads, KVHeads, HeadDim, Hidden int
}

// WeightBytes returns the size of the weights.
func (m Model) WeightBytes() float64 { return m.Params * m.BytesPerParam }

// KVBytesPerToken returns the KV-cache size of one token.
func (m Model) KVBytesPerToken() float64 {
	return 2 * float64(m.Layers*m.KVHeads*m.HeadDim) * m.BytesPerParam
}

// FLOPsPerToken returns the compute of one token through the whole model.
func (m Model) FLOPsPerToken() float64 { return 2 * m.Params }

// Models are the models the simulator knows, by the name --param
// model=NAME takes. Their shapes are those of Llama 3.1 in bf16.
var Models = map[string]Model{
	"llama-3.1-8b": {ID: "simulated/llama-3.1-8b", Params: 8.03e9, BytesPerParam: 2,
		Layers: 32, Heads: 32, KVHeads: 8, HeadDim: 128, Hidden: 4096},
	"llama-3.1-70b": {ID: "simulated/llama-3.1-70b", Params: 70.6e9, BytesPerParam: 2,
		Layers: 80, Heads: 64, KVHeads: 8, HeadDim: 128, Hidden: 8192},
}

// Hardware describes one GPU, its interconnect and the engine's fixed
// costs. The zero value is not useful; start from DefaultHardware.
type Hardware struct {
	// MemoryBytes is one GPU's memory; Reserved of it is never available
	// to weights or KV cache (CUDA context, graphs, fragmentation), and
	// ActivationPerToken bytes per token of max_num_batched_tokens are kept
	// for activations.
	MemoryBytes, Reserved, ActivationPerToken float64
	// Bandwidth is one GPU's effective memory bandwidth (bytes/s), FLOPS
	// its effective dense compute (FLOP/s).
	Bandwidth, FLOPS float64
	// StepOverhead is the fixed cost of one engine step (scheduling,
	// kernel launches), in seconds.
	StepOverhead float64
	// AllReduceLatency is the latency of one all-reduce per doubling of
	// the tensor-parallel group (s); LinkBandwidth the per-GPU bandwidth of
	// the interconnect (bytes/s).
	AllReduceLatency, LinkBandwidth float64
	// StageLatency is the cost of passing activations from one pipeline
	// stage to the next (s).
	StageLatency float64
	// Speed scales the GPU's bandwidth and compute: 1.06 is a machine 6 %
	// faster. It is not a server setting and is not written into results,
	// as a real machine's speed is not.
	Speed float64
}

// DefaultHardware is an 80 GB GPU of the H100 class with NVLink.
var DefaultHardware = Hardware{
	MemoryBytes:        80e9,
	Reserved:           2e9,
	ActivationPerToken: 128 << 10,
	Bandwidth:          2.4e12,
	FLOPS:              600e12,
	StepOverhead:       1e-3,
	AllReduceLatency:   8e-6,
	LinkBandwidth:      450e9,
	StageLatency:       0.2e-3,
	Speed:              1,
}

// Config is one simulated benchmark run: the server's settings (named
// after vLLM's engine arguments) and the client's load (named after vllm
// bench serve's options).
type Config struct {
	// Model names an entry of Models.
	Model string
	// TP, PP and DP are the tensor-, pipeline- and data-parallel sizes;
	// the deployment uses TP × PP × DP GPUs.
	TP, PP, DP int
	// MaxNumSeqs caps the sequences a replica runs at once;
	// MaxNumBatchedTokens is a step's token budget (the prefill chunk size
	// with chunked prefill).
	MaxNumSeqs, MaxNumBatchedTokens int
	// ChunkedPrefill splits prompts into chunks that share steps with
	// decodes instead of running as steps of their own.
	ChunkedPrefill bool
	// GPUMemoryUtilization is the fraction of each GPU's memory the engine
	// may use for weights, activations and KV cache.
	GPUMemoryUtilization float64

	// MaxConcurrency is the number of requests the client keeps in flight;
	// 0 sends every prompt at once (vllm bench serve without
	// --max-concurrency).
	MaxConcurrency int
	// NumPrompts is the number of requests of the run; InputLen and
	// OutputLen are every request's prompt and output lengths in tokens.
	NumPrompts, InputLen, OutputLen int
}

// DefaultConfig holds vLLM's defaults and vllm bench serve's random
// dataset defaults, with a client concurrency of 64.
var DefaultConfig = Config{
	Model: "llama-3.1-8b", TP: 1, PP: 1, DP: 1,
	MaxNumSeqs: 256, MaxNumBatchedTokens: 2048, ChunkedPrefill: true, GPUMemoryUtilization: 0.9,
	MaxConcurrency: 64, NumPrompts: 1000, InputLen: 1024, OutputLen: 128,
}

// Knob is what changing a setting needs.
type Knob int8

const (
	// Server settings need the server restarted.
	Server Knob = iota + 1
	// Client settings change only the benchmark client's load.
	Client
)

// Setting documents one --param name.
type Setting struct {
	// Name is the canonical name (vLLM's, with underscores); Alias a short
	// form also accepted ("" if none).
	Name, Alias string
	Knob        Knob
	// Doc says what it is and what values it takes.
	Doc string
	set func(c *Config, v string) error
	get func(c *Config) string
}

// Settings lists every parameter Config.Set accepts, server settings
// first.
var Settings = []Setting{
	{"model", "", Server, "served model: llama-3.1-8b or llama-3.1-70b",
		func(c *Config, v string) error {
			if _, ok := Models[v]; !ok {
				return fmt.Errorf("unknown model %q (have %s)", v, strings.Join(modelNames(), ", "))
			}
			c.Model = v
			return nil
		}, func(c *Config) string { return c.Model }},
	intSetting("tensor_parallel_size", "tp", Server, "GPUs per replica sharing each layer (a power of two dividing the attention heads)", func(c *Config) *int { return &c.TP }),
	intSetting("pipeline_parallel_size", "pp", Server, "pipeline stages per replica (dividing the layers)", func(c *Config) *int { return &c.PP }),
	intSetting("data_parallel_size", "dp", Server, "independent replicas; the client's load is split evenly", func(c *Config) *int { return &c.DP }),
	intSetting("max_num_seqs", "", Server, "sequences a replica runs at once, at most", func(c *Config) *int { return &c.MaxNumSeqs }),
	intSetting("max_num_batched_tokens", "", Server, "token budget of a step: the prefill chunk with chunked prefill, at least max_model_len without", func(c *Config) *int { return &c.MaxNumBatchedTokens }),
	{"enable_chunked_prefill", "chunked_prefill", Server, "true or false",
		func(c *Config, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("want true or false, not %q", v)
			}
			c.ChunkedPrefill = b
			return nil
		}, func(c *Config) string { return strconv.FormatBool(c.ChunkedPrefill) }},
	{"gpu_memory_utilization", "", Server, "fraction of GPU memory the engine uses, in (0, 1]",
		func(c *Config, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0 && f <= 1) {
				return fmt.Errorf("want a number in (0, 1], not %q", v)
			}
			c.GPUMemoryUtilization = f
			return nil
		}, func(c *Config) string { return strconv.FormatFloat(c.GPUMemoryUtilization, 'g', -1, 64) }},
	{"max_concurrency", "concurrency", Client, "requests the client keeps in flight (0: every prompt at once)",
		func(c *Config, v string) error { return setInt(&c.MaxConcurrency, v, 0) },
		func(c *Config) string { return strconv.Itoa(c.MaxConcurrency) }},
	intSetting("num_prompts", "", Client, "requests of the run", func(c *Config) *int { return &c.NumPrompts }),
	intSetting("random_input_len", "input_len", Client, "prompt length of every request, in tokens", func(c *Config) *int { return &c.InputLen }),
	intSetting("random_output_len", "output_len", Client, "output length of every request, in tokens (at least 2)", func(c *Config) *int { return &c.OutputLen }),
}

func intSetting(name, alias string, k Knob, doc string, field func(*Config) *int) Setting {
	return Setting{name, alias, k, doc,
		func(c *Config, v string) error { return setInt(field(c), v, 1) },
		func(c *Config) string { return strconv.Itoa(*field(c)) }}
}

// setInt parses v as an integer of at least lo (a float with an integral
// value, as a search space may render it, is accepted).
func setInt(dst *int, v string, lo int) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<40 {
			return fmt.Errorf("want an integer, not %q", v)
		}
		n = int(f)
	}
	if n < lo {
		return fmt.Errorf("want an integer of at least %d, not %d", lo, n)
	}
	*dst = n
	return nil
}

func modelNames() []string {
	var names []string
	for n := range Models {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// lookup returns the setting named name or alias.
func lookup(name string) (*Setting, bool) {
	for i := range Settings {
		if s := &Settings[i]; s.Name == name || (s.Alias != "" && s.Alias == name) {
			return s, true
		}
	}
	return nil, false
}

// UnknownParamError is a parameter name that is neither a Settings name
// nor an alias; Settings lists them all.
type UnknownParamError struct{ Name string }

func (e *UnknownParamError) Error() string { return fmt.Sprintf("unknown parameter %q", e.Name) }

// Set sets the parameter name (a Settings name or alias) from its text.
func (c *Config) Set(name, value string) error {
	s, ok := lookup(name)
	if !ok {
		return &UnknownParamError{Name: name}
	}
	if err := s.set(c, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("parameter %s: %w", name, err)
	}
	return nil
}

// Get returns the text of the parameter name, as Set reads it.
func (c *Config) Get(name string) (string, bool) {
	s, ok := lookup(name)
	if !ok {
		return "", false
	}
	return s.get(c), true
}

// ParseParams returns DefaultConfig with each "name=value" of params
// applied in order.
func ParseParams(params []string) (Config, error) {
	c := DefaultConfig
	for _, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if !ok {
			return c, fmt.Errorf("parameter %q: want NAME=VALUE", p)
		}
		if err := c.Set(strings.TrimSpace(name), value); err != nil {
			return c, err
		}
	}
	return c, nil
}

// GPUs returns the number of GPUs the deployment uses.
func (c *Config) GPUs() int { return c.TP * c.PP * c.DP }

// Validate reports settings the engine would refuse before it loads
// anything (the memory checks are Solve's).
func (c *Config) Validate() error {
	m, ok := Models[c.Model]
	switch {
	case !ok:
		return fmt.Errorf("unknown model %q (have %s)", c.Model, strings.Join(modelNames(), ", "))
	case c.TP < 1 || bits.OnesCount(uint(c.TP)) != 1 || m.Heads%c.TP != 0:
		return fmt.Errorf("tensor_parallel_size %d must be a power of two dividing the model's %d attention heads", c.TP, m.Heads)
	case c.PP < 1 || m.Layers%c.PP != 0:
		return fmt.Errorf("pipeline_parallel_size %d must divide the model's %d layers", c.PP, m.Layers)
	case c.DP < 1:
		return fmt.Errorf("data_parallel_size %d must be at least 1", c.DP)
	case c.MaxNumSeqs < 1:
		return fmt.Errorf("max_num_seqs %d must be at least 1", c.MaxNumSeqs)
	case c.MaxNumBatchedTokens < c.MaxNumSeqs:
		return fmt.Errorf("max_num_batched_tokens %d must be at least max_num_seqs %d", c.MaxNumBatchedTokens, c.MaxNumSeqs)
	case !c.ChunkedPrefill && c.MaxNumBatchedTokens < c.InputLen+c.OutputLen:
		return fmt.Errorf("max_num_batched_tokens %d is smaller than max_model_len %d (input + output length): without chunked prefill a prompt must fit in one step",
			c.MaxNumBatchedTokens, c.InputLen+c.OutputLen)
	case !(c.GPUMemoryUtilization > 0 && c.GPUMemoryUtilization <= 1):
		return fmt.Errorf("gpu_memory_utilization %g must be in (0, 1]", c.GPUMemoryUtilization)
	case c.MaxConcurrency < 0:
		return fmt.Errorf("max_concurrency %d must not be negative", c.MaxConcurrency)
	case c.NumPrompts < 1:
		return fmt.Errorf("num_prompts %d must be at least 1", c.NumPrompts)
	case c.InputLen < 1:
		return fmt.Errorf("random_input_len %d must be at least 1", c.InputLen)
	case c.OutputLen < 2:
		return fmt.Errorf("random_output_len %d must be at least 2 (TPOT needs a second token)", c.OutputLen)
	}
	return nil
}
