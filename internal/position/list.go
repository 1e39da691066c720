package position

import (
	"slices"
	"strings"
)

// List is every problem found in one file, in file order; it renders one
// error per line.
type List []*Error

// Error implements error.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns l as an error, or nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort puts l in file order: by line, then column, keeping the order of
// errors at the same position.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int { return a.At().Compare(b.At()) })
}
