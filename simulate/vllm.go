package simulate

import (
	"bufio"
	"io"
	"strconv"

	"github.com/pareto-llm/pareto/internal/enc"
)

// ModelVersion names the model behind the numbers. It is written into
// every result (the "simulator" member), so that results of a later
// version of the model are never taken for repeats of this one.
const ModelVersion = "pareto-simulate/1"

// WriteVLLM writes r as a vllm bench serve result file (the JSON of
// --save-result, indented as vllm bench sweep writes it): the setup and
// result members a real run has, the per-request arrays left out (as
// without --save-detailed). The server settings go in a "server_args"
// object, which pareto ingest keeps as parameters server_args.NAME, so
// that repeats of a configuration are recognised; "simulator" and the
// label mark the file as simulated.
func WriteVLLM(w io.Writer, r *Result) error {
	c := &r.Config
	o := object{w: bufio.NewWriter(w)}
	o.open()
	o.str("endpoint_type", "vllm")
	o.str("backend", "vllm")
	o.str("label", "simulated")
	o.str("model_id", Models[c.Model].ID)
	o.str("tokenizer_id", Models[c.Model].ID)
	o.int("num_prompts", c.NumPrompts)
	o.str("simulator", ModelVersion)
	o.key("server_args")
	o.open()
	for _, s := range Settings {
		if s.Knob != Server || s.Name == "model" {
			continue
		}
		o.key(s.Name)
		o.j.Raw(s.get(c))
	}
	o.close()
	o.int("random_input_len", c.InputLen)
	o.int("random_output_len", c.OutputLen)
	o.str("request_rate", "inf")
	o.num("burstiness", 1)
	o.key("max_concurrency")
	if c.MaxConcurrency > 0 {
		o.j.Int(int64(c.MaxConcurrency))
	} else {
		o.j.Raw("null")
	}
	o.key("seed")
	o.j.Raw(strconv.FormatUint(r.Seed, 10))
	o.num("duration", r.Duration)
	o.int("completed", r.Completed)
	o.int("failed", 0)
	o.int("total_input_tokens", r.TotalInputTokens)
	o.int("total_output_tokens", r.TotalOutputTokens)
	o.num("request_throughput", r.RequestThroughput)
	o.key("request_goodput")
	o.j.Raw("null")
	o.num("output_throughput", r.OutputThroughput)
	o.num("total_token_throughput", r.TotalThroughput)
	o.int("max_concurrent_requests", r.MaxConcurrentRequests)
	for _, m := range []struct {
		name string
		s    Stats
	}{{"ttft", r.TTFT}, {"tpot", r.TPOT}, {"itl", r.ITL}, {"e2el", r.E2EL}} {
		o.num("mean_"+m.name+"_ms", m.s.Mean)
		o.num("median_"+m.name+"_ms", m.s.Median)
		o.num("std_"+m.name+"_ms", m.s.Std)
		o.num("p99_"+m.name+"_ms", m.s.P99)
	}
	o.close()
	o.j.Raw("\n")
	if err := o.j.Flush(o.w, true); err != nil {
		return err
	}
	return o.w.Flush()
}

// object writes JSON objects indented by four spaces, as Python's
// json.dump(indent=4) does.
type object struct {
	w     *bufio.Writer
	j     enc.JSON
	depth int
	first bool
}

func (o *object) open() {
	o.j.Raw("{")
	o.depth++
	o.first = true
}

func (o *object) close() {
	o.depth--
	o.newline()
	o.j.Raw("}")
	o.first = false
}

func (o *object) newline() {
	o.j.Raw("\n")
	for range o.depth {
		o.j.Raw("    ")
	}
}

func (o *object) key(k string) {
	if !o.first {
		o.j.Raw(",")
	}
	o.first = false
	o.newline()
	o.j.Key(k)
	o.j.Raw(" ")
}

func (o *object) str(k, v string) { o.key(k); o.j.Str(v) }

func (o *object) int(k string, v int) { o.key(k); o.j.Int(int64(v)) }

func (o *object) num(k string, v float64) { o.key(k); o.j.Num(v) }
