package simulate

import (
	"errors"
	"fmt"
	"math"
)

// ErrDoesNotFit reports a configuration whose engine would not start:
// the weights, or a single request's KV cache, do not fit in memory.
var ErrDoesNotFit = errors.New("does not fit in GPU memory")

// Dist is a metric's distribution within one run: log-normal with the
// given mean and shape Sigma (the standard deviation of its logarithm).
type Dist struct {
	Mean, Sigma float64
}

// z99 is the 99th percentile of the standard normal distribution.
const z99 = 2.3263478740408408

// Median returns the distribution's median.
func (d Dist) Median() float64 { return d.Mean * math.Exp(-d.Sigma*d.Sigma/2) }

// P99 returns the distribution's 99th percentile.
func (d Dist) P99() float64 { return d.Median() * math.Exp(z99*d.Sigma) }

// Std returns the distribution's standard deviation.
func (d Dist) Std() float64 { return d.Mean * math.Sqrt(math.Expm1(d.Sigma*d.Sigma)) }

// Steady is the model's noise-free answer for a configuration: the
// steady state of the closed loop (see the package documentation).
type Steady struct {
	// RequestThroughput (requests/s), OutputThroughput and TotalThroughput
	// (tokens/s) are the deployment's, summed over replicas.
	RequestThroughput, OutputThroughput, TotalThroughput float64
	// TTFT, TPOT, ITL and E2EL are per request, in seconds.
	TTFT, TPOT, ITL, E2EL Dist
	// Concurrency is the client's (requests in flight); Running the mean
	// sequences a replica holds in its batch, at most Slots =
	// min(max_num_seqs, KVSlots).
	Concurrency, Running float64
	Slots, KVSlots       int
	// KVTokens is a replica's KV-cache capacity in tokens.
	KVTokens float64
	// PrefillShare is the fraction of a replica's compute spent on
	// prompts; QueueWait the mean time a request waits for a free slot (s).
	PrefillShare, QueueWait float64
	// Duration is how long the run takes (s).
	Duration float64
}

// costs are a replica's per-step costs in seconds, from the model, the
// hardware and the parallel layout.
type costs struct {
	base     float64 // fixed per step: overhead and pipeline hops
	wr       float64 // reading the weights once
	kr       float64 // reading one decoding sequence's KV cache
	fp       float64 // one token's compute through the whole model
	pp       float64 // pipeline stages
	ca, cb   float64 // all-reduces: latency per step, bandwidth per token
	in, out  float64 // prompt and output lengths
	budget   float64 // max_num_batched_tokens
	chunked  bool
	ctxToken float64 // mean context of a decoding sequence, in tokens
}

func newCosts(c *Config, m Model, hw Hardware) costs {
	tp, pp := float64(c.TP), float64(c.PP)
	bw, flops := hw.Bandwidth*hw.Speed, hw.FLOPS*hw.Speed
	in, out := float64(c.InputLen), float64(c.OutputLen)
	k := costs{
		base:     hw.StepOverhead + (pp-1)*hw.StageLatency,
		wr:       m.WeightBytes() / (tp * bw),
		fp:       m.FLOPsPerToken() / (tp * flops),
		pp:       pp,
		in:       in,
		out:      out,
		budget:   float64(c.MaxNumBatchedTokens),
		chunked:  c.ChunkedPrefill,
		ctxToken: in + out/2,
	}
	k.kr = k.ctxToken * m.KVBytesPerToken() / (pp * tp * bw)
	if c.TP > 1 {
		allReduces := 2 * float64(m.Layers)
		k.ca = allReduces * hw.AllReduceLatency * math.Log2(tp)
		k.cb = allReduces * 2 * float64(m.Hidden) * m.BytesPerParam * 2 * (tp - 1) / tp / hw.LinkBandwidth / pp
	}
	return k
}

// state is a replica's steady state at a request rate x (requests/s).
type state struct {
	ok      bool
	running float64 // sequences holding a slot (prefilling or decoding)
	tpot    float64 // time per output token
	ttft    float64 // from admission: waiting for compute, then the prefill
	wait    float64 // the part of ttft spent waiting for compute
	share   float64 // fraction of the time prompts hold the GPUs
}

// affine solves n = k·max(a1 + b1·n, a2 + b2·n) for its least
// non-negative root, or reports that none exists (k·b ≥ 1).
func affine(k, a1, b1, a2, b2 float64) (float64, bool) {
	if k*b1 >= 1 || k*b2 >= 1 {
		return 0, false
	}
	return max(k*a1/(1-k*b1), k*a2/(1-k*b2)), true
}

