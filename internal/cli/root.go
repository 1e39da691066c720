// Package cli implements the pareto command line: one file per subcommand,
// each turning flags into calls of the library packages.
package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/trial"
)

// Exit statuses. exitStatus is the one place that maps how a command
// ended to one of them:
//
//	0  success; gate: admit; pick: a configuration was chosen
//	1  bad input or an I/O error (inputError, or any other error); an
//	   outcome that is a "no" (outcomeError): gate's reject, pick's
//	   nothing feasible, compare's regression
//	2  usage error (usageError, or cobra's flag and argument errors); on a
//	   command whose status 1 is a verdict (verdictCommands: gate), every
//	   other failure too, so that 1 always means reject
//	3  an inconclusive outcome: gate's "more runs needed", compare's
//	   "a regression cannot be ruled out"
//
// Commands return typed errors and never choose a status themselves; each
// command's help text states the statuses it can end with.
const (
	exitOK           = 0
	exitFailure      = 1
	exitUsage        = 2
	exitInconclusive = 3
)

// verdictCommands are the commands whose status 1 means a verdict (gate:
// reject; compare: a regression); any failure of theirs that is not an
// outcome exits 2.
var verdictCommands = map[string]bool{"gate": true, "compare": true}

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
// error (or a "no": gate's reject, pick's nothing feasible, compare's
// regression), 2 usage error, 3 an inconclusive verdict (see exitOK).
// Cancelling ctx (cmd/pareto cancels it on SIGINT and SIGTERM) stops the
// command: tune queues its running run again and prints its summary.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(e)
	prof := addProfileFlags(root)
	root.SetArgs(args)
	root.SetContext(ctx)
	cmd, err := root.ExecuteC()
	if perr := prof.stop(); perr != nil {
		if err == nil {
			err = inputError{perr}
		} else {
			fmt.Fprintf(stderr, "pareto: %s\n", enc.Safe(perr.Error()))
		}
	}
	if err == nil {
		return exitOK
	}
	name := "pareto"
	if cmd != nil && cmd != root {
		name = cmd.CommandPath()
	}
	// An error may quote its input (a cell, a value, a command line): it
	// is printed through the one redaction policy.
	// A library's field error is phrased in flag words.
	msg := limitText(flagText(err))
	if kindOf(err) == kindUsage {
		first, _, _ := strings.Cut(msg, "\n")
		fmt.Fprintf(stderr, "%s: %s (see '%s --help')\n", name, enc.Safe(trial.RedactText(first)), name)
	} else {
		fmt.Fprintf(stderr, "%s: %s\n", name, enc.SafeLines(trial.RedactText(msg)))
	}
	return exitStatus(cmd, err)
}

// errKind classifies how a command ended with an error.
type errKind int

const (
	kindInput        errKind = iota // bad input, I/O, anything untyped
	kindUsage                       // bad flags, arguments or command
	kindRejected                    // an outcome that is a "no"
	kindInconclusive                // an outcome that needs more runs
)

// kindOf classifies err by its type (cobra's own parse errors by their
// text).
func kindOf(err error) errKind {
	var oe outcomeError
	var ue usageError
	var ie inputError
	switch {
	case errors.As(err, &oe):
		if oe.outcome == outcomeInconclusive {
			return kindInconclusive
		}
		return kindRejected
	case errors.As(err, &ue):
		return kindUsage
	case errors.As(err, &ie):
		return kindInput
	case isCobraUsage(err):
		return kindUsage
	}
	return kindInput
}

// exitStatus maps how cmd ended, with err, to the process exit status
// (see exitOK).
func exitStatus(cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	switch k := kindOf(err); {
	case k == kindInconclusive:
		return exitInconclusive
	case k == kindRejected:
		return exitFailure
	case k == kindUsage, cmd != nil && verdictCommands[cmd.Name()]:
		return exitUsage
	}
	return exitFailure
}

// outcome is an answer that a command wrote out and that its exit status
// must tell apart from success.
type outcome int

const (
	outcomeRejected     outcome = iota + 1 // gate: the candidate is rejected
	outcomeInconclusive                    // gate: more runs are needed
	outcomeInfeasible                      // pick: nothing meets every bound
)

// outcomeError reports an outcome; msg goes to standard error.
type outcomeError struct {
	outcome outcome
	msg     string
}

