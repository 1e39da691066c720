package cli

import (
	"errors"

	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/spf13/pflag"
)

// parseFormat checks a --format value against the formats a command
// offers (enc.ParseFormat), as a usage error in the command line's words.
func parseFormat(name string, offered ...enc.Format) (enc.Format, error) {
	f, err := enc.ParseFormat(name, offered...)
	if fe, ok := errors.AsType[*enc.FormatError](err); ok {
		return "", usagef("unknown --format %q (want %s)", fe.Name, fe.Want())
	}
	return f, err
}

// write encodes a command's typed result to stdout as f (enc.Write).
func (e *env) write(f enc.Format, result any) error { return enc.Write(e.stdout, f, result) }

// formatFlag is a command's --format: the formats it offers, the first
// its default.
type formatFlag struct {
	value   string
	offered []enc.Format
}

// add registers --format on fs with usage, offering formats.
func (f *formatFlag) add(fs *pflag.FlagSet, usage string, offered ...enc.Format) {
	f.value, f.offered = string(offered[0]), offered
	fs.StringVar(&f.value, "format", f.value, usage)
}

// get returns the format asked for, or a usage error (parseFormat).
func (f *formatFlag) get() (enc.Format, error) { return parseFormat(f.value, f.offered...) }
