package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestBatch(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if old, _ := Batch(getenv); old != 100 {
		t.Errorf("previous GC percent = %d; want 100", old)
	}
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("GC percent = %d; want %d", got, Percent)
	}
	limit := debug.SetMemoryLimit(-1) // reads the limit
	if limit < Floor || limit != followed.Load() {
		t.Errorf("memory limit = %d; want Follow's (%d), at least Floor", limit, followed.Load())
	}
	if runtime.GOOS == "linux" {
		if m := physicalMemory(); m == 0 || capLimit.Load() != int64(m/4*3) {
			t.Errorf("memory limit at most %d; want three quarters of %d", capLimit.Load(), m)
		}
	}

	// The user's settings win.
	debug.SetMemoryLimit(math.MaxInt64)
	env["GOGC"], env["GOMEMLIMIT"] = "50", "1GiB"
	if p, l := Batch(getenv); p != -1 || l != -1 {
		t.Errorf("Batch with GOGC and GOMEMLIMIT set changed (%d, %d)", p, l)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent = %d; want the untouched 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit = %d; want the untouched default", got)
	}
}

func TestStudy(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(Percent))
	if old := Study(func(string) string { return "" }); old != Percent {
		t.Errorf("previous GC percent = %d; want %d", old, Percent)
	}
	if got := debug.SetGCPercent(Percent); got != StudyPercent {
		t.Errorf("GC percent = %d; want %d", got, StudyPercent)
	}
	if old := Study(func(k string) string { return map[string]string{"GOGC": "400"}[k] }); old != -1 {
		t.Errorf("Study with GOGC set changed the percent (was %d)", old)
	}
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("GC percent = %d; want the untouched %d", got, Percent)
	}
}

func TestStream(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if old := Stream(getenv); old != math.MaxInt64 {
		t.Errorf("previous limit = %d; want %d", old, int64(math.MaxInt64))
	}
	if got := debug.SetMemoryLimit(-1); got != StreamLimit {
		t.Errorf("limit = %d; want %d", got, StreamLimit)
	}
	env["GOMEMLIMIT"] = "1GiB"
	debug.SetMemoryLimit(math.MaxInt64)
	if old := Stream(getenv); old != -1 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: Stream = %d and the limit changed; want -1 and unchanged", old)
	}
}

var kept [][]byte

// TestFollow: the limit Follow sets is Floor while little is live, rises
// after collections to what GOGC lets the heap grow to once much is live,
// and is left alone while someone else's limit is in force.
func TestFollow(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(Percent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	runtime.GC()
	Follow(math.MaxInt64)
	if got := debug.SetMemoryLimit(-1); got != Floor {
		t.Fatalf("limit with little live = %d; want Floor %d", got, Floor)
	}
	for range 64 {
		kept = append(kept, make([]byte, 1<<20))
	}
	defer func() { kept = nil }()
	want := int64(64<<20) * (1 + Percent/100)
	waitLimit := func(rounds int, ok func(int64) bool) int64 {
		var got int64
		for range rounds {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
			if got = debug.SetMemoryLimit(-1); ok(got) {
				break
			}
		}
		return got
	}
	if got := waitLimit(200, func(l int64) bool { return l >= want }); got < want {
		t.Fatalf("limit with 64 MB live = %d; want at least %d", got, want)
	}
	// Someone else's limit stays until restored.
	old := debug.SetMemoryLimit(StreamLimit)
	kept = nil
	if got := waitLimit(10, func(l int64) bool { return l != StreamLimit }); got != StreamLimit {
		t.Fatalf("limit set by another = %d; want it kept, %d", got, StreamLimit)
	}
	debug.SetMemoryLimit(old)
	if got := waitLimit(200, func(l int64) bool { return l == Floor }); got != Floor {
		t.Fatalf("limit once little is live again = %d; want Floor %d", got, Floor)
	}
}
