//go:build unix

package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadSmall compares readSmall with os.ReadFile on files of sizes
// around the buffer and threshold boundaries, and checks that it declines
// what the os path must handle.
func TestReadSmall(t *testing.T) {
	dir := t.TempDir()
	buf := make([]byte, 0, 4096)
	for _, size := range []int{0, 1, 4095, 4096, 4097, 100000, StreamThreshold} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte{'x'}, size)
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, grown, ok := readSmall(p, buf, -1)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("size %d: ok %v, %d bytes", size, ok, len(got))
		}
		buf = grown[:0]
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, StreamThreshold+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{big, dir, filepath.Join(dir, "missing")} {
		if _, _, ok := readSmall(p, buf, -1); ok {
			t.Errorf("%s: readSmall read it", p)
		}
	}
}
