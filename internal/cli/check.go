package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/store"
)

const checkLong = `Check verifies a whole store (--store, default $PARETO_STORE or
pareto.db), or one study of it (--study), in one read snapshot, opened
read-only: every trial against its content hash (the trial ID, or the hash
kept with it when its ID is not one: an ID set by a caller, labels set
later by pareto gate) and against the checksum of the fields its ID does
not hash, every block of trials and every value column against its
checksum and against the trials it copies, and that every trial of a
study is in one of its blocks. It prints one line per study, and one line
per damaged trial or block, naming it and what does not match; --format
json prints the same as {"studies":[{"study","trials","blocks","columns",
"damage":[{"trial"|"block","detail"}]}]} (docs/schema/check.schema.json).

Every read verifies what it reads the same way, so a damaged store makes
commands fail naming the trial and the study instead of showing changed
values; check lists everything at once, e.g. before restoring a backup.

Exit status: 0 every study is sound, 1 a trial or block is damaged (or
the store cannot be read), 2 usage error.`

// checkHelp is the help of pareto check.
var checkHelp = commandSpec{
	use:       "check [--store S] [--study NAME] [--format table|json]",
	short:     "Verify every trial and block of a store against its content hash and checksums",
	long:      checkLong,
	example:   "  pareto ingest examples/trials.csv --store runs.db --study csv && pareto check --store runs.db",
	args:      noArgs,
	sortFlags: true,
}

func newCheckCmd(e *env) *cobra.Command {
	c, fs, o := newStoreCommand(checkHelp, func(ctx context.Context, o *storeOptions) error {
		return o.store.read(ctx, func(s store.Store) error {
			checks, err := s.Check(ctx, o.store.study)
			if err != nil {
				return inputError{err: err}
			}
			return writeChecks(e, checks, o.format.f)
		})
	})
	o.store.addStudy(fs, "check this study only (default: every study)")
	o.format.addTableJSON(fs)
	return c
}

// checkResult is what pareto check prints: one entry per study.
type checkResult struct {
	Studies []checkJSON `json:"studies"`
}

// checkJSON is one study of pareto check --format json.
type checkJSON struct {
	Study   string       `json:"study"`
	Trials  int          `json:"trials"`
	Blocks  int          `json:"blocks"`
	Columns int          `json:"columns"`
	Damage  []damageJSON `json:"damage"`
}

// damageJSON is a damaged trial (Trial) or block (Block).
type damageJSON struct {
	Trial  string `json:"trial,omitempty"`
	Block  int64  `json:"block,omitempty"`
	Detail string `json:"detail"`
}

// newCheckResult turns the store's checks into the result.
func newCheckResult(checks []store.StudyCheck) checkResult {
	out := checkResult{Studies: []checkJSON{}}
	for _, c := range checks {
		cj := checkJSON{Study: c.Study, Trials: c.Trials, Blocks: c.Blocks, Columns: c.Columns, Damage: []damageJSON{}}
		for _, d := range c.Damage {
			cj.Damage = append(cj.Damage, damageJSON{Trial: d.Trial, Block: d.Block, Detail: d.Detail})
		}
		out.Studies = append(out.Studies, cj)
	}
	return out
}

// WriteTable prints one line per study and one per damage.
func (r checkResult) WriteTable(out io.Writer) error {
	w := bufio.NewWriter(out)
	for _, c := range r.Studies {
		verdict := "sound"
		if n := len(c.Damage); n > 0 {
			verdict = fmt.Sprintf("%d damaged", n)
		}
		fmt.Fprintf(w, "study %s: %d trials, %d blocks, %d value columns: %s\n", enc.Safe(c.Study), c.Trials, c.Blocks, c.Columns, verdict)
		for _, d := range c.Damage {
			what := "trial " + enc.Safe(d.Trial)
			if d.Trial == "" {
				what = fmt.Sprintf("block %d", d.Block)
			}
			fmt.Fprintf(w, "  %s: %s\n", what, enc.Safe(d.Detail))
		}
	}
	if len(r.Studies) == 0 {
		fmt.Fprintln(w, "no study")
	}
	return w.Flush()
}

// writeChecks prints the checks as f, and fails when anything is
// damaged.
func writeChecks(e *env, checks []store.StudyCheck, f enc.Format) error {
	if err := e.write(f, newCheckResult(checks)); err != nil {
		return err
	}
	damaged, studies := 0, 0
	for _, c := range checks {
		if n := len(c.Damage); n > 0 {
			damaged += n
			studies++
		}
	}
	if damaged > 0 {
		return inputError{err: fmt.Errorf("%d damaged trials or blocks in %d of %d studies", damaged, studies, len(checks))}
	}
	return nil
}
