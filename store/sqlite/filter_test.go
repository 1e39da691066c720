package sqlite

import (
	"fmt"
	"testing"
)

// TestIDFilter: every ID added is found (the filter may only err the
// other way), and few others are, at the size of a 10⁶-row table.
func TestIDFilter(t *testing.T) {
	f := newIDFilter()
	const n = 1_000_000
	for i := range n {
		f.add(fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15))
	}
	for i := range n {
		if id := fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15); !f.has(id) {
			t.Fatalf("ID %s added, not found", id)
		}
	}
	fp := 0
	for i := range n {
		if f.has(fmt.Sprintf("other-%d", i)) {
			fp++
		}
	}
	// (1 - e^(-kn/m))^k with m = 2^26 bits, k = 8: 2.5·10⁻⁸
	if fp > 2 {
		t.Errorf("%d of %d IDs never added were found; want at most 2", fp, n)
	}
}
