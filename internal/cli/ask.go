package cli

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const askLong = `Ask gives an external driver (a notebook, a CI job, an LLM agent) the next
run to measure in a tuning study, as JSON: its run ID (what pareto tell
takes), its configuration's number and role (the baseline's runs come
first in every session), its parameters, the environment variables
pareto tune would set, and the driver, attempt and lease that hold it.

The run is leased to the driver (--driver ID, default "ask") for --lease
(default 1h): tell it before the lease ends. A driver measures its runs
one at a time: ask gives it back the run it holds and has not told (a
driver killed and restarted with the same --driver gets it again, its
lease renewed, "resumed": true) before a new one; a driver that measures
runs in parallel gives each lane a --driver of its own. A run whose lease
ended is queued again and handed out, to any driver, on the next ask;
pareto tell then refuses the driver that lost it. A run handed out
--max-attempts times (default 3) fails on its last lost lease.

The first ask of a study creates it from --space, the objectives (-o),
--budget, --sampler, --seed and --repeats, as pareto tune does; later asks
(and tells) use what the study keeps, and a later --budget or
--max-attempts alone changes the study's (pareto ask --study NAME
--budget 80 raises its budget). A budget below 1 is refused. When the
budget is spent, ask exits 1 saying so (or that runs held by other
drivers are still to be told).`

const askExample = `  pareto ask --store tune.db --study agent --space examples/search/vllm.toml -o output_token_throughput:max -o ttft.p99:min --budget 20
  pareto ask --store lanes.db --study lanes --space examples/search/vllm.toml -o output_token_throughput:max --budget 1 --repeats 1 --driver lane-1 --lease 30m && \
    pareto tell --store lanes.db --study lanes --driver lane-1 --attempt 1 1 --value output_token_throughput=1790 && \
    pareto ask --store lanes.db --study lanes --budget 4`

// askHelp is the help of pareto ask.
var askHelp = commandSpec{
	use:     "ask --study NAME [--store S] [--driver ID] [--lease D] [--space SPACE.toml -o OBJECTIVE... --budget N]",
	short:   "Give an external driver the next run of a tuning study (JSON)",
	long:    askLong,
	example: askExample,
	args:    noArgs,
}

type askOptions struct {
	tuneOptions
	driver      string
	maxAttempts int
}

func newAskCmd(e *env) *cobra.Command {
	var o askOptions
	var c *cobra.Command // checkLimitFlags reads which flags were given
	c, f := newCommand(askHelp, func(ctx context.Context, _ []string) error {
		if err := checkLimitFlags(c, o.budget, &o.maxAttempts); err != nil {
			return err
		}
		return runAsk(ctx, e, &o)
	})
	o.db.addStudy(f, "study `NAME`")
	f.StringVar(&o.driver, "driver", tune.DefaultDriver, "the driver's `ID`: its outstanding run is given back first")
	f.DurationVar(&o.lease, "lease", tune.DefaultAskLease, "lease of the run: after it, the run may be handed out again")
	f.StringVar(&o.space, "space", "", "search space `TOML` file (creating the study)")
	f.IntVar(&o.budget, "budget", 0, "runs of the study in all (creating the study; later: a new budget)")
	addMaxAttemptsFlag(f, &o.maxAttempts)
	o.obj.flags(f, noiseIsMinImprove)
	f.StringVar(&o.sampler, "sampler", search.NSGA2, "sampler (creating the study): "+strings.Join(search.Samplers, ", "))
	f.Uint64Var(&o.seed, "seed", 0, "seed of the sampler (creating the study)")
	f.IntVar(&o.repeats, "repeats", tune.DefaultRepeats, "runs of each configuration (creating the study)")
	f.IntVar(&o.maxRuns, "max-runs", tune.DefaultMaxRuns, "runs of a configuration the gate may ask for (creating the study)")
	return c
}

// addMaxAttemptsFlag registers --max-attempts (checkLimitFlags checks
// it).
func addMaxAttemptsFlag(f *pflag.FlagSet, n *int) {
	f.IntVar(n, "max-attempts", tunequeue.DefaultMaxAttempts, "times a run is handed out before a lost lease fails it (creating the study; later: a new limit)")
}

// checkLimitFlags refuses a --budget or --max-attempts given below 1, and
// zeroes --max-attempts when not given (the study's is kept).
func checkLimitFlags(c *cobra.Command, budget int, maxAttempts *int) error {
	f := c.Flags()
	if f.Changed("budget") && budget < 1 {
		return usagef("--budget must be at least 1, not %d", budget)
	}
	if f.Changed("max-attempts") && *maxAttempts < 1 {
		return usagef("--max-attempts must be at least 1, not %d", *maxAttempts)
	}
	if !f.Changed("max-attempts") {
		*maxAttempts = 0
	}
	return nil
}

// openTuning opens the study's tuning state: an existing one, or a new
// one from the flags when --space is given (tune.OpenSpec).
func openTuning(ctx context.Context, st store.Store, o *askOptions) (*tune.Tuning, error) {
	t, err := tune.OpenSpec(ctx, st, o.db.study, tune.AskSpec{Space: o.space, Objectives: o.obj.objectives, Noise: o.obj.noise,
		MinImprove: o.obj.minImprove, SLOs: o.obj.slos, Budget: o.budget, MaxAttempts: o.maxAttempts, Sampler: o.sampler, Seed: o.seed,
		Repeats: o.repeats, MaxRuns: o.maxRuns})
	switch {
	case o.space == "" && errors.Is(err, tunequeue.ErrNoTune):
		return nil, usagef("study %q has no tuning state yet: give --space, -o and --budget to create it", o.db.study)
	case isFieldError(err):
		return nil, queryUsage(err)
	case err != nil:
		return nil, inputError{err: err}
	}
	return t, nil
}

func runAsk(ctx context.Context, e *env, o *askOptions) error {
	if err := o.db.requireStudy(); err != nil {
		return err
	}
	if o.lease < time.Second {
		return usagef("--lease must be at least 1s")
	}
	if _, err := tune.DriverWorker(o.driver); err != nil {
		return queryUsage(err)
	}
	st, err := o.db.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := openTuning(ctx, st, o)
	if err != nil {
		return err
	}
	out, err := t.Ask(ctx, tune.AskOptions{Driver: o.driver, Lease: o.lease})
	if err != nil {
		return inputError{err: err}
	}
	return e.write(enc.FormatJSON, out)
}
