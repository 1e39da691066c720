package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/mcpserver"
)

const mcpLong = `Mcp serves the Model Context Protocol on standard input and output, for an
LLM agent (or any MCP client) that drives a tuning loop or reads a study.
Its tools are the commands', with typed arguments and the same JSON
answers (docs/schema/NAME.schema.json) as structured content:

  ask      the next run of a tuning study (pareto ask)
  tell     record a run's measurement; the answer is the gate's verdict
           (pareto tell)
  gate     admit, reject or ask for more runs of a candidate (pareto gate)
  archive  list the archive's members, or revoke some (pareto gate
           --archive-list, --revoke)
  front    the Pareto frontier of a study or of result files (pareto front)
  pick     the configuration to deploy under SLO bounds (pareto pick)
  trials   a study's trials (pareto trials)

Every tool takes the study's name and, optionally, a store (default
--store, else $PARETO_STORE, else pareto.db). front, pick, trials and
archive (without revoke) open the store read only. A failure is a tool
error with a message naming the argument or the file, never a crash.

The tools read files and create stores only under the roots: the
--root directories (default the working directory), or the roots the
client lists (within the --root directories when they are given).
Symlinks are evaluated: a path or a symlink inside a directory that leads
out of the roots is refused. A client may name the server's store
anywhere, a SQLite store under the roots, and a PostgreSQL store only
when it is the server's or given with --allow-store.

Every frame is answered: one that is not JSON with a parse error
(-32700), one that is no JSON-RPC request (a batch, no method, a wrong
"jsonrpc", nesting deeper than 64 levels, a line longer than
--max-frame-size) with an invalid request error (-32600); the session
goes on.

Register it with an agent as a stdio server whose command line is
"pareto mcp --store PATH" (for Claude Code: claude mcp add pareto --
pareto mcp --store tune.db). It serves until the client closes standard
input; it prints nothing else on standard output.`

const mcpExample = `  pareto mcp --store tune.db
  pareto mcp --store tune.db --root . --root examples`

// mcpHelp is the help of pareto mcp.
var mcpHelp = commandSpec{
	use:       "mcp [--store S] [--root DIR]...",
	short:     "Serve the Model Context Protocol on stdio (tools ask, tell, gate, front, pick, trials)",
	long:      mcpLong,
	example:   mcpExample,
	args:      noArgs,
	sortFlags: true,
}

func newMCPCmd(e *env) *cobra.Command {
	var maxFrame string
	var db storeFlags
	var roots, allow []string
	var limits limitFlags
	c, f := newCommand(mcpHelp, func(ctx context.Context, _ []string) error {
		lim, err := limits.limits()
		if err != nil {
			return err
		}
		t := &mcpserver.FrameTransport{Reader: e.stdin, Writer: e.stdout}
		if maxFrame != "" {
			n, err := parseSize(maxFrame)
			if err != nil || n < 1 || n > 1<<30 {
				return usagef("--max-frame-size %q: want a size from 1 to 1GiB", maxFrame)
			}
			t.MaxFrame = int(n)
		}
		o := mcpserver.Options{Store: db.location, Version: Version, Limits: lim, Roots: roots, AllowStores: allow}
		if err := mcpserver.Serve(ctx, o, t); err != nil {
			return inputError{err: err}
		}
		return nil
	})
	addLimitFlags(f, &limits)
	f.StringArrayVar(&roots, "root", nil, "let the tools read files and create stores under `DIR` (repeatable; default the working directory)")
	f.StringArrayVar(&allow, "allow-store", nil, "let a client name this PostgreSQL store `URL` besides --store (repeatable)")
	f.StringVar(&maxFrame, "max-frame-size", "", "answer a frame longer than `SIZE` with an error and discard it (default "+sizeString(mcpserver.DefaultMaxFrame)+")")
	db.addStore(f)
	return c
}
