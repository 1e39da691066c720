package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
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

type driftOptions struct {
	src                decideSource
	obj                decideObjectives
	baseline, from, to string
	confidence         float64
	format             string
}

func newDriftCmd(e *env) *cobra.Command {
	var o driftOptions
	c := &cobra.Command{
		Use:     "drift --baseline SELECTION -o OBJECTIVE... [--store S --study NAME] [PATH...]",
		Short:   "Compare the baseline measured in two environments",
		Long:    driftLong,
		Example: "  pareto drift --store runs.db --study tune --baseline role=baseline -o output_token_throughput:max -o ttft.p99:min --min-improve 3%",
		RunE: func(c *cobra.Command, args []string) error {
			if o.baseline == "" {
				return usagef("--baseline is required")
			}
			if o.format != "table" && o.format != "json" {
				return usagef("unknown --format %q (want table or json)", o.format)
			}
			if (o.from == "") != (o.to == "") {
				return usagef("give both --from and --to, or neither")
			}
			return runDrift(c.Context(), e, &o, args)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	o.src.flags(f)
	f.StringVar(&o.baseline, "baseline", "", "baseline `SELECTION` (KEY=VALUE, key:HEX, id:HEX)")
	o.obj.flags(f)
	f.StringVar(&o.from, "from", "", "older environment `SELECTION`, e.g. engine_version=0.8")
	f.StringVar(&o.to, "to", "", "newer environment `SELECTION`, e.g. engine_version=0.9")
	f.Float64Var(&o.confidence, "confidence", 0.95, "level of the interval on each change")
	f.StringVar(&o.format, "format", "table", "output `table|json`")
	return c
}

// driftJSON is the JSON form of a drift report.
type driftJSON struct {
	Baseline  string                 `json:"baseline"`
	From      decide.Scope           `json:"from"`
	To        decide.Scope           `json:"to"`
	Differs   []decide.ScopeDiff     `json:"differs"`
	Workloads []decide.DriftWorkload `json:"workloads"`
}

func runDrift(ctx context.Context, e *env, o *driftOptions, paths []string) error {
	objs, _, sels, err := o.obj.parse()
	if err != nil {
		return err
	}
	sel, err := decide.ParseSelection(o.baseline)
	if err != nil {
		return usageError{fmt.Errorf("--baseline: %w", err)}
	}
	ts, err := loadDecideTrials(ctx, &o.src, paths)
	if err != nil {
		return err
	}
	groups := decide.GroupRepeats(ts, o.src.keys())
	from, to, err := driftScopes(groups, sel, o)
	if err != nil {
		return err
	}
	sides := make([]decide.Side, 2)
	for i, sc := range []decide.Scope{from, to} {
		arm, err := decide.Baseline(groups, sel, sc, false)
		if err != nil {
			return inputError{err: err}
		}
		arm.Name = sc.String()
		if sides[i], err = decide.MeasureArm(arm, sels); err != nil {
			return inputError{err: err}
		}
	}
	rep := driftJSON{Baseline: o.baseline, From: from, To: to, Differs: from.Diff(to),
		Workloads: decide.Drift(objs, sides[0], sides[1], o.confidence)}
	if len(rep.Workloads) == 0 {
		return inputError{err: fmt.Errorf("the baseline shares no workload between %s and %s", from, to)}
	}
	if o.format == "json" {
		return writeDecideJSON(e, rep)
	}
	return writeDriftTable(e, &rep, o.confidence)
}

// driftScopes returns the two environments to compare: those named by
// --from and --to, else the only two the baseline was measured in.
func driftScopes(groups []decide.Group, sel decide.Selection, o *driftOptions) (decide.Scope, decide.Scope, error) {
	var none decide.Scope
	matched := decide.Select(groups, sel)
	if len(matched) == 0 {
		return none, none, inputError{err: fmt.Errorf("baseline %q matches no trial", o.baseline)}
	}
	if o.from != "" {
		from, err := scopeOf(matched, o.from)
		if err != nil {
			return none, none, err
		}
		to, err := scopeOf(matched, o.to)
		return from, to, err
	}
	var scopes []decide.Scope
	for _, g := range matched {
		if !containsScope(scopes, g.Scope) {
			scopes = append(scopes, g.Scope)
		}
	}
	if len(scopes) != 2 {
		names := make([]string, len(scopes))
		for i, s := range scopes {
			names[i] = s.String()
		}
		return none, none, usagef("the baseline was measured in %d environments (%s); name two with --from and --to", len(scopes), strings.Join(names, "; "))
	}
	return scopes[0], scopes[1], nil
}

// scopeOf returns the one environment of the baseline groups selected by s.
func scopeOf(groups []*decide.Group, s string) (decide.Scope, error) {
	sel, err := decide.ParseSelection(s)
	if err != nil {
		return decide.Scope{}, usageError{err}
	}
	var scopes []decide.Scope
	for _, g := range groups {
		for _, t := range g.Trials {
			if sel.Match(g, t) && !containsScope(scopes, g.Scope) {
				scopes = append(scopes, g.Scope)
			}
		}
	}
	if len(scopes) != 1 {
		return decide.Scope{}, inputError{err: fmt.Errorf("%q selects the baseline in %d environments; want one", s, len(scopes))}
	}
	return scopes[0], nil
}

func containsScope(list []decide.Scope, s decide.Scope) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func writeDriftTable(e *env, rep *driftJSON, conf float64) error {
	w := bufio.NewWriter(e.stdout)
	var diffs []string
	for _, d := range rep.Differs {
		diffs = append(diffs, fmt.Sprintf("%s %s → %s", d.Field, orDash(d.A), orDash(d.B)))
	}
	fmt.Fprintf(w, "baseline %s: %s\n\n", rep.Baseline, strings.Join(diffs, ", "))
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
			return enc.AppendPercent(append(enc.AppendPercent(b, float64(x.o.Low)), " to "...), float64(x.o.High))
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