func (e outcomeError) Error() string { return e.msg }

// inputError is a failure caused by the input or the file system.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

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

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "pareto",
		Short: "Pick LLM serving configurations from honest measurements",
		Long: `pareto reads the results of LLM serving benchmarks and computes which
configurations are worth keeping: strict and noise-aware Pareto frontiers
over throughput, latency, GPU count and accuracy, with SLO feasibility first
and an explanation for every trial left out.

Exit status: 0 success; 1 bad input or an I/O error, or a "no" (gate's
reject, pick's nothing feasible, compare's regression); 2 usage error (on
gate and compare, any failure to reach a verdict); 3 an inconclusive
verdict (gate, compare).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE:          func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		if fe := formatUsage(err); fe != err {
			return fe
		}
		return usageError{err}
	})
	// --version prints what the version command prints.
	bi, ok := debug.ReadBuildInfo()
	root.Version = versionLine(bi, ok)
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newFrontCmd(e), newIngestCmd(e), newVersionCmd(e), newGenerateReportCmd(e), newReportCmd(e))
	root.AddCommand(newGateCmd(e), newPickCmd(e), newNoiseCmd(e), newDriftCmd(e), newCompareCmd(e))
	root.AddCommand(newStudiesCmd(e), newTrialsCmd(e), newMigrateCmd(e), newCheckCmd(e))
	root.AddCommand(newSimulateCmd(e), newTuneCmd(e), newAskCmd(e), newTellCmd(e), newMCPCmd(e))
	initCompletion(root)
	return root
}

// initCompletion adds cobra's completion command (bash, zsh, fish,
// powershell) now rather than when the root runs, so that its help has
// examples like every other command's and the help-examples test sees it.
func initCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Example = "  pareto completion bash"
		for _, sh := range c.Commands() {
			sh.Example = "  pareto completion " + sh.Name()
		}
		c.Long += `
To load completions in the current bash session:

  source <(pareto completion bash)

and for every new session, write the script where bash-completion looks
(for example ~/.local/share/bash-completion/completions/pareto).
`
	}
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q", args[0])
	}
	return nil
}

// versionHelp is the help of pareto version.
var versionHelp = commandSpec{
	use:   "version [--format table|json]",
	short: "Print the pareto version and the source revision it was built from",
	long: `version prints the module version and the version-control revision Go
recorded when the binary was built (commit, commit time, and whether the
working tree had uncommitted changes). A binary built without that record
(go build -buildvcs=false, a source tree without .git, a git worktree, a
test binary) says "unknown revision" instead of guessing. pareto --version
prints the same line; --format json prints
{"version","revision","time","modified"} (revision and time empty when
unknown).`,
	example:   "  pareto version\n  pareto version --format json",
	args:      noArgs,
	sortFlags: true,
}

func newVersionCmd(e *env) *cobra.Command {
	var format formatFlag
	c, f := newCommand(versionHelp, func(context.Context, []string) error {
		return e.write(format.f, buildOf(debug.ReadBuildInfo()))
	})
	format.addTableJSON(f)
	return c
}

// build is what Go recorded of how the binary was built.
type build struct {
	Version  string `json:"version"`
	Revision string `json:"revision"`
	Time     string `json:"time"`
	Modified bool   `json:"modified"`
}

// buildOf reads a build from bi: Version when set at build time, else the
// module version Go recorded ("devel" for a local build without one), and
// the vcs.revision, vcs.time and vcs.modified settings.
func buildOf(bi *debug.BuildInfo, ok bool) build {
	v := Version
	if v == "" && ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	b := build{Version: cmp.Or(v, "devel")}
	if ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	return b
}

// WriteTable writes the build in one line (versionLine).
func (b build) WriteTable(w io.Writer) error {
	_, err := fmt.Fprintln(w, b.line())
	return err
}

// versionLine describes a build in one line (buildOf).
func versionLine(bi *debug.BuildInfo, ok bool) string { return buildOf(bi, ok).line() }

// line describes the build in one line.
func (b build) line() string {
	if b.Revision == "" {
		return "pareto " + b.Version + " (unknown revision: built without version control information)"
	}
	line := "pareto " + b.Version + " (revision " + b.Revision
	if b.Time != "" {
		line += ", committed " + b.Time
	}
	if b.Modified {
		line += ", with uncommitted changes"
	}
	return line + ")"
}
