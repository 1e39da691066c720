package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/spf13/cobra"
)

const pickLong = `Pick chooses one configuration to deploy: among the configurations that
meet every --slo bound at every workload they were measured on (one that is
fast at concurrency 64 but over a latency bound at 16 is not feasible; its
points are listed as excluded), the best on the primary objective (the first
--maximize, else the first --minimize), ties broken by the other objectives
in order (an ε-constraint choice, always on the frontier). Repeats are
aggregated first (--aggregate median|mean|none).

For every binding bound it reports the primary value that relaxing the bound
by --relax (10%) would buy, and with which configuration. It never relaxes a
bound by itself: when nothing is feasible it exits 1 and lists the closest
configurations with what they violate. Trials none of which has every
objective and bound (a misspelled metric) are an error naming the first
one's missing metric.

--format text prints the choice, its spread and its configuration; json adds
every detail; toml and env print the configuration only, for deployment.

Exit status: 0 a configuration was chosen, 1 nothing is feasible or bad
input, 2 usage error.`

const pickExample = `  pareto ingest examples/decide/baseline-sglang-0.5.6.jsonl examples/decide/baseline-sglang-0.6.0.jsonl \
    --store runs.db --study tune --label role=baseline && \
    pareto pick --store runs.db --study tune --maximize output_token_throughput \
    --minimize ttft.p99 --slo 'ttft.p99<=2000' --format toml`

// pickHelp is the help of pareto pick.
var pickHelp = commandSpec{
	use:     "pick --maximize METRIC [--minimize METRIC] --slo BOUND... [--store S --study NAME] [PATH...]",
	short:   "Choose the configuration to deploy under SLO bounds",
	long:    pickLong,
	example: pickExample,
}

type pickOptions struct {
	src                      decideSource
	maximize, minimize, slos []string
	aggregate, relax         string
	format                   formatFlag
}

func newPickCmd(e *env) *cobra.Command {
	var o pickOptions
	c, f := newCommand(pickHelp, func(ctx context.Context, args []string) error {
		return runPick(ctx, e, &o, args)
	})
	o.src.flags(f)
	f.StringArrayVar(&o.maximize, "maximize", nil, "objective `METRIC` to maximise, repeatable (the first is primary)")
	f.StringArrayVar(&o.minimize, "minimize", nil, "objective `METRIC` to minimise, repeatable")
	addSLOFlag(f, &o.slos)
	addAggregateFlag(f, &o.aggregate, "median")
	f.StringVar(&o.relax, "relax", "10%", "price each binding bound by relaxing it by `PCT`")
	o.format.add(f, "output `text|json|toml|env`", formatText, enc.FormatJSON, formatTOML, formatEnv)
	return c
}

// pickQuery is the validated form of the pick flags.
type pickQuery struct {
	cfg decide.PickConfig
	agg repeat.Aggregation
}

func parsePick(o *pickOptions) (*pickQuery, error) {
	req, err := decide.PickSpec{Maximize: o.maximize, Minimize: o.minimize, SLOs: o.slos, Aggregate: o.aggregate,
		Relax: o.relax}.Request()
	if err != nil {
		return nil, queryUsage(err)
	}
	return &pickQuery{cfg: req.Pick, agg: req.Aggregation}, nil
}

func runPick(ctx context.Context, e *env, o *pickOptions, paths []string) error {
	q, err := parsePick(o)
	if err != nil {
		return err
	}
	set, err := loadSourceTrials(ctx, e, &o.src, paths)
	if err != nil {
		return err
	}
	rep, err := decide.RunPick(set.Trials, decide.PickRequest{ConfigKeys: o.src.keys(), Aggregation: q.agg, Pick: q.cfg})
	if err != nil {
		return inputError{err: err}
	}
	pr := &pickReport{q: q, points: rep.Points, res: rep.PickResult, keys: o.src.keys()}
	if err := e.write(o.format.f, pr); err != nil {
		return err
	}
	if !rep.Feasible() {
		return outcomeError{outcomeInfeasible, "no configuration meets every bound (bounds are never relaxed automatically)"}
	}
	return nil
}

// pickReport renders a pick.
type pickReport struct {
	q      *pickQuery
	points []repeat.Point
	res    decide.PickResult
	keys   []string
}

// The formats of pareto pick besides JSON: the choice for a reader, as
// TOML and as environment variables.
const (
	formatText enc.Format = "text"
	formatTOML enc.Format = "toml"
	formatEnv  enc.Format = "env"
)

// WriteJSON writes the pick as decide's PickOutput
// (docs/schema/pick.schema.json).
func (r *pickReport) WriteJSON(w io.Writer) error {
	return enc.EncodeJSON(w, decide.NewPickOutput(decide.PickReport{Points: r.points, PickResult: r.res},
		decide.PickRequest{ConfigKeys: r.keys, Aggregation: r.q.agg, Pick: r.q.cfg}))
}

