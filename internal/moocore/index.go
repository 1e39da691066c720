package moocore

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// IndexRow is one command of the testsuite as listed in INDEX.tsv.
type IndexRow struct {
	// Suite is the suite directory, such as "hv", "hv/hvc" or "ndsort".
	Suite string
	// Test is the test name within the suite.
	Test string
	// Cmd is the 1-based index of the command within the test.
	Cmd int
	// Inputs are the input files, relative to the testsuite root.
	Inputs []string
	// Ref is the reference point or reference set column, verbatim.
	Ref string
	// Flags are the command-line flags, split on whitespace.
	Flags []string
	// Expected is the expected-output file, relative to the testsuite root.
	Expected string
}

// HasFlag reports whether the row carries flag f verbatim.
func (r IndexRow) HasFlag(f string) bool {
	for _, g := range r.Flags {
		if g == f {
			return true
		}
	}
	return false
}

// RefPoint parses Ref as a whitespace-separated point; an empty Ref gives nil.
func (r IndexRow) RefPoint() ([]float64, error) {
	fields := strings.Fields(r.Ref)
	p := make([]float64, 0, len(fields))
	for _, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("moocore: %s/%s#%d: reference: %w", r.Suite, r.Test, r.Cmd, err)
		}
		p = append(p, v)
	}
	if len(p) == 0 {
		return nil, nil
	}
	return p, nil
}

// ParseIndex reads INDEX.tsv: a header line followed by tab-separated rows of
// suite, test, cmd_no, inputs (separated by ';'), reference, flags and
// expected file.
func ParseIndex(path string) ([]IndexRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []IndexRow
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		row, err := parseIndexRow(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

func parseIndexRow(text string) (IndexRow, error) {
	cols := strings.Split(text, "\t")
	if len(cols) != 7 {
		return IndexRow{}, fmt.Errorf("moocore: index row has %d columns, want 7", len(cols))
	}
	cmd, err := strconv.Atoi(cols[2])
	if err != nil {
		return IndexRow{}, fmt.Errorf("moocore: index cmd_no: %w", err)
	}
	var inputs []string
	for _, in := range strings.Split(cols[3], ";") {
		if in != "" {
			inputs = append(inputs, in)
		}
	}
	return IndexRow{
		Suite: cols[0], Test: cols[1], Cmd: cmd, Inputs: inputs,
		Ref: cols[4], Flags: strings.Fields(cols[5]), Expected: cols[6],
	}, nil
}

// LineKind classifies a line of an expected-output (.exp) file.
type LineKind int

const (
	// Value is an ordinary output line (stdout).
	Value LineKind = iota
	// Warning is an expected "warning:" message on stderr, or any other
	// message line starting with "..." that is not an error.
	Warning
	// Error is an expected "error:" message on stderr.
	Error
	// Section is a "=== name ===" marker between commands.
	Section
)

// ExpLine is one non-empty line of an expected-output file.
type ExpLine struct {
	// Kind classifies the line.
	Kind LineKind
	// Text is the line without surrounding whitespace.
	Text string
}

// ReadExpected reads an expected-output file and classifies its non-empty
// lines.
func ReadExpected(path string) ([]ExpLine, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []ExpLine
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		out = append(out, ExpLine{Kind: classify(l), Text: l})
	}
	return out, nil
}

func classify(l string) LineKind {
	switch {
	case strings.HasPrefix(l, "===") && strings.HasSuffix(l, "==="):
		return Section
	case strings.Contains(l, "error:"):
		return Error
	case strings.Contains(l, "warning:"), strings.HasPrefix(l, "..."):
		return Warning // moocore also prints "...: some points do not ..."
	}
	return Value
}

// MatchEllipsis reports whether got matches expected, where every literal
// "..." in expected matches any (possibly empty) run of characters. A value
// such as "9999.9274076096..." therefore means "starts with these digits",
// and "...: warning: x" matches any prefix before ": warning: x".
func MatchEllipsis(expected, got string) bool {
	parts := strings.Split(expected, "...")
	if len(parts) == 1 {
		return expected == got
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(got, p)
		if i < 0 {
			return false
		}
		got = got[i+len(p):]
	}
	return strings.HasSuffix(got, last)
}
