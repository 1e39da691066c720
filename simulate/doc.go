// Package simulate is a model of an LLM server under load, for trying a
// tuning loop without GPUs. It is a model, not a measurement: its numbers
// follow from the formulas below, chosen so that the trade-offs a real
// server shows have the right direction and a plausible size, and from
// seeded noise.
//
// Solve computes a configuration's noise-free steady state, Run adds
// run-to-run noise, and WriteVLLM writes the result as a vllm bench serve
// JSON file that pareto ingest reads like any other.
//
// # What is simulated
//
// One deployment of a model (Models: Llama 3.1 8B or 70B in bf16) on
// DP replicas of TP × PP GPUs each (Hardware, default DefaultHardware: an
// 80 GB GPU with 2.4 TB/s and 600 TFLOP/s effective), driven by a closed
// loop: the client keeps max_concurrency requests in flight (every
// prompt at once when it is 0), split evenly over the replicas, each of
// random_input_len prompt tokens and random_output_len output tokens.
// Config names the settings after vLLM's engine arguments and vllm bench
// serve's options; Validate refuses what vLLM refuses (TP not a power of
// two dividing the heads, PP not dividing the layers, a token budget
// below max_num_seqs, or below max_model_len without chunked prefill).
//
// # Memory and the KV cache
//
// Each GPU may use gpu_memory_utilization of its memory; of that,
// Reserved bytes, 1/(TP·PP) of the weights and ActivationPerToken bytes
// per token of max_num_batched_tokens are taken first, and the rest holds
// the KV cache. A configuration whose weights do not fit, or whose KV
// cache cannot hold one request of input + output tokens, fails with
// ErrDoesNotFit, as the engine would at start-up. A decoding sequence
// holds on average input + output/2 tokens, so the KV cache caps a
// replica's batch at KVSlots = ⌊KV tokens / (input + output/2)⌋, and
// the batch is Slots = min(max_num_seqs, KVSlots).
//
// # Steps
//
// A decode step of a replica with n decoding sequences takes
//
//	S0(n) = overhead + (PP-1)·stage hop + all-reduce(n)
//	        + max(weights/(TP·BW) + n·KV(ctx)/(PP·TP·BW),  n·F/(PP·TP·FLOPS))
//
// whichever of reading the weights and the KV cache, or computing, is
// longer (F = 2 × parameters FLOPs per token). With TP > 1 every layer
// does two all-reduces per step, each costing a latency that grows with
// log2 TP and a transfer per token: TP divides the memory and compute
// terms but not the overhead and adds all-reduces, so it scales
// sub-linearly; PP splits memory and the per-token compute over stages
// but every step still reads all the weights and pays the hops.
//
// # Prompts
//
// Without chunked prefill a prompt runs as a step of its own,
//
//	P = overhead + all-reduce(input) + max(weights/(TP·BW), input·F/(PP·TP·FLOPS)),
//
// that stalls every decode. With chunked prefill the prompt is split into
// ⌈input / max_num_batched_tokens⌉ chunks, each joining one decode step
// and lengthening it by its all-reduce transfer and by the part of its
// compute that does not hide under the step's weight read. So chunked
// prefill steals less time from decodes (shorter TPOT) but makes the
// prompt wait for several full steps (longer TTFT); a larger budget
// means fewer chunks: a shorter TTFT and a longer TPOT.
//
// # Steady state
//
// At a request rate x per replica, a fraction ρ = x · (stall per prompt)
// of the time goes to prompts, decodes progress in the rest, so
//
//	TPOT = S0(n_d) / (1 - ρ),  n_d = x · (output - 1) · TPOT,
//
// solved exactly (S0 is piecewise affine). Prompts queue for the prefill
// (M/D/1, with as many prompts per step as fit in the token budget), so
// TTFT = wait + prefill service + the prompt's way through the other
// pipeline stages. The replica holds n(x) = x·TTFT + n_d sequences;
// n grows with x, and a bisection finds the rate at which it equals the
// client's concurrency per replica, or Slots when the client sends more:
// the surplus requests wait for a slot (Little's law: (concurrency -
// Slots)/x more TTFT), and throughput stays at its value at Slots. More
// concurrency or a larger batch therefore raises throughput and TPOT,
// queueing raises TTFT, and the KV cache caps the concurrency that pays.
//
// Within a run each latency is log-normal around its mean, with a shape
// σ that grows with the share of the TTFT spent waiting (TTFT: 0.10 +
// 0.6 × share) or with the stall share (TPOT: 0.03 + 0.3 × share; ITL:
// 0.05 + 1.2 × share; both a third of that with chunked prefill, whose
// stalls are spread over many steps): the file's median, standard
// deviation and 99th percentile follow from it.
//
// # Noise
//
// Run scales every statistic of a metric group (Noise: throughput, TTFT,
// TPOT, ITL, end-to-end latency) by one log-normal factor with median 1
// and the group's coefficient of variation (DefaultNoise: 1.5 %, 4 %,
// 2 %, 2 %, 2 %). The factors come from the seed alone, in a fixed
// order: the same seed gives every configuration the same noise (common
// random numbers), and the same configuration and seed the same file.
// Hardware.Speed models a faster or slower machine; like a real machine's
// speed it is not written into the result.
//
// The model has no request failures, no preemption, no prefix caching,
// no speculative decoding and identical requests; a finite request rate
// is not modelled (the load is a closed loop).
package simulate
