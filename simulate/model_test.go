package simulate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// drawConfig draws a configuration the engine accepts (Validate), of
// either model; it may still not fit in memory.
func drawConfig(t *rapid.T) Config {
	c := DefaultConfig
	c.Model = rapid.SampledFrom([]string{"llama-3.1-8b", "llama-3.1-70b"}).Draw(t, "model")
	if c.Model == "llama-3.1-8b" {
		c.TP = rapid.SampledFrom([]int{1, 2, 4, 8}).Draw(t, "tp")
		c.PP = rapid.SampledFrom([]int{1, 2, 4}).Draw(t, "pp")
	} else {
		c.TP = rapid.SampledFrom([]int{4, 8}).Draw(t, "tp")
		c.PP = rapid.SampledFrom([]int{1, 2}).Draw(t, "pp")
	}
	c.DP = rapid.IntRange(1, 4).Draw(t, "dp")
	c.InputLen = rapid.IntRange(1, 4096).Draw(t, "input_len")
	c.OutputLen = rapid.IntRange(2, 1024).Draw(t, "output_len")
	c.ChunkedPrefill = rapid.Bool().Draw(t, "chunked")
	lo := 256
	if !c.ChunkedPrefill {
		lo = c.InputLen + c.OutputLen
	}
	c.MaxNumBatchedTokens = rapid.IntRange(lo, 16384).Draw(t, "max_num_batched_tokens")
	c.MaxNumSeqs = rapid.IntRange(1, min(1024, c.MaxNumBatchedTokens)).Draw(t, "max_num_seqs")
	c.GPUMemoryUtilization = rapid.Float64Range(0.5, 0.95).Draw(t, "gpu_memory_utilization")
	c.NumPrompts = rapid.IntRange(1, 4000).Draw(t, "num_prompts")
	c.MaxConcurrency = rapid.IntRange(0, 2048).Draw(t, "max_concurrency")
	return c
}

// solve returns the steady state or skips a configuration that does not
// fit; any other error fails.
func solve(t *rapid.T, c Config) Steady {
	s, err := Solve(c, DefaultHardware)
	if errors.Is(err, ErrDoesNotFit) {
		t.Skip("does not fit")
	}
	if err != nil {
		t.Fatalf("Solve(%+v): %v", c, err)
	}
	checkSteady(t, c, s)
	return s
}

// checkSteady checks what holds for every steady state.
func checkSteady(t *rapid.T, c Config, s Steady) {
	for name, v := range map[string]float64{"throughput": s.RequestThroughput, "ttft": s.TTFT.Mean, "tpot": s.TPOT.Mean,
		"itl": s.ITL.Mean, "e2el": s.E2EL.Mean, "duration": s.Duration} {
		if !(v > 0) || math.IsInf(v, 0) {
			t.Fatalf("%s = %g, want positive and finite (%+v)", name, v, c)
		}
	}
	if s.Running > float64(s.Slots)*(1+1e-9) || s.Slots > s.KVSlots || s.Slots > c.MaxNumSeqs {
		t.Fatalf("running %g, slots %d, KV slots %d, max_num_seqs %d: the KV cache and max_num_seqs cap the batch", s.Running, s.Slots, s.KVSlots, c.MaxNumSeqs)
	}
	if got, want := s.OutputThroughput, s.RequestThroughput*float64(c.OutputLen); !near(got, want) {
		t.Fatalf("output throughput %g, want requests/s × output_len = %g", got, want)
	}
	if s.TTFT.P99() < s.TTFT.Median() || s.TTFT.Median() > s.TTFT.Mean {
		t.Fatalf("TTFT %+v: want median <= mean and median <= p99", s.TTFT)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// atLeast reports b >= a up to rounding.
func atLeast(b, a float64) bool { return b >= a*(1-1e-9) }

// TestConcurrency: more requests in flight raise throughput, TTFT and
// TPOT (queueing and bigger batches), never lower them.
func TestConcurrency(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.MaxConcurrency = rapid.IntRange(1, 2000).Draw(t, "c1")
		c2 := c
		c2.MaxConcurrency = c.MaxConcurrency + rapid.IntRange(1, 500).Draw(t, "more")
		c.NumPrompts, c2.NumPrompts = 5000, 5000
		a, b := solve(t, c), solve(t, c2)
		if !atLeast(b.OutputThroughput, a.OutputThroughput) {
			t.Fatalf("throughput %g at concurrency %d, %g at %d", a.OutputThroughput, c.MaxConcurrency, b.OutputThroughput, c2.MaxConcurrency)
		}
		for _, m := range []struct {
			name string
			a, b float64
		}{{"mean TTFT", a.TTFT.Mean, b.TTFT.Mean}, {"p99 TTFT", a.TTFT.P99(), b.TTFT.P99()},
			{"mean TPOT", a.TPOT.Mean, b.TPOT.Mean}, {"p99 TPOT", a.TPOT.P99(), b.TPOT.P99()}} {
			if !atLeast(m.b, m.a) {
				t.Fatalf("%s %g at concurrency %d, %g at %d", m.name, m.a, c.MaxConcurrency, m.b, c2.MaxConcurrency)
			}
		}
	})
}

