// Package cli implements the pareto command line: one file per subcommand,
// each turning flags into calls of the library packages.
package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Exit statuses shared by every command.
const (
	exitOK    = 0
	exitInput = 1 // bad input or I/O error
	exitUsage = 2 // bad flags, arguments or command
)

// Version is the program version, set at build time with
// -ldflags "-X github.com/pareto-llm/pareto/internal/cli.Version=v1.2.3".
var Version = ""

// usageError marks an error in how the command was called (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// env carries the standard streams to the commands.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Main runs the pareto command line with args (without the program name)
// and returns the process exit status: 0 success, 1 bad input or I/O
// error, 2 usage error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(e)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	name := "pareto"
	if cmd != nil && cmd != root {
		name = cmd.CommandPath()
	}
	var ue usageError
	var ie inputError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ie.status()
	case errors.As(err, &ue) || isCobraUsage(err):
		fmt.Fprintf(stderr, "%s: %v (see '%s --help')\n", name, firstLine(err), name)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitInput
	}
}

// inputError is a failure caused by the input or the file system.
type inputError struct {
	err  error
	code int
}

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }
func (e inputError) status() int {
	if e.code != 0 {
		return e.code
	}
	return exitInput
}

// isCobraUsage recognises the errors cobra raises while parsing.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "bad flag syntax", "flags in group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "pareto",
		Short: "Pick LLM serving configurations from honest measurements",
		Long: `pareto reads the results of LLM serving benchmarks and computes which
configurations are worth keeping: strict and noise-aware Pareto frontiers
over throughput, latency, GPU count and accuracy, with SLO feasibility first
and an explanation for every trial left out.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE:          func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newFrontCmd(e), newIngestCmd(e), newVersionCmd(e), newGenerateReportCmd(e), newReportCmd(e))
	root.AddCommand(newGateCmd(e), newPickCmd(e), newNoiseCmd(e), newDriftCmd(e))
	root.AddCommand(newStudiesCmd(e), newTrialsCmd(e))
	return root
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q", args[0])
	}
	return nil
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the pareto version and the source revision it was built from",
		Long: `version prints the module version and the version-control revision Go
recorded when the binary was built (commit, commit time, and whether the
working tree had uncommitted changes). A binary built without that record
(go build -buildvcs=false, a source tree without .git, a git worktree, a
test binary) says "unknown revision" instead of guessing.`,
		Example: "  pareto version",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, ok := debug.ReadBuildInfo()
			_, err := fmt.Fprintln(e.stdout, versionLine(bi, ok))
			return err
		},
	}
}

// versionLine describes a build: Version when set at build time, else the
// module version Go recorded ("devel" for a local build without one), and
// the vcs.revision, vcs.time and vcs.modified settings of bi.
func versionLine(bi *debug.BuildInfo, ok bool) string {
	v := Version
	if v == "" && ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	if v == "" {
		v = "devel"
	}
	var rev, when, modified string
	if ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	if rev == "" {
		return "pareto " + v + " (unknown revision: built without version control information)"
	}
	line := "pareto " + v + " (revision " + rev
	if when != "" {
		line += ", committed " + when
	}
	if modified == "true" {
		line += ", with uncommitted changes"
	}
	return line + ")"
}
