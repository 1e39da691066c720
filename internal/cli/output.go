package cli

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/progress"
	"github.com/spf13/pflag"
)

// formatUsage phrases a --format the command does not offer
// (enc.FormatError) as a usage error in the command line's words; other
// errors are returned as they are.
func formatUsage(err error) error {
	if fe, ok := errors.AsType[*enc.FormatError](err); ok {
		return usagef("unknown --format %q (want %s)", fe.Name, fe.Want())
	}
	return err
}

// write encodes a command's typed result to stdout as f (enc.Write).
func (e *env) write(f enc.Format, result any) error { return enc.Write(e.stdout, f, result) }

// note returns what writes a note (a source.Spec's Note) to standard
// error as "prefix: note", each of its lines made safe for a terminal.
func (e *env) note(prefix string) func(string) {
	return func(s string) { fmt.Fprintf(e.stderr, "%s: %s\n", prefix, enc.SafeLines(s)) }
}

// bufferedNote is note for a command that may note many lines while no
// progress bar shares standard error (stderr is not a terminal): the lines
// go out 4 KB at a time, not in a write each (pareto ingest of 2,000
// AIPerf files notes 4,000 warnings). flush writes what is held (a
// failed write is not the command's error, as with note); the command
// calls it before it writes anything else. On a terminal, note
// writes each line at once and flush does nothing.
func (e *env) bufferedNote(prefix string) (note func(string), flush func()) {
	if progress.IsTerminal(e.stderr) {
		return e.note(prefix), func() {}
	}
	w := bufio.NewWriter(e.stderr)
	// As note's, a failed write is not an error of the command.
	return (&env{stdin: e.stdin, stdout: e.stdout, stderr: w}).note(prefix), func() { _ = w.Flush() }
}

// formatFlag is a command's --format, a pflag.Value: the formats it
// offers, the first its default. A format not offered is refused while
// the flags are parsed (enc.ParseFormat; formatUsage phrases it).
type formatFlag struct {
	f       enc.Format
	offered []enc.Format
}

// add registers --format on fs with usage, offering formats.
func (f *formatFlag) add(fs *pflag.FlagSet, usage string, offered ...enc.Format) {
	f.f, f.offered = offered[0], offered
	fs.Var(f, "format", usage)
}

// addTableJSON registers the --format of a command that prints a table
// (the default) or JSON.
func (f *formatFlag) addTableJSON(fs *pflag.FlagSet) {
	f.add(fs, "output `table|json`", enc.FormatTable, enc.FormatJSON)
}

// String returns the format (pflag.Value).
func (f *formatFlag) String() string { return string(f.f) }

// Set sets the format if the command offers it (pflag.Value).
func (f *formatFlag) Set(s string) error {
	v, err := enc.ParseFormat(s, f.offered...)
	if err != nil {
		return err
	}
	f.f = v
	return nil
}

// Type names the value in the help as pflag names a string (pflag.Value).
func (f *formatFlag) Type() string { return "string" }
