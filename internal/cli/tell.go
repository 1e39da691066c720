package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/tune"
	"github.com/spf13/cobra"
)

const tellLong = `Tell records the measurement of a run pareto ask gave: result files or
directories (read as pareto ingest reads them), or --value NAME=X
measurements (NAME a metric selector such as ttft.p99), recorded in the
study with the run's parameters, whatever the files hold (a parameter a
file records with another value is kept as the label tune_file.NAME and
reported: a warning on stderr, "mismatches" in JSON). A directory is read
as pareto ingest reads it: only the benchmark results in it are trials,
not the logs, telemetry or per-request records beside them. It completes
the run, tells the sampler
when its configuration's runs are all done, and prints the gate's verdict
on the configuration as feedback (JSON with --format json): admit, reject,
inconclusive (with the runs it queued, of the configuration, the baseline
or the archive members it is compared with: ask again), or none yet (the
configuration or the baseline has runs still to measure). An inconclusive
verdict that needs runs of an archive member this study cannot run (one
ingested or gated outside pareto tune) queues nothing and says so
(stalled): revoke the member (pareto gate --revoke key:HEX) or record more
of its runs; the configuration is judged again when the baseline is
re-measured. --failed REASON
records that the run could not be measured.

A tell is complete or refused: every objective of the study must be
present and finite in every trial told, else tell exits 1 naming the
missing objectives and records nothing (the run stays the driver's: tell
it again complete). Only the driver that holds the run may tell it
(--driver, as given to pareto ask; --attempt, the attempt ask printed): a
run whose lease ended and that was handed out again is refused, exit 1.`

const tellExample = `  pareto ask --store tune.db --study agent --space examples/search/vllm.toml -o output_token_throughput:max -o ttft.p99:min --budget 20 && \
    pareto tell --store tune.db --study agent 1 --value output_token_throughput=1850 --value ttft.p99=180 --format json
  pareto ask --store lane.db --study lanes --space examples/search/vllm.toml -o output_token_throughput:max --budget 20 --driver lane-1 && \
    pareto tell --store lane.db --study lanes --driver lane-1 --attempt 1 1 --value output_token_throughput=1790`

// tellHelp is the help of pareto tell.
var tellHelp = commandSpec{
	use:     "tell --study NAME [--driver ID --attempt N] TRIAL [FILE...] [--value NAME=X]... [--failed REASON]",
	short:   "Record the measurement of a run pareto ask gave, and print the gate's feedback",
	long:    tellLong,
	example: tellExample,
	args:    cobra.MinimumNArgs(1),
}

type tellOptions struct {
	db             storeFlags // --store, --study
	failed, driver string
	format         formatFlag
	attempt        int
	values         []string
	limits         limitFlags
	as             string
}

func newTellCmd(e *env) *cobra.Command {
	var o tellOptions
	c, f := newCommand(tellHelp, func(ctx context.Context, args []string) error {
		return runTell(ctx, e, &o, args)
	})
	o.db.addStudy(f, "study `NAME`")
	f.StringVar(&o.driver, "driver", tune.DefaultDriver, "the `ID` of the driver that holds the run (pareto ask --driver)")
	f.IntVar(&o.attempt, "attempt", 0, "the run's attempt pareto ask printed: refused if the run was handed out again since (0: not checked)")
	f.StringArrayVar(&o.values, "value", nil, "a measurement `NAME=X`, repeatable")
	f.StringVar(&o.failed, "failed", "", "record the run as failed, for `REASON`")
	o.format.add(f, "output format: table or json", enc.FormatTable, enc.FormatJSON)
	addLimitFlags(f, &o.limits)
	addAsFlag(f, &o.as)
	return c
}

func runTell(ctx context.Context, e *env, o *tellOptions, args []string) error {
	if err := o.db.requireStudy(); err != nil {
		return err
	}
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || id < 1 {
		return usagef("TRIAL %q: want the trial number pareto ask printed", args[0])
	}
	if o.attempt < 0 {
		return usagef("--attempt must be the attempt pareto ask printed, not %d", o.attempt)
	}
	if _, err := tune.DriverWorker(o.driver); err != nil {
		return queryUsage(err)
	}
	files := args[1:]
	if (len(files) == 0 && len(o.values) == 0) == (o.failed == "") {
		return usagef("give result files or --value measurements, or --failed REASON")
	}
	in := tune.TellInput{Driver: o.driver, Attempt: o.attempt, Failed: o.failed, Values: o.values}
	if len(files) > 0 && o.failed == "" {
		opts, err := (&readerFlags{as: o.as}).load(0, o.limits)
		if err != nil {
			return err
		}
		srcs, err := readSources(ctx, files, opts)
		if err != nil {
			return err
		}
		for _, s := range srcs {
			in.Trials = append(in.Trials, s.Trials...)
		}
		in.Source = strings.Join(files, " ")
	}
	st, err := o.db.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := tune.OpenExisting(ctx, st, o.db.study)
	if err != nil {
		return inputError{err: err}
	}
	out, err := t.Tell(ctx, id, in)
	if isFieldError(err) {
		return queryUsage(err)
	}
	if err != nil {
		return inputError{err: err}
	}
	return writeTell(e, o.format.f, out)
}

func writeTell(e *env, format enc.Format, out tune.TellResult) error {
	for _, m := range out.Mismatches {
		fmt.Fprintf(e.stderr, "pareto tell: warning: run %d: %s\n", out.Run, m)
	}
	phraseVerdict(out.Verdict)
	out.Stalled = fieldText(out.Stalled)
	return e.write(format, tellResult(out))
}

// tellResult is what pareto tell prints: the run recorded and the gate's
// decision (docs/schema/tell.schema.json).
type tellResult tune.TellResult

// WriteTable says what was recorded in one line.
func (out tellResult) WriteTable(w io.Writer) error {
	b := fmt.Appendf(nil, "run %d (%s, configuration %d) recorded; gate: %s", out.Run, out.Role, out.Number, out.Decision)
	if out.Queued > 0 {
		b = fmt.Appendf(b, " (%d more runs queued: ask again)", out.Queued)
	}
	if out.GateError != "" {
		b = fmt.Appendf(b, " (%s)", out.GateError)
	}
	if out.Stalled != "" {
		b = fmt.Appendf(b, " (stalled: %s)", out.Stalled)
	}
	_, err := w.Write(append(b, '\n'))
	return err
}
