package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pareto-llm/pareto/internal/atomicfile"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/spf13/cobra"
)

const simulateLong = `Simulate writes the result of a benchmark run that never happened: a vllm
bench serve JSON file computed from a documented model of an LLM server under
load, so that a tuning loop can be tried without GPUs. IT IS A MODEL, NOT A
MEASUREMENT: the numbers follow from formulas (go doc
github.com/pareto-llm/pareto/simulate, and docs/TUNING.md's "Simulated runs")
and from seeded noise; the file says so (label "simulated", model_id
"simulated/...", "simulator": "` + simulate.ModelVersion + `").

In the model, larger batches and more requests in flight raise throughput and
TPOT; requests beyond the batch cap queue and raise TTFT; chunked prefill
trades a longer TTFT for a shorter TPOT; tensor parallelism scales
sub-linearly; the KV cache left by the weights caps how many sequences run at
once. Each run's statistics are scaled by log-normal run-to-run noise seeded
by --seed, with the coefficient of variation --cv per metric group
(throughput, ttft, tpot, itl, e2el): the same parameters and seed give the
same file, another seed a repeat.

Parameters (--param NAME=VALUE, repeatable; defaults are vLLM's, with a client
concurrency of 64):
%s
The server settings are written under "server_args" (pareto ingest keeps them
as parameters server_args.NAME, so that repeats are recognised), the client's
as vllm bench serve writes them.

Exit status: 0 success; 1 when the configuration would not start (vLLM
refuses the settings, or the weights or one request's KV cache do not fit);
2 usage error.`

type simulateOptions struct {
	params []string
	seed   uint64
	cvs    []string
	speed  float64
	out    string
}

// simulateHelp is the help of pareto simulate.
var simulateHelp = commandSpec{
	use:   "simulate [--param NAME=VALUE]... [--seed N] [--cv [GROUP=]PCT]... [--out FILE]",
	short: "Write a simulated vLLM benchmark result (a model, not a measurement)",
	long:  fmt.Sprintf(simulateLong, simulateParamsHelp()),
	example: `  pareto simulate --param tp=2 --param max_num_seqs=128 --param concurrency=32 --seed 1 --out sim.json
  pareto simulate --param enable_chunked_prefill=false --param max_num_batched_tokens=8192 --cv ttft=10% --seed 2 --out -`,
	args: noArgs,
}

func newSimulateCmd(e *env) *cobra.Command {
	var o simulateOptions
	c, f := newCommand(simulateHelp, func(context.Context, []string) error {
		return runSimulate(e, &o)
	})
	f.StringArrayVarP(&o.params, "param", "p", nil, "set a parameter `NAME=VALUE` (see above), repeatable")
	f.Uint64Var(&o.seed, "seed", 0, "seed of the run-to-run noise")
	f.StringArrayVar(&o.cvs, "cv", nil, "run-to-run coefficient of variation `[GROUP=]PCT` (groups: throughput, ttft, tpot, itl, e2el; default 1.5%, 4%, 2%, 2%, 2%); PCT alone sets every group")
	f.Float64Var(&o.speed, "speed", 1, "speed of the simulated machine (1.06: 6% faster); not written into the result, as a real machine's is not")
	f.StringVar(&o.out, "out", "-", "write the result to `FILE`, creating its directory (- for standard output)")
	return c
}

// simulateParamsHelp lists the parameters with their defaults.
func simulateParamsHelp() string {
	var b strings.Builder
	def := simulate.DefaultConfig
	names := make([]string, len(simulate.Settings))
	width := 0
	for i, s := range simulate.Settings {
		names[i] = s.Name
		if s.Alias != "" {
			names[i] += " (" + s.Alias + ")"
		}
		width = max(width, len(names[i]))
	}
	for i, s := range simulate.Settings {
		kind := "server"
		if s.Knob == simulate.Client {
			kind = "client"
		}
		v, _ := def.Get(s.Name)
		fmt.Fprintf(&b, "  %-*s  %s, default %s: %s\n", width, names[i], kind, v, s.Doc)
	}
	return b.String()
}

func runSimulate(e *env, o *simulateOptions) error {
	cfg, err := simulate.ParseParams(o.params)
	if _, ok := errors.AsType[*simulate.UnknownParamError](err); ok {
		return usageError{fmt.Errorf("--param: %w (see pareto simulate --help)", err)}
	}
	if err != nil {
		return usageError{fmt.Errorf("--param: %w", err)}
	}
	noise := simulate.DefaultNoise
	for _, s := range o.cvs {
		group, pct, named := strings.Cut(s, "=")
		if !named {
			group, pct = "", s
		}
		v, err := query.ParsePercent(pct)
		if err != nil {
			return usagef("--cv %q: %s", s, err)
		}
		if err := noise.Set(strings.TrimSpace(group), v); err != nil {
			return usagef("--cv %q: %v", s, err)
		}
	}
	if !(o.speed > 0) {
		return usagef("--speed must be positive")
	}
	hw := simulate.DefaultHardware
	hw.Speed = o.speed
	r, err := simulate.Run(cfg, hw, noise, o.seed)
	if err != nil {
		return inputError{fmt.Errorf("the configuration would not start: %w", err)}
	}
	write := func(w io.Writer) error { return simulate.WriteVLLM(w, &r) }
	if o.out == "-" {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		_, err := e.stdout.Write(b.Bytes())
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return inputError{err}
	}
	if err := atomicfile.Write(o.out, write); err != nil {
		return inputError{err}
	}
	return nil
}