// TestBatchSize: a larger max_num_seqs (at a concurrency that fills it)
// raises throughput and TPOT.
func TestBatchSize(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c2 := c
		c2.MaxNumSeqs = rapid.IntRange(c.MaxNumSeqs, c.MaxNumBatchedTokens).Draw(t, "max_num_seqs2")
		c.MaxConcurrency, c2.MaxConcurrency = 0, 0
		c.NumPrompts, c2.NumPrompts = 20000, 20000
		a, b := solve(t, c), solve(t, c2)
		if !atLeast(b.OutputThroughput, a.OutputThroughput) || !atLeast(b.TPOT.Mean, a.TPOT.Mean) {
			t.Fatalf("max_num_seqs %d: %g tok/s, TPOT %g; max_num_seqs %d: %g tok/s, TPOT %g",
				c.MaxNumSeqs, a.OutputThroughput, a.TPOT.Mean, c2.MaxNumSeqs, b.OutputThroughput, b.TPOT.Mean)
		}
	})
}

// TestKVCap: the KV cache caps the batch; beyond the cap more
// concurrency only queues: the same throughput, a longer TTFT.
func TestKVCap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.MaxNumSeqs = c.MaxNumBatchedTokens // let the KV cache be the cap
		c.NumPrompts = 1 << 20
		s := solve(t, c)
		full := c
		full.MaxConcurrency = s.Slots * c.DP
		over := c
		over.MaxConcurrency = full.MaxConcurrency + rapid.IntRange(1, 1000).Draw(t, "over")
		a, b := solve(t, full), solve(t, over)
		if !near(a.OutputThroughput, b.OutputThroughput) || !(b.TTFT.Mean > a.TTFT.Mean) || b.QueueWait <= 0 {
			t.Fatalf("at the cap (%d): %g tok/s, TTFT %g; beyond (%d): %g tok/s, TTFT %g, queue %g",
				full.MaxConcurrency, a.OutputThroughput, a.TTFT.Mean, over.MaxConcurrency, b.OutputThroughput, b.TTFT.Mean, b.QueueWait)
		}
		lower := c
		lower.GPUMemoryUtilization = c.GPUMemoryUtilization * rapid.Float64Range(0.5, 1).Draw(t, "less")
		if l, err := Solve(lower, DefaultHardware); err == nil && l.KVSlots > s.KVSlots {
			t.Fatalf("gpu_memory_utilization %g gives %d KV slots, %g gives %d", lower.GPUMemoryUtilization, l.KVSlots, c.GPUMemoryUtilization, s.KVSlots)
		}
	})
}

// TestChunkedPrefill: at a load that queues nothing, chunked prefill
// trades a longer TTFT for a shorter TPOT.
func TestChunkedPrefill(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.MaxNumBatchedTokens = max(c.MaxNumBatchedTokens, c.InputLen+c.OutputLen)
		c.ChunkedPrefill = true
		u := c
		u.ChunkedPrefill = false
		a, b := solve(t, c), solve(t, u)
		if a.QueueWait > 0 || b.QueueWait > 0 {
			t.Skip("requests queue for a slot")
		}
		if !atLeast(a.TTFT.Mean, b.TTFT.Mean) || !atLeast(b.TPOT.Mean, a.TPOT.Mean) {
			t.Fatalf("chunked: TTFT %g, TPOT %g; unchunked: TTFT %g, TPOT %g (%+v)", a.TTFT.Mean, a.TPOT.Mean, b.TTFT.Mean, b.TPOT.Mean, c)
		}
	})
}

// TestTensorParallel: doubling TP (where no request waits for a slot)
// never doubles throughput nor halves TPOT: the all-reduces and the fixed
// step overhead do not shrink with more GPUs.
func TestTensorParallel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		if c.TP == 8 {
			c.TP = 4
		}
		d := c
		d.TP = 2 * c.TP
		a, b := solve(t, c), solve(t, d)
		if a.QueueWait > 0 || b.QueueWait > 0 {
			t.Skip("requests queue for a slot")
		}
		if !(b.OutputThroughput < 2*a.OutputThroughput) || !(b.TPOT.Mean > a.TPOT.Mean/2) {
			t.Fatalf("tp %d: %g tok/s, TPOT %g; tp %d: %g tok/s, TPOT %g", c.TP, a.OutputThroughput, a.TPOT.Mean, d.TP, b.OutputThroughput, b.TPOT.Mean)
		}
	})
}

