// Package gcpolicy sets the garbage collector up for a batch command that
// builds many short-lived objects: reading thousands of result files
// allocates tens of kilobytes per file, most of it garbage by the next
// file, and with Go's default (collect whenever the heap has doubled from a
// small live set) the collector ran a hundred times a second and took a
// quarter of the CPU.
package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Percent is the GOGC value Batch sets: collect when the heap has grown by
// four times the live data.
const Percent = 400

// Batch sets GOGC to Percent unless the GOGC environment variable is set,
// and, unless GOMEMLIMIT or GOGC is set, a soft memory limit that follows
// what is live (Follow): Floor while little is, never below what Percent
// lets the heap grow to once more is, and at most three quarters of the
// machine's physical memory (when it is known), so that a large live set
// makes the collector run more often instead of letting the heap grow
// fivefold past the RAM. (A job whose live data alone approaches that cap
// is collected often, as it would be by Go's default at that size.)
// getenv is os.Getenv. It returns the settings it changed, for logs and
// tests: the previous GC percentage (or -1 when untouched) and memory limit
// (or -1).
func Batch(getenv func(string) string) (oldPercent int, oldLimit int64) {
	oldPercent, oldLimit = -1, -1
	userGC := getenv("GOGC") != ""
	if !userGC {
		oldPercent = debug.SetGCPercent(Percent)
	}
	if getenv("GOMEMLIMIT") == "" {
		capLimit := int64(math.MaxInt64)
		if m := physicalMemory(); m > 0 {
			capLimit = int64(m / 4 * 3)
		}
		if userGC {
			oldLimit = debug.SetMemoryLimit(capLimit)
		} else {
			oldLimit = Follow(capLimit)
		}
	}
	return oldPercent, oldLimit
}

// Floor is the soft memory limit Follow keeps while little is live: a
// command streaming records through (ingest of JSONL, front over benchmark
// files) keeps a few megabytes, and at Percent alone the heap would still
// grow to 16 MB and more between collections — further with the
// records allocated while a collection marks, which it counts as live —
// on top of the binary's own 15–17 MB. 16 MiB since streamed vLLM and
// SGLang records refill their memory (LoadOptions.Transient): front on
// 3·10⁴ of them allocates 17 MB, not 80, and collects twice at this
// floor (docs/PERFORMANCE.md, "Streamed records refill their memory").
const Floor = 16 << 20

// followed is the limit Follow last set (0: none); capLimit its most.
var followed, capLimit atomic.Int64

// Follow sets a soft memory limit of Floor and, after every collection,
// of what the collector's pace lets the heap grow to from what is live
// (live × (1 + GOGC/100), a tenth more and 2 MB for the runtime's own
// memory) when that is more, and at most most: so the limit binds only while
// little is live. A limit set since by someone else (Stream, a test) is
// left as it is; once it is restored to Follow's, Follow goes on. It
// returns the previous limit.
func Follow(most int64) int64 {
	capLimit.Store(most)
	want := followLimit()
	old := debug.SetMemoryLimit(want)
	if followed.Swap(want) == 0 {
		armFollow()
	}
	return old
}

// followLimit is the limit Follow sets for what is live now.
func followLimit() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	var live, pct float64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = float64(s[0].Value.Uint64())
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		pct = float64(s[1].Value.Uint64())
	}
	want := max(Floor, int64(live*(1+pct/100)*1.1)+2<<20)
	return min(want, capLimit.Load())
}

// follower is what armFollow hangs a finalizer on: it is collected by the
// next collection, after which the finalizer adjusts the limit and arms
// another.
type follower struct{ _ *int }

func armFollow() {
	runtime.SetFinalizer(&follower{}, func(*follower) {
		if last := followed.Load(); debug.SetMemoryLimit(-1) == last {
			if want := followLimit(); want != last && followed.CompareAndSwap(last, want) {
				debug.SetMemoryLimit(want)
			}
		}
		armFollow()
	})
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
