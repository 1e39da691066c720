package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/tune"
	"github.com/spf13/cobra"
)

const askLong = `Ask gives an external driver (a notebook, a CI job, an LLM agent) the next
run to measure in a tuning study, as JSON: its run ID (what pareto tell
takes), its configuration's number and role (the baseline's runs come
first in every session), its parameters, and the environment variables
pareto tune would set. The run stays running until told, without a lease.

The first ask of a study creates it from --space, the objectives (-o),
--budget, --sampler, --seed and --repeats, as pareto tune does; later asks
(and tells) use what the study keeps. When the budget is spent, ask exits 1
saying so.`

const askExample = `  pareto ask --store tune.db --study agent --space examples/search/vllm.toml -o output_token_throughput:max -o ttft.p99:min --budget 20`

type askOptions struct{ tuneOptions }

func newAskCmd(e *env) *cobra.Command {
	var o askOptions
	c := &cobra.Command{
		Use:     "ask --study NAME [--store S] [--space SPACE.toml -o OBJECTIVE... --budget N]",
		Short:   "Give an external driver the next run of a tuning study (JSON)",
		Long:    askLong,
		Example: askExample,
		Args:    noArgs,
		RunE:    func(c *cobra.Command, _ []string) error { return runAsk(c.Context(), e, &o) },
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.store, "store", "", "store `LOCATION` (default $PARETO_STORE, else pareto.db)")
	f.StringVar(&o.study, "study", "", "study `NAME`")
	f.StringVar(&o.space, "space", "", "search space `TOML` file (creating the study)")
	f.IntVar(&o.budget, "budget", 0, "runs of the study in all (creating the study; later: a new budget)")
	o.obj.flags(f)
	f.StringVar(&o.sampler, "sampler", search.NSGA2, "sampler (creating the study): "+strings.Join(search.Samplers, ", "))
	f.Uint64Var(&o.seed, "seed", 0, "seed of the sampler (creating the study)")
	f.IntVar(&o.repeats, "repeats", tune.DefaultRepeats, "runs of each configuration (creating the study)")
	f.IntVar(&o.maxRuns, "max-runs", tune.DefaultMaxRuns, "runs of a configuration the gate may ask for (creating the study)")
	return c
}

// openTuning opens the study's tuning state: an existing one, or a new
// one from the flags when --space is given (tune.OpenSpec).
func openTuning(ctx context.Context, st store.Store, o *tuneOptions) (*tune.Tuning, error) {
	t, err := tune.OpenSpec(ctx, st, o.study, tune.AskSpec{Space: o.space, Objectives: o.obj.objectives, Noise: o.obj.noise,
		MinImprove: o.obj.minImprove, SLOs: o.obj.slos, Budget: o.budget, Sampler: o.sampler, Seed: o.seed,
		Repeats: o.repeats, MaxRuns: o.maxRuns})
	switch {
	case o.space == "" && errors.Is(err, store.ErrNoTune):
		return nil, usagef("study %q has no tuning state yet: give --space, -o and --budget to create it", o.study)
	case query.IsUsage(err):
		return nil, queryUsage(err)
	case err != nil:
		return nil, inputError{err: err}
	}
	return t, nil
}

func runAsk(ctx context.Context, e *env, o *askOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.study == "" {
		return usagef("--study is required")
	}
	st, err := store.Open(ctx, store.Location(o.store))
	if err != nil {
		return inputError{err: err}
	}
	defer st.Close()
	t, err := openTuning(ctx, st, &o.tuneOptions)
	if err != nil {
		return err
	}
	out, err := t.Ask(ctx, AskWorker)
	if err != nil {
		return inputError{err: err}
	}
	return writeDecideJSON(e, out)
}

// AskWorker is the worker pareto ask claims runs for.
const AskWorker = tune.AskWorker
