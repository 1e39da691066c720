package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// storeFlags are the flags of every command that reads or writes a store.
type storeFlags struct {
	location string
	study    string
	where    []string
}

// addStoreFlags registers --store, --study and --where on fs.
func addStoreFlags(fs *pflag.FlagSet, f *storeFlags) {
	fs.StringVar(&f.location, "store", "", "store: a SQLite path, sqlite:///PATH or postgres://URL (default $"+
		store.EnvVar+" or "+store.DefaultLocation+")")
	fs.StringVar(&f.study, "study", "", "study name")
	fs.StringArrayVar(&f.where, "where", nil, "filter on labels, params, workload or environment: KEY OP VALUE with = != < <= > >= (repeatable)")
}

// query parses --where into a store query.
func (f *storeFlags) query() (store.Query, error) {
	conds, err := store.ParseConditions(f.where)
	if err != nil {
		return store.Query{}, usageError{fmt.Errorf("--where: %w", err)}
	}
	return store.Query{Where: conds}, nil
}

// openStore opens the store the flags name for writing (creating and
// migrating it as needed); errors never show a password.
func openStore(ctx context.Context, f *storeFlags) (store.Store, error) {
	s, err := store.Open(ctx, store.Location(f.location))
	if err != nil {
		return nil, inputError{err: err}
	}
	return s, nil
}

// openReader opens the store the flags name read-only, for the commands
// that only read: nothing is created, migrated or written.
func openReader(ctx context.Context, f *storeFlags) (store.Reader, error) {
	s, err := store.OpenReadOnly(ctx, store.Location(f.location))
	if err != nil {
		return nil, inputError{err: err}
	}
	return s, nil
}

// requireStudy fails with a usage error when --study is missing.
func (f *storeFlags) requireStudy() error {
	if f.study == "" {
		return usagef("--study is required")
	}
	return nil
}

func newStudiesCmd(e *env) *cobra.Command {
	var f storeFlags
	cmd := &cobra.Command{
		Use:     "studies [--store S]",
		Short:   "List the studies of a store with trial counts and time ranges",
		Example: "  pareto studies --store runs.db",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := openReader(contextOf(c), &f)
			if err != nil {
				return err
			}
			defer s.Close()
			studies, err := s.Studies(contextOf(c))
			if err != nil {
				return inputError{err: err}
			}
			return writeStudies(e.stdout, studies)
		},
	}
	addStoreFlags(cmd.Flags(), &f)
	return cmd
}

func contextOf(c *cobra.Command) context.Context {
	if ctx := c.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

func writeStudies(w io.Writer, studies []store.Study) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STUDY\tTRIALS\tSOURCES\tFIRST\tLAST")
	ts := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, s := range studies {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", enc.Safe(s.Name), s.Trials, s.Sources, ts(s.First), ts(s.Last))
	}
	return tw.Flush()
}

func newTrialsCmd(e *env) *cobra.Command {
	var f storeFlags
	format := "jsonl"
	cmd := &cobra.Command{
		Use:   "trials --store S --study NAME [--where K=V ...] [--format jsonl|csv]",
		Short: "Export a study's trials (jsonl is lossless and can be ingested again)",
		Long: `Trials exports a study's trials, filtered by --where: KEY OP VALUE on labels,
params, workload or environment, session=NAME for a measurement session, and
key=HEX for a configuration or repeat key (the key:HEX pareto gate prints).`,
		Example: `  pareto trials --store runs.db --study tune --where role=baseline --format csv
  pareto trials --store runs.db --study tune`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := f.requireStudy(); err != nil {
				return err
			}
			if format != "jsonl" && format != "csv" {
				return usagef("--format %q: want jsonl or csv", format)
			}
			q, err := f.query()
			if err != nil {
				return err
			}
			var keys []string
			if q.Where, keys, err = keyConditions(q.Where); err != nil {
				return err
			}
			s, err := openReader(contextOf(c), &f)
			if err != nil {
				return err
			}
			defer s.Close()
			ts, err := s.Trials(contextOf(c), f.study, q)
			if err != nil {
				return inputError{err: err}
			}
			ts = slices.DeleteFunc(ts, func(t trial.Trial) bool {
				for _, k := range keys {
					if !decide.HasKey(&t, nil, k) {
						return true
					}
				}
				return false
			})
			if format == "csv" {
				return writeTrialsCSV(e.stdout, ts)
			}
			return writeTrialsJSONL(e.stdout, ts)
		},
	}
	addStoreFlags(cmd.Flags(), &f)
	cmd.Flags().StringVar(&format, "format", format, "jsonl (one trial.Trial per line) or csv (one column per label, param and measurement)")
	return cmd
}

// keyConditions splits the conditions key=HEX off where: a trial's
// configuration or repeat key (the key:HEX pareto gate prints) is not a
// stored field, so they are matched on the trials read.
func keyConditions(where []trial.Condition) (rest []trial.Condition, keys []string, err error) {
	for _, c := range where {
		if c.Key != "key" {
			rest = append(rest, c)
			continue
		}
		v := strings.TrimPrefix(strings.ToLower(c.Value), "key:")
		if c.Op != trial.OpEq || len(v) < 4 {
			return nil, nil, usagef("--where key=HEX: want = and at least 4 hex digits of a configuration or repeat key")
		}
		keys = append(keys, v)
	}
	return rest, keys, nil
}

func writeTrialsJSONL(w io.Writer, ts []trial.Trial) error {
	enc := json.NewEncoder(w)
	for i := range ts {
		if err := enc.Encode(&ts[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeTrialsCSV writes id, source, then label.K, param.K and one column
// per measurement selector, in sorted order.
func writeTrialsCSV(w io.Writer, ts []trial.Trial) error {
	labels, params, metrics := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range ts {
		for k := range ts[i].Labels {
			labels[k] = true
		}
		for k := range ts[i].Params {
			params[k] = true
		}
		for _, m := range ts[i].Measurements {
			metrics[m.String()] = true
		}
	}
	lk, pk, mk := sortedKeys(labels), sortedKeys(params), sortedKeys(metrics)
	cw := csv.NewWriter(w)
	header := []string{"id", "source"}
	for _, k := range lk {
		header = append(header, "label."+k)
	}
	for _, k := range pk {
		header = append(header, "param."+k)
	}
	header = append(header, mk...)
	cw.Write(header)
	for i := range ts {
		t := &ts[i]
		row := []string{t.ID, t.Source.Path}
		for _, k := range lk {
			row = append(row, t.Labels[k])
		}
		for _, k := range pk {
			row = append(row, t.Params[k])
		}
		vals := map[string]string{}
		for _, m := range t.Measurements {
			vals[m.String()] = strconv.FormatFloat(m.Value, 'g', -1, 64)
		}
		for _, k := range mk {
			row = append(row, vals[k])
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return slices.Clip(out)
}
