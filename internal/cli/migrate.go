package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

const migrateLong = `Migrate upgrades the schema of an existing store (--store, default
$PARETO_STORE or pareto.db) to the version this pareto writes, in place,
each step in its own transaction, and says from which version to which.

The commands that only read a store (studies, trials, check, front,
pick, noise and drift with --study, and report --study without inputs)
open it read-only: they never migrate, and refuse a store of an older
schema, pointing here. The commands that write (ingest, gate, report
with inputs and generate-report with --study) upgrade the store as they
open it, as migrate does. Migrate
creates no SQLite store (a missing file is an error) and refuses a
database that is not a pareto store, naming its tables. --format json
prints {"store","from","to","upgraded"}.

Exit status: 0 success (also when the store is up to date), 1 when the
store is missing, not a pareto store or cannot be upgraded, 2 usage
error.`

// migrateHelp is the help of pareto migrate.
var migrateHelp = commandSpec{
	use:       "migrate [--store S] [--format table|json]",
	short:     "Upgrade a store's schema to this version of pareto",
	long:      migrateLong,
	example:   "  pareto ingest examples/trials.csv --store runs.db --study csv && pareto migrate --store runs.db",
	args:      noArgs,
	sortFlags: true,
}

func newMigrateCmd(e *env) *cobra.Command {
	c, fs, o := newStoreCommand(migrateHelp, func(ctx context.Context, o *storeOptions) error {
		loc := o.store.resolved()
		from, to, err := store.Migrate(ctx, loc)
		if err != nil {
			return inputError{err: err}
		}
		return e.write(o.format.f, migrateResult{trial.RedactLocation(loc), from, to, from != to})
	})
	o.store.addStore(fs)
	o.format.add(fs, "output `table|json`: the store, its schema version before and after", enc.FormatTable, enc.FormatJSON)
	return c
}

// migrateResult is what pareto migrate prints: the store (redacted) and
// its schema version before and after.
type migrateResult struct {
	Store    string `json:"store"`
	From     int    `json:"from"`
	To       int    `json:"to"`
	Upgraded bool   `json:"upgraded"`
}

// WriteTable says whether the store was upgraded, in one line.
func (r migrateResult) WriteTable(w io.Writer) error {
	var err error
	if r.From == r.To {
		_, err = fmt.Fprintf(w, "store %s: schema version %d, up to date\n", enc.Safe(r.Store), r.To)
	} else {
		_, err = fmt.Fprintf(w, "store %s: schema version %d upgraded to %d\n", enc.Safe(r.Store), r.From, r.To)
	}
	return err
}