// WriteFormat writes the choice as text, TOML or environment variables,
// or the closest configurations when none is feasible.
func (r *pickReport) WriteFormat(out io.Writer, f enc.Format) error {
	w := bufio.NewWriter(out)
	switch {
	case f != formatText && f != formatTOML && f != formatEnv:
		return &enc.FormatError{Name: string(f)}
	case r.res.Choice < 0:
		r.writeClosest(w)
	case f == formatTOML:
		r.writeTOML(w)
	case f == formatEnv:
		r.writeEnv(w)
	default:
		r.writeText(w)
	}
	return w.Flush()
}

func (r *pickReport) label(p int) string {
	g := r.points[p].Group
	return fmt.Sprintf("key:%s on %s", g.Config, g.Workload)
}

// uniqueNames returns each column name once, with its first column.
func (r *pickReport) uniqueNames() ([]string, []int) { return decide.PickColumns(r.q.cfg) }

func (r *pickReport) writeText(w *bufio.Writer) {
	p := r.points[r.res.Choice]
	fmt.Fprintf(w, "chosen: %s (%d runs, %s)\n\n", enc.Safe(r.label(r.res.Choice)), len(p.Group.Trials), enc.Safe(p.Group.Scope.String()))
	names, cols := r.uniqueNames()
	enc.Section(w, []string{"metric", "value", "n", "min", "max", "iqr"}, len(names), func(b []byte, row, c int) []byte {
		s := p.Stats[cols[row]]
		switch c {
		case 0:
			return append(b, names[row]...)
		case 2:
			return fmt.Appendf(b, "%d", s.N)
		}
		return enc.AppendNum(b, [...]float64{0, s.Value, 0, s.Min, s.Max, s.IQR()}[c])
	})
	if len(r.res.Binding) > 0 {
		fmt.Fprintf(w, "\nBINDING BOUNDS (relaxing by %g%%)\n", 100*r.q.cfg.Relax)
		enc.Section(w, []string{"bound", "relaxed", r.q.cfg.Primary.Name, "gain", "with"}, len(r.res.Binding), func(b []byte, row, c int) []byte {
			x := r.res.Binding[row]
			switch c {
			case 0:
				return append(b, x.SLO.String()...)
			case 1:
				return append(b, x.Relaxed.String()...)
			case 2:
				return enc.AppendNum(b, x.Value)
			case 3:
				return enc.AppendPercent(b, x.Gain)
			}
			return append(b, r.label(x.Choice)...)
		})
	}
	if len(r.res.Excluded) > 0 {
		fmt.Fprintf(w, "\nEXCLUDED (within the bounds here, but the configuration violates one at another workload)\n")
		for _, x := range r.res.Excluded {
			fmt.Fprintf(w, "%s\n", enc.Safe(r.label(x)))
		}
	}
	params := p.Group.Params(r.keys)
	fmt.Fprintf(w, "\nCONFIGURATION\n")
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(w, "%s = %s\n", enc.Safe(k), enc.Safe(params[k]))
	}
}

func (r *pickReport) writeClosest(w *bufio.Writer) {
	fmt.Fprintf(w, "no configuration meets every bound; closest:\n\n")
	enc.Section(w, []string{"config", "violates"}, len(r.res.Closest), func(b []byte, row, c int) []byte {
		x := r.res.Closest[row]
		if c == 0 {
			return append(b, r.label(x.Point)...)
		}
		for i, v := range x.Violations {
			if i > 0 {
				b = append(b, "; "...)
			}
			b = append(b, v.String()...)
		}
		return b
	})
}

func (r *pickReport) writeTOML(w *bufio.Writer) {
	p := r.points[r.res.Choice]
	fmt.Fprintf(w, "# pareto pick: %s\n", enc.Safe(r.label(r.res.Choice)))
	names, cols := r.uniqueNames()
	for i, n := range names {
		fmt.Fprintf(w, "# %s = %.6g (%s of %d runs)\n", enc.Safe(n), p.Stats[cols[i]].Value, r.q.agg, p.Stats[cols[i]].N)
	}
	params := p.Group.Params(r.keys)
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(w, "%s = %s\n", tomlString(k), tomlString(params[k]))
	}
}

func (r *pickReport) writeEnv(w *bufio.Writer) {
	p := r.points[r.res.Choice]
	fmt.Fprintf(w, "PARETO_CONFIG_KEY=%s\n", p.Group.Config)
	params := p.Group.Params(r.keys)
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(w, "%s=%s\n", envName(k), executor.ShellQuote(params[k]))
	}
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// envName turns a parameter name into an environment variable name.
func envName(k string) string {
	name := executor.EnvName(k)
	if len(name) > 0 && name[0] >= '0' && name[0] <= '9' {
		return "_" + name // a variable name cannot start with a digit
	}
	return name
}
