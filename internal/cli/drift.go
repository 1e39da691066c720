package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/spf13/cobra"
)

const driftLong = `Drift compares the baseline configuration measured in two environments (for
example engine 0.8 and 0.9), so that an upgrade is judged on its own before
any tuning change is. For each workload measured in both and each objective
it prints the baseline's aggregate in each environment, the relative change
with its interval at --confidence (from the repeats of both sides, on the
log scale) and a verdict: improved or regressed (beyond --min-improve),
unchanged (within --noise both ways) or uncertain.

The baseline is a selection (KEY=VALUE on labels, params or workload,
key:HEX or id:HEX). When it was measured in exactly two environments they
are compared oldest first; otherwise name them with --from and --to
(selections such as engine_version=0.8).

Exit status: 0 success, 1 bad input, 2 usage error.`

// driftHelp is the help of pareto drift.
var driftHelp = commandSpec{
	use:     "drift --baseline SELECTION -o OBJECTIVE... [--store S --study NAME] [PATH...]",
	short:   "Compare the baseline measured in two environments",
	long:    driftLong,
	example: "  " + baselineStudyExample + " && pareto drift --store runs.db --study tune --baseline role=baseline -o output_token_throughput:max -o ttft.p99:min --min-improve 3%",
}

type driftOptions struct {
	src                decideSource
	obj                objectiveFlags
	baseline, from, to string
	confidence         float64
	format             formatFlag
}

func newDriftCmd(e *env) *cobra.Command {
	var o driftOptions
	c, f := newCommand(driftHelp, func(ctx context.Context, args []string) error {
		if o.baseline == "" {
			return usagef("--baseline is required")
		}
		if (o.from == "") != (o.to == "") {
			return usagef("give both --from and --to, or neither")
		}
		return runDrift(ctx, e, &o, args)
	})
	o.src.flags(f)
	f.StringVar(&o.baseline, "baseline", "", "baseline `SELECTION` (KEY=VALUE, key:HEX, id:HEX)")
	o.obj.flags(f, noiseIsMinImprove)
	f.StringVar(&o.from, "from", "", "older environment `SELECTION`, e.g. engine_version=0.8")
	f.StringVar(&o.to, "to", "", "newer environment `SELECTION`, e.g. engine_version=0.9")
	f.Float64Var(&o.confidence, "confidence", 0.95, "level of the interval on each change")
	o.format.addTableJSON(f)
	return c
}

func runDrift(ctx context.Context, e *env, o *driftOptions, paths []string) error {
	objs, _, err := o.obj.parse()
	if err != nil {
		return err
	}
	req := decide.DriftRequest{ConfigKeys: o.src.keys(), Objectives: objs, Confidence: o.confidence}
	if req.Baseline, err = repeat.ParseSelection(o.baseline); err != nil {
		return usageError{fmt.Errorf("--baseline: %w", err)}
	}
	if o.from != "" {
		if req.From, err = repeat.ParseSelection(o.from); err != nil {
			return usageError{err}
		}
		if req.To, err = repeat.ParseSelection(o.to); err != nil {
			return usageError{err}
		}
	}
	ts, err := loadDecideTrials(ctx, &o.src, paths)
	if err != nil {
		return err
	}
	rep, err := decide.RunDrift(ts, req)
	var ee *decide.EnvironmentsError
	switch {
	case errors.As(err, &ee):
		return usagef("%v; name two with --from and --to", err)
	case err != nil:
		return inputError{err: err}
	}
	return e.write(o.format.f, driftResult{rep, o.confidence})
}

// driftResult is what pareto drift prints: the report
// (docs/schema/drift.schema.json), and the confidence its table names.
type driftResult struct {
	decide.DriftReport
	confidence float64
}

// WriteTable prints the baseline's change and a row per objective.
func (d driftResult) WriteTable(out io.Writer) error {
	rep, conf := &d.DriftReport, d.confidence
	w := bufio.NewWriter(out)
	var diffs []string
	for _, d := range rep.Differs {
		diffs = append(diffs, fmt.Sprintf("%s %s → %s", d.Field, orDash(d.A), orDash(d.B)))
	}
	fmt.Fprintf(w, "baseline %s: %s\n\n", enc.Safe(rep.Baseline), enc.Safe(strings.Join(diffs, ", ")))
	type row struct {
		w string
		o decide.DriftObjective
	}
	var rows []row
	for _, dw := range rep.Workloads {
		for _, o := range dw.Objectives {
			rows = append(rows, row{fmt.Sprintf("%s (%d→%d runs)", dw.Workload, dw.FromRuns, dw.ToRuns), o})
		}
	}
	ci := fmt.Sprintf("%g%% CI", 100*conf)
	enc.Section(w, []string{"workload", "objective", "from", "to", "change", ci, "verdict"}, len(rows), func(b []byte, r, c int) []byte {
		x := rows[r]
		switch c {
		case 0:
			return append(b, x.w...)
		case 1:
			return append(b, x.o.Name...)
		case 2:
			return enc.AppendNum(b, float64(x.o.From))
		case 3:
			return enc.AppendNum(b, float64(x.o.To))
		case 4:
			return enc.AppendPercent(b, float64(x.o.Delta))
		case 5:
			return enc.AppendInterval(b, float64(x.o.Low), float64(x.o.High))
		}
		return append(b, x.o.Verdict...)
	})
	return w.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
