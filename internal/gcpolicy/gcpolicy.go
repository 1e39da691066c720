// Package gcpolicy sets the garbage collector up for a batch command that
// builds many short-lived objects: reading thousands of result files
// allocates tens of kilobytes per file, most of it garbage by the next
// file, and with Go's default (collect whenever the heap has doubled from a
// small live set) the collector ran a hundred times a second and took a
// quarter of the CPU.
package gcpolicy

import "runtime/debug"

// Percent is the GOGC value Batch sets: collect when the heap has grown by
// four times the live data.
const Percent = 400

// Batch sets GOGC to Percent unless the GOGC environment variable is set,
// and, unless GOMEMLIMIT is set, a soft memory limit of three quarters of
// the machine's physical memory (when it is known), so that a large live
// set makes the collector run more often instead of letting the heap grow
// fivefold past the RAM. (A job whose live data alone approaches the limit
// is collected often, as it would be by Go's default at that size.)
// getenv is os.Getenv. It returns the settings it changed, for logs and
// tests: the previous GC percentage (or -1 when untouched) and memory limit
// (or -1).
func Batch(getenv func(string) string) (oldPercent int, oldLimit int64) {
	oldPercent, oldLimit = -1, -1
	if getenv("GOGC") == "" {
		oldPercent = debug.SetGCPercent(Percent)
	}
	if getenv("GOMEMLIMIT") == "" {
		if m := physicalMemory(); m > 0 {
			oldLimit = debug.SetMemoryLimit(int64(m / 4 * 3))
		}
	}
	return oldPercent, oldLimit
}

// StudyPercent is the GC percent of a command reading a whole stored
// study (Study).
const StudyPercent = 100

// Study sets the GC percent to StudyPercent, unless GOGC is set, for a
// command that reads a whole study from a store: decoding a million
// trials leaves gigabytes of garbage while what the command keeps grows
// with the study, so that at Percent the heap would grow to five times
// what it keeps (2.6 GB for a report of 10⁶ trials, against 0.6–0.9 GB
// here, for 10–20 % more CPU). It returns the previous percent (-1 when
// unchanged).
func Study(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1
	}
	return debug.SetGCPercent(StudyPercent)
}

// StreamLimit is the soft memory limit of Stream.
const StreamLimit = 128 << 20

// Stream sets a soft memory limit of StreamLimit, unless GOMEMLIMIT is
// set, for a command that streams batches through and keeps little of
// them (pareto ingest of a table of any length): the collector then runs
// at Batch's pace until the heap nears the limit, instead of letting it
// grow to five times what is live or collecting at every doubling of it.
// It returns the previous limit (-1 when unchanged).
func Stream(getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return -1
	}
	return debug.SetMemoryLimit(StreamLimit)
}