// at returns the replica's steady state at request rate x.
func (k *costs) at(x float64) state {
	dec := k.out - 1 // decode steps per request
	stage := k.fp / k.pp
	// A decode step with n sequences takes S0(n) = max(a1 + b1·n, a2 + b2·n):
	// the weights and the KV cache read from memory, or the compute,
	// whichever is longer, plus the all-reduces and the fixed overhead.
	a1, b1 := k.base+k.ca+k.wr, k.kr+k.cb
	a2, b2 := k.base+k.ca, stage+k.cb
	traverse := (k.pp - 1) * k.in * stage // the prompt's way through the other stages
	var st state
	var stall, service float64 // per request: time stolen from decodes, prefill service time
	if k.chunked {
		// The prompt is split into chunks of at most max_num_batched_tokens
		// tokens, each joining one decode step; a chunk's compute hides
		// under the step's weight read.
		chunks := math.Ceil(k.in / k.budget)
		chunk := k.in / chunks
		extra := k.cb*chunk + max(0, chunk*stage-k.wr) // a chunk step's cost over a decode step
		stall = chunks * extra
		if x*stall >= 1 {
			return state{}
		}
		nd, ok := affine(x*dec/(1-x*stall), a1, b1, a2, b2)
		if !ok {
			return state{}
		}
		s0 := max(a1+b1*nd, a2+b2*nd)
		st.tpot = s0 / (1 - x*stall)
		service = chunks * (s0 + extra)
		st.running = nd
	} else {
		// The prompt runs as a step of its own that stalls every decode.
		service = k.base + k.ca + k.cb*k.in + max(k.wr, k.in*stage)
		stall = service
		if x*stall >= 1 {
			return state{}
		}
		nd, ok := affine(x*dec/(1-x*stall), a1, b1, a2, b2)
		if !ok {
			return state{}
		}
		st.tpot = max(a1+b1*nd, a2+b2*nd) / (1 - x*stall)
		st.running = nd
	}
	// Prompts wait for the prompts ahead of them: as many as fit in a
	// step's budget are prefilled together (M/D/1 with that many times
	// the capacity).
	pack := max(1, math.Floor(k.budget/k.in))
	rho := x * service / pack
	if rho >= 1 {
		return state{}
	}
	st.ok = true
	st.share = x * stall
	st.wait = rho / (2 * (1 - rho)) * service / pack
	st.ttft = st.wait + service + traverse
	st.running += x * st.ttft
	return st
}

// rate returns the request rate at which the replica holds n sequences
// (n > 0), and its state there: running grows with the rate, so a
// bisection finds it.
func (k *costs) rate(n float64) (float64, state) {
	lo, hi := 0.0, 1.0
	for {
		if s := k.at(hi); !s.ok || s.running >= n {
			break
		}
		lo, hi = hi, 2*hi
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if s := k.at(mid); s.ok && s.running < n {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		lo = hi / 2
	}
	return lo, k.at(lo)
}

// Solve returns the steady state of the configuration on hw, or an error
// when the engine would refuse it (Validate) or it does not fit
// (ErrDoesNotFit).
func Solve(c Config, hw Hardware) (Steady, error) {
	if err := c.Validate(); err != nil {
		return Steady{}, err
	}
	if !(hw.Speed > 0) {
		return Steady{}, fmt.Errorf("hardware speed %g must be positive", hw.Speed)
	}
	m := Models[c.Model]
	gpus := float64(c.TP * c.PP)
	perGPU := hw.MemoryBytes*c.GPUMemoryUtilization - hw.Reserved - m.WeightBytes()/gpus -
		float64(c.MaxNumBatchedTokens)*hw.ActivationPerToken
	if perGPU <= 0 {
		return Steady{}, fmt.Errorf("%s: weights (%.1f GB over %d GPUs) and activations %w at gpu_memory_utilization %g",
			c.Model, m.WeightBytes()/1e9, c.TP*c.PP, ErrDoesNotFit, c.GPUMemoryUtilization)
	}
	kvTokens := gpus * perGPU / m.KVBytesPerToken()
	k := newCosts(&c, m, hw)
	maxLen := float64(c.InputLen + c.OutputLen)
	if kvTokens < maxLen {
		return Steady{}, fmt.Errorf("the KV cache holds %.0f tokens, fewer than one request's %.0f: it %w", kvTokens, maxLen, ErrDoesNotFit)
	}
	kvSlots := int(kvTokens / k.ctxToken)
	slots := min(c.MaxNumSeqs, kvSlots)

	conc := float64(c.MaxConcurrency)
	if c.MaxConcurrency == 0 || c.MaxConcurrency > c.NumPrompts {
		conc = float64(c.NumPrompts)
	}
	perReplica := conc / float64(c.DP)
	n := min(perReplica, float64(slots))
	x, st := k.rate(n)
	queue := (perReplica - n) / x // clients beyond the slots wait for one
	ttft := queue + st.ttft

	dp := float64(c.DP)
	s := Steady{
		RequestThroughput: dp * x,
		OutputThroughput:  dp * x * k.out,
		TotalThroughput:   dp * x * (k.in + k.out),
		Concurrency:       conc,
		Running:           st.running,
		Slots:             slots,
		KVSlots:           kvSlots,
		KVTokens:          kvTokens,
		PrefillShare:      st.share,
		QueueWait:         queue,
		Duration:          float64(c.NumPrompts) / (dp * x),
	}
	waitShare := (queue + st.wait) / ttft
	s.TTFT = Dist{ttft, 0.10 + 0.6*waitShare}
	stall := st.share
	if c.ChunkedPrefill {
		stall /= 3 // chunks spread the stalls over many steps
	}
	s.TPOT = Dist{st.tpot, 0.03 + 0.3*stall}
	s.ITL = Dist{st.tpot, 0.05 + 1.2*stall}
	e2e := ttft + (k.out-1)*st.tpot
	s.E2EL = Dist{e2e, 0.04 + s.TTFT.Sigma*ttft/e2e}
	return s, nil
}
