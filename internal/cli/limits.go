package cli

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/trial"
	"github.com/spf13/pflag"
)

// Environment variables giving the input limits when the flags are not
// set.
const (
	envMaxInputSize  = "PARETO_MAX_INPUT_SIZE"
	envMaxRecordSize = "PARETO_MAX_RECORD_SIZE"
	envMaxColumns    = "PARETO_MAX_COLUMNS"
)

// limitFlags are --max-input-size and --max-record-size, the flags of every
// command that reads input files.
type limitFlags struct{ input, record, columns string }

// addLimitFlags registers the limit flags on f.
func addLimitFlags(f *pflag.FlagSet, l *limitFlags) {
	f.StringVar(&l.input, "max-input-size", "", "refuse input files larger than `SIZE` (e.g. 2GiB; -1: no limit; default $"+
		envMaxInputSize+", else "+sizeString(source.DefaultLimits.MaxInputSize)+")")
	f.StringVar(&l.record, "max-record-size", "", "refuse lines and JSON strings longer than `SIZE` (default $"+
		envMaxRecordSize+", else "+sizeString(int64(source.DefaultLimits.MaxRecordSize))+")")
	f.StringVar(&l.columns, "max-columns", "", "refuse table rows of more than `N` columns and JSON objects of more than N members (default $"+
		envMaxColumns+", else "+strconv.Itoa(source.DefaultLimits.MaxColumns)+")")
}

// limits returns the limits the flags, else the environment, set.
func (l limitFlags) limits() (source.Limits, error) {
	var lim source.Limits
	in, err := sizeSetting("--max-input-size", l.input, envMaxInputSize, true)
	if err != nil {
		return lim, err
	}
	rec, err := sizeSetting("--max-record-size", l.record, envMaxRecordSize, false)
	if err != nil {
		return lim, err
	}
	lim.MaxInputSize, lim.MaxRecordSize = in, int(min(rec, 1<<40))
	lim.MaxColumns, err = countSetting("--max-columns", l.columns, envMaxColumns)
	return lim, err
}

// sizeSetting parses the flag's value, else the environment variable's
// (0 when neither is set).
func sizeSetting(flag, value, env string, negative bool) (int64, error) {
	from := flag
	if value == "" {
		value, from = os.Getenv(env), "$"+env
	}
	if value == "" {
		return 0, nil
	}
	n, err := parseSize(value)
	if err == nil && n < 0 && !(negative && n == -1) {
		err = fmt.Errorf("want a positive size")
	}
	if err != nil {
		return 0, usagef("%s %q: %v", from, value, err)
	}
	return n, nil
}

// countSetting parses the flag's value, else the environment variable's,
// as a positive count (0 when neither is set).
func countSetting(flag, value, env string) (int, error) {
	from := flag
	if value == "" {
		value, from = os.Getenv(env), "$"+env
	}
	if value == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n <= 0 {
		return 0, usagef("%s %q: want a positive count", from, value)
	}
	return n, nil
}

// sizeUnits are the suffixes parseSize accepts, longest first.
var sizeUnits = []struct {
	suffix string
	n      int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1},
}

// parseSize reads a byte count: digits with an optional unit (K, M, G, T
// and KiB, MiB, GiB, TiB are powers of 1024; KB, MB, GB, TB of 1000), or
// -1.
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "-1" {
		return -1, nil
	}
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 || v*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("want a positive size such as 512MiB or 2GB")
	}
	return int64(v * float64(mult)), nil
}

// sizeString renders a power-of-two size the way parseSize reads it.
func sizeString(n int64) string {
	for _, u := range []struct {
		s string
		n int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// limitEnv are the environment variables of the limits, by the field
// the readers name them with (ingest.Limits).
var limitEnv = map[string]string{"max_input_size": envMaxInputSize, "max_record_size": envMaxRecordSize, "max_columns": envMaxColumns}

// limitFieldRE matches the readers' note of the limit a refused input is
// over: "(max_record_size)".
var limitFieldRE = regexp.MustCompile(`\((max_input_size|max_record_size|max_columns)\)`)

// limitText phrases the readers' limit notes in s in the command line's
// words: the flag and the environment variable that raise the limit.
func limitText(s string) string {
	return limitFieldRE.ReplaceAllStringFunc(s, func(m string) string {
		f := m[1 : len(m)-1]
		return "(raise it with " + flagName(f) + " or $" + limitEnv[f] + ")"
	})
}

// limitSkips is skips with their reasons' limit notes phrased
// (limitText), in a new slice.
func limitSkips(skips []trial.Skip) []trial.Skip {
	out := slices.Clone(skips)
	for i := range out {
		out[i].Reason = limitText(out[i].Reason)
	}
	return out
}
