package cli

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

Register it with an agent as a stdio server whose command line is
"pareto mcp --store PATH" (for Claude Code: claude mcp add pareto --
pareto mcp --store tune.db). It serves until the client closes standard
input; it prints nothing else on standard output.`

const mcpExample = `  pareto mcp --store tune.db`

func newMCPCmd(e *env) *cobra.Command {
	var store string
	var limits limitFlags
	c := &cobra.Command{
		Use:     "mcp [--store S]",
		Short:   "Serve the Model Context Protocol on stdio (tools ask, tell, gate, front, pick, trials)",
		Long:    mcpLong,
		Example: mcpExample,
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			lim, err := limits.limits()
			if err != nil {
				return err
			}
			t := &mcp.IOTransport{Reader: nopCloser{e.stdin}, Writer: nopWriteCloser{e.stdout}}
			if err := mcpserver.Serve(contextOf(c), mcpserver.Options{Store: store, Version: Version, Limits: lim}, t); err != nil {
				return inputError{err: err}
			}
			return nil
		},
	}
	addLimitFlags(c.Flags(), &limits)
	c.Flags().StringVar(&store, "store", "", "store of the tools that name none: a SQLite path, sqlite:///PATH or postgres://URL (default $PARETO_STORE, else pareto.db)")
	return c
}

// nopCloser and nopWriteCloser let the transport close the command's
// streams without closing the process's.
type nopCloser struct{ io.Reader }

func (nopCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
