package cli

import (
	"context"
	"errors"
	"strings"

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

// askJSON is pareto ask's answer (docs/schema/ask.schema.json).
type askJSON struct {
	Study   string            `json:"study"`
	Run     int64             `json:"trial"`
	Number  int               `json:"configuration"`
	Role    string            `json:"role"`
	Session int               `json:"session"`
	Params  search.Config     `json:"params"`
	Env     map[string]string `json:"env"`
}

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
// one from the flags when --space is given.
func openTuning(ctx context.Context, st store.Store, o *tuneOptions) (*tune.Tuning, error) {
	if o.space == "" {
		t, err := tune.OpenExisting(ctx, st, o.study)
		if errors.Is(err, store.ErrNoTune) {
			return nil, usagef("study %q has no tuning state yet: give --space, -o and --budget to create it", o.study)
		}
		if err != nil {
			return nil, inputError{err: err}
		}
		return t, nil
	}
	if len(o.obj.objectives) == 0 {
		return nil, usagef("give the objectives with -o NAME:min|max")
	}
	objs, slos, err := o.obj.parse()
	if err != nil {
		return nil, err
	}
	space, text, err := readSpace(o.space)
	if err != nil {
		return nil, err
	}
	opts := tune.Options{Sampler: o.sampler, Seed: o.seed, Objectives: objs, Repeats: o.repeats, MaxRuns: o.maxRuns,
		SpaceFile: o.space, SpaceText: text}
	for _, s := range slos {
		opts.SLOs = append(opts.SLOs, s.String())
	}
	t, err := tune.Open(ctx, st, o.study, space, opts, o.budget)
	if err != nil {
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
	if n, err := t.Session(ctx); err != nil {
		return inputError{err: err}
	} else if n == 0 {
		if _, err := t.StartSession(ctx); err != nil {
			return inputError{err: err}
		}
	}
	r, err := t.Next(ctx, AskWorker, 0)
	if err != nil {
		return inputError{err: err}
	}
	out := askJSON{Study: o.study, Run: r.ID, Number: r.Trial, Role: r.Role, Session: r.Session, Params: r.Config, Env: map[string]string{}}
	if out.Params == nil {
		out.Params = search.Config{}
	}
	for _, kv := range tune.Env(r) {
		k, v, _ := strings.Cut(kv, "=")
		out.Env[k] = v
	}
	return writeDecideJSON(e, out)
}

// AskWorker is the worker pareto ask claims runs for.
const AskWorker = "ask"
