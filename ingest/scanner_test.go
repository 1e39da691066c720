package ingest

import (
	"reflect"
	"testing"
)

// TestScannerAsLoad checks that a Scanner hands over the trials, runs and
// skips Load gives, in Load's order, for result folders and a CloudAI tree.
func TestScannerAsLoad(t *testing.T) {
	paths := []string{"testdata/aiperf", "testdata/vllm", "testdata/bad", cloudaiTree}
	opts := LoadOptions{GPUsPerNode: 8, Workers: 2}
	d, err := Load(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := NewScanner(paths, opts)
	n := 0
	for s.Next() {
		if n >= len(d.Trials) {
			t.Fatalf("scanner gave more than Load's %d trials", len(d.Trials))
		}
		if got := s.Trial(); !reflect.DeepEqual(got, d.Trials[n]) {
			t.Errorf("trial %d: scanner %s, Load %s", n, got.Source.Path, d.Trials[n].Source.Path)
		}
		if (s.Run() == nil) != (d.Runs[n] == nil) {
			t.Errorf("trial %d: scanner run %v, Load run %v", n, s.Run(), d.Runs[n])
		}
		n++
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(d.Trials) || n == 0 {
		t.Errorf("scanner gave %d trials, Load %d", n, len(d.Trials))
	}
	if got := s.Skipped(); !reflect.DeepEqual(got, d.Skipped) || len(got) == 0 {
		t.Errorf("scanner skipped %d inputs, Load %d", len(got), len(d.Skipped))
	}
}

// TestScannerClose checks that closing a Scanner early ends the reading
// without error, and that a missing path is its error.
func TestScannerClose(t *testing.T) {
	s := NewScanner([]string{"testdata/aiperf", "testdata/vllm"}, LoadOptions{Workers: 1})
	if !s.Next() {
		t.Fatal("no trial")
	}
	s.Close()
	if s.Next() {
		t.Error("Next after Close gave a trial")
	}
	if err := s.Err(); err != nil {
		t.Errorf("Err after Close = %v", err)
	}
	s = NewScanner([]string{"testdata/no-such-dir"}, LoadOptions{})
	for s.Next() {
		t.Error("a trial from a missing path")
	}
	if s.Err() == nil {
		t.Error("no error for a missing path")
	}
}