// TestTensorParallelDefault: on the default workload each doubling of TP
// raises throughput and lowers TPOT, and throughput per GPU falls.
func TestTensorParallelDefault(t *testing.T) {
	var prev Steady
	for i, tp := range []int{1, 2, 4, 8} {
		c := DefaultConfig
		c.TP = tp
		s, err := Solve(c, DefaultHardware)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			perGPU, prevPerGPU := s.OutputThroughput/float64(tp), prev.OutputThroughput/float64(tp/2)
			if !(s.OutputThroughput > prev.OutputThroughput && s.TPOT.Mean < prev.TPOT.Mean && perGPU < prevPerGPU) {
				t.Errorf("tp %d: %.0f tok/s (%.0f per GPU), TPOT %.2f ms; tp %d: %.0f tok/s (%.0f per GPU), TPOT %.2f ms",
					tp/2, prev.OutputThroughput, prevPerGPU, 1e3*prev.TPOT.Mean, tp, s.OutputThroughput, perGPU, 1e3*s.TPOT.Mean)
			}
		}
		prev = s
	}
}

// TestChunkedPrefillAtRate: at the same request rate (the model's
// internal form, below saturation) chunked prefill never lengthens TPOT
// and never shortens TTFT; TestChunkedPrefill follows from it for the
// closed loop.
func TestChunkedPrefillAtRate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.MaxNumBatchedTokens = max(c.MaxNumBatchedTokens, c.InputLen+c.OutputLen)
		c.ChunkedPrefill = true
		u := c
		u.ChunkedPrefill = false
		m := Models[c.Model]
		kc, ku := newCosts(&c, m, DefaultHardware), newCosts(&u, m, DefaultHardware)
		x := rapid.Float64Range(0.001, 1000).Draw(t, "rate")
		a, b := kc.at(x), ku.at(x)
		if !a.ok || !b.ok {
			t.Skip("saturated")
		}
		if !atLeast(b.tpot, a.tpot) || !atLeast(a.ttft, b.ttft) {
			t.Fatalf("at %g requests/s: chunked TPOT %g, TTFT %g; unchunked TPOT %g, TTFT %g", x, a.tpot, a.ttft, b.tpot, b.ttft)
		}
	})
}

func TestSolveErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		params []string
		want   string
		fit    bool // errors.Is(err, ErrDoesNotFit)
	}{
		{"70b on one GPU", []string{"model=llama-3.1-70b"}, "does not fit", true},
		{"KV for one request", []string{"gpu_memory_utilization=0.23", "input_len=4000"}, "fewer than one request", true},
		{"tp not a power of two", []string{"tp=3"}, "power of two", false},
		{"pp not dividing layers", []string{"pp=3"}, "must divide", false},
		{"budget below max_num_seqs", []string{"max_num_seqs=512", "max_num_batched_tokens=256"}, "at least max_num_seqs", false},
		{"unchunked budget below max_model_len", []string{"chunked_prefill=false", "max_num_batched_tokens=1024"}, "max_model_len 1152", false},
		{"one output token", []string{"output_len=1"}, "at least 2", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseParams(tt.params)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Solve(c, DefaultHardware)
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, ErrDoesNotFit) != tt.fit {
				t.Fatalf("Solve(%v) = %v; want an error with %q (does not fit: %v)", tt.params, err, tt.want, tt.fit)
			}
		})
	}
}

func TestParseParams(t *testing.T) {
	c, err := ParseParams([]string{"tp=2", "max_num_seqs=128", "enable_chunked_prefill=false", "gpu_memory_utilization=0.85", "concurrency=16", "max_num_batched_tokens=4096.0"})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig
	want.TP, want.MaxNumSeqs, want.ChunkedPrefill, want.GPUMemoryUtilization, want.MaxConcurrency, want.MaxNumBatchedTokens = 2, 128, false, 0.85, 16, 4096
	if c != want {
		t.Errorf("ParseParams = %+v; want %+v", c, want)
	}
	for _, bad := range []string{"tp", "nope=1", "tp=1.5", "tp=0", "gpu_memory_utilization=1.2", "chunked_prefill=maybe", "model=gpt"} {
		if _, err := ParseParams([]string{bad}); err == nil {
			t.Errorf("ParseParams(%q) succeeded", bad)
		}
	}
}
