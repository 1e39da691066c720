// Package moocore reads the test-vector formats of the moocore regression
// testsuite (multi-objective/testsuite) so that several test files can drive
// the suites from the same parser. It is test support code: it is imported
// only by tests, but lives outside _test.go files so it can be shared.
//
// A point-set file holds one point per line as whitespace-separated numbers.
// An empty (or blank) line, or a line starting with '#', ends the current
// set; runs of such lines count once, and leading ones are skipped. This
// matches moocore's reader, where a comment line also separates sets. Files
// whose name ends in ".xz" are decompressed transparently.
package moocore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ulikunitz/xz"
)

// ErrNoData is returned by Read and ReadSets when the input holds no points.
var ErrNoData = errors.New("moocore: no input data")

// Set is one independent point set: K objectives per point, row-major.
type Set struct {
	// K is the number of objectives (columns).
	K int
	// Data holds Len()*K values, one point after another.
	Data []float64
}

// Len returns the number of points in the set.
func (s Set) Len() int {
	if s.K == 0 {
		return 0
	}
	return len(s.Data) / s.K
}

// Union merges sets of equal dimension into one set, keeping file order.
func Union(sets []Set) Set {
	var u Set
	for _, s := range sets {
		u.K = s.K
		u.Data = append(u.Data, s.Data...)
	}
	return u
}

// ReadSets reads the point sets of the file at path, decompressing it when
// the name ends in ".xz".
func ReadSets(path string) ([]Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if strings.HasSuffix(path, ".xz") {
		xr, err := xz.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("moocore: %s: %w", path, err)
		}
		r = xr
	}
	sets, err := Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sets, nil
}

// Read parses point sets from r. Every row must have as many columns as the
// first row. It returns ErrNoData when r holds no points.
func Read(r io.Reader) ([]Set, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var sets []Set
	cur := Set{}
	k, line := 0, 0
	flush := func() {
		if len(cur.Data) > 0 {
			sets = append(sets, cur)
			cur = Set{K: k}
		}
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			flush()
			continue
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			flush()
			continue
		}
		if k == 0 {
			k = len(fields)
			cur.K = k
		}
		if len(fields) != k {
			return nil, fmt.Errorf("moocore: line %d has %d columns, want %d", line, len(fields), k)
		}
		for col, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("moocore: line %d column %d: %w", line, col+1, err)
			}
			cur.Data = append(cur.Data, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("moocore: %w", err)
	}
	flush()
	if len(sets) == 0 {
		return nil, ErrNoData
	}
	return sets, nil
}
